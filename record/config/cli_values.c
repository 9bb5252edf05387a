/* cli_values: parsing and naming of single command-line values. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *cli_api_name(enum api_kind api)
{
    switch (api) {
    case API_OPENAI_COMPLETIONS:
        return "openai-completions";
    case API_ANTHROPIC:
        return "anthropic";
    case API_OPENAI_CHAT:
        break;
    }
    return "openai-chat";
}

const char *cli_api_path(enum api_kind api)
{
    switch (api) {
    case API_OPENAI_COMPLETIONS:
        return "/v1/completions";
    case API_ANTHROPIC:
        return "/v1/messages";
    case API_OPENAI_CHAT:
        break;
    }
    return "/v1/chat/completions";
}

const char *cli_request_path(const struct config *cfg)
{
    if (!cfg->sdk_base)
        return cli_api_path(cfg->api);
    switch (cfg->api) {
    case API_OPENAI_COMPLETIONS:
        return "/completions";
    case API_ANTHROPIC:
        return "/v1/messages"; /* the Anthropic SDK's */
    case API_OPENAI_CHAT:
        break;
    }
    return "/chat/completions";
}

int cli_parse_seconds(const char *s, double *out)
{
    char *end;
    double v, mult = 1.0;
    errno = 0;
    v = strtod(s, &end);
    if (end == s || errno || !isfinite(v) || v < 0)
        return -1;
    if (strcmp(end, "ms") == 0)
        mult = 0.001;
    else if (strcmp(end, "m") == 0)
        mult = 60.0;
    else if (strcmp(end, "h") == 0)
        mult = 3600.0;
    else if (*end != '\0' && strcmp(end, "s") != 0)
        return -1;
    *out = v * mult;
    return 0;
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
