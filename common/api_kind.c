/* api_kind: the table of API kinds: name and URL path. */
#include "api_kind.h"

#include <string.h>

static const struct {
    const char *name;
    const char *path;
} api_kinds[API_KIND_COUNT] = {
    [API_OPENAI_CHAT] = {"openai-chat", "/v1/chat/completions"},
    [API_OPENAI_COMPLETIONS] = {"openai-completions", "/v1/completions"},
    [API_ANTHROPIC] = {"anthropic", "/v1/messages"},
    [API_OPENAI_RESPONSES] = {"openai-responses", "/v1/responses"},
};

const char *api_kind_name(enum api_kind api)
{
    if ((unsigned)api < API_KIND_COUNT)
        return api_kinds[api].name;
    return "unknown";
}

int api_kind_from_name(const char *name, enum api_kind *out)
{
    for (unsigned i = 0; name && i < API_KIND_COUNT; i++) {
        if (strcmp(name, api_kinds[i].name) == 0) {
            *out = (enum api_kind)i;
            return 0;
        }
    }
    return -1;
}

const char *api_kind_path(enum api_kind api)
{
    if ((unsigned)api < API_KIND_COUNT)
        return api_kinds[api].path;
    return "";
}

const char *api_kind_names(void)
{
    /* api_kind_test checks this against the table */
    return "openai-chat, openai-completions, anthropic, openai-responses";
}
