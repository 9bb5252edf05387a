/* api_kind_test: the one table of API kinds: every name parses back to its
 * kind, paths are the ones each API is served at, and unknown names or
 * values are refused. */
#include <stdio.h>
#include <string.h>

#include "api_kind.h"
#include "check.h"

static const struct {
    enum api_kind kind;
    const char *name;
    const char *path;
} kinds[] = {
    {API_OPENAI_CHAT, "openai-chat", "/v1/chat/completions"},
    {API_OPENAI_COMPLETIONS, "openai-completions", "/v1/completions"},
    {API_ANTHROPIC, "anthropic", "/v1/messages"},
    {API_OPENAI_RESPONSES, "openai-responses", "/v1/responses"},
};

/* Names that are not kinds: near misses, other cases, empty. */
static const char *const bad_names[] = {
    "",         "openai", "OpenAI-Chat", "openai-chat ", " anthropic",
    "messages", "chat",   "openai_chat", "unknown",      "responses",
};

int main(void)
{
    char all[256] = "";
    size_t len = 0;
    enum api_kind k;

    CHECK(sizeof(kinds) / sizeof(*kinds) == API_KIND_COUNT);
    for (size_t i = 0; i < sizeof(kinds) / sizeof(*kinds); i++) {
        CHECK_MSG(strcmp(api_kind_name(kinds[i].kind), kinds[i].name) == 0,
                  "name of %zu", i);
        CHECK_MSG(strcmp(api_kind_path(kinds[i].kind), kinds[i].path) == 0,
                  "path of %s", kinds[i].name);
        k = (enum api_kind)99;
        CHECK_MSG(api_kind_from_name(kinds[i].name, &k) == 0 &&
                      k == kinds[i].kind,
                  "%s does not parse back", kinds[i].name);
        len += (size_t)snprintf(all + len, sizeof(all) - len, "%s%s",
                                i ? ", " : "", kinds[i].name);
    }
    CHECK_MSG(strcmp(api_kind_names(), all) == 0, "api_kind_names: '%s'",
              api_kind_names());
    for (size_t i = 0; i < sizeof(bad_names) / sizeof(*bad_names); i++) {
        k = API_ANTHROPIC;
        CHECK_MSG(api_kind_from_name(bad_names[i], &k) == -1 &&
                      k == API_ANTHROPIC,
                  "'%s' accepted", bad_names[i]);
    }
    k = API_ANTHROPIC;
    CHECK(api_kind_from_name(NULL, &k) == -1 && k == API_ANTHROPIC);
    CHECK(strcmp(api_kind_name((enum api_kind)API_KIND_COUNT), "unknown") == 0);
    CHECK(strcmp(api_kind_path((enum api_kind) - 1), "") == 0);
    return CHECK_DONE();
}
