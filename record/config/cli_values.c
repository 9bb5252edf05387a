/* cli_values: naming and checking single command-line values. */
#include "cli.h"

#include "sanitize.h"

const char *cli_request_path(const struct config *cfg)
{
    if (!cfg->sdk_base)
        return api_kind_path(cfg->api);
    switch (cfg->api) {
    case API_OPENAI_COMPLETIONS:
        return "/completions";
    case API_ANTHROPIC:
        return "/v1/messages"; /* the Anthropic SDK's */
    case API_OPENAI_RESPONSES:
        return "/responses";
    case API_OPENAI_CHAT:
        break;
    }
    return "/chat/completions";
}

bool cli_env_name_ok(const char *name)
{
    const char *p;
    if (!(*name == '_' || (*name >= 'A' && *name <= 'Z') ||
          (*name >= 'a' && *name <= 'z')))
        return false;
    for (p = name; *p; p++)
        if (!(*p == '_' || (*p >= 'A' && *p <= 'Z') ||
              (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
            return false;
    return true;
}

const char *cli_shown(const char *v)
{
    return sanitize_looks_secret(v) ? "[redacted]" : v;
}
