/* cli_values: parsing and naming of single command-line values. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>

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

int cli_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    char *end;
    unsigned long long v;
    if (*s == '-' || *s == '\0')
        return -1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (*end != '\0' || errno || v < min || v > max)
        return -1;
    *out = v;
    return 0;
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
