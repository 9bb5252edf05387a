/* cline_settings_test: Cline settings.json: values, lines, errors
 * naming key and line, and the merge with the command line. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cline_settings.h"

static const char full[] =
    "// Cline settings\n"                                         /* 1 */
    "{\n"                                                         /* 2 */
    "  \"editor.fontSize\": 14,\n"                                /* 3 */
    "  /* the gateway */\n"                                       /* 4 */
    "  \"cline.apiProvider\": \"openai\",\n"                      /* 5 */
    "  \"cline.openAiBaseUrl\": \"https://gw.example/api/v1\",\n" /* 6 */
    "  \"cline.openAiApiKey\": \"${env:TT_TEST_GW_KEY}\",\n"      /* 7 */
    "  \"cline.openAiModelId\": \"model-a\", // main model\n"     /* 8 */
    "  \"cline.openAiModelInfo\": {\n"                            /* 9 */
    "    \"maxTokens\": 8192,\n"                                  /* 10 */
    "    \"contextWindow\": 128000,\n"                            /* 11 */
    "  },\n"                                                      /* 12 */
    "  \"cline.requestTimeoutMs\": 600000,\n"                     /* 13 */
    "}\n";

/* Files that must be refused, and what the message must say. */
static const struct {
    const char *text;
    const char *want;
} bad[] = {
    {"{\n\"cline.apiProvider\": \"anthropic\"\n}",
     "s.json:2: cline.apiProvider: is \"anthropic\", not an "
     "OpenAI-compatible provider"},
    {"{\n\"cline.openAiModelId\": \"m\"\n\"cline.apiProvider\": \"openai\"}",
     "s.json:3: syntax error"},
    {"{\"cline.openAiModelId\": 5}", "s.json:1: cline.openAiModelId: must "
                                     "be a string, not a number"},
    {"{\n\n\"cline.requestTimeoutMs\": \"600\"}",
     "s.json:3: "
     "cline.requestTimeoutMs: must be a number"},
    {"{\"cline.openAiModelInfo\": {\"maxTokens\": 0.5}}", "maxTokens: must "
                                                          "be a whole number"},
    {"{\"cline.openAiModelInfo\": 5}", "cline.openAiModelInfo: must be an "
                                       "object"},
    {"{\"cline.openAiApiKey\": \"$GW_KEY\"}", "\"${env:NAME}\""},
    {"{\"cline.openAiApiKey\": \"${env:1BAD}\"}", "not a valid name"},
    {"{\"cline.openAiBaseUrl\": \"  \"}", "cline.openAiBaseUrl: is empty"},
    {"{\"editor.fontSize\": 14}", "no Cline settings found"},
    {"[1, 2]", "must hold a { ... } object"},
    {"{\n/* never closed\n", "s.json:2: a /* comment that never ends"},
};

static void config_init(struct config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->max_tokens = -1;
    cfg->timeout_s = 600;
}

int main(void)
{
    struct cline_settings *cs;
    struct config cfg;
    char err[512];
    size_t i;

    CHECK(cline_settings_parse("s.json", full, strlen(full), &cs, err,
                               sizeof err) == CLINE_OK);
    CHECK(strcmp(cs->provider, "openai") == 0 && cs->provider_line == 5);
    CHECK(strcmp(cs->base_url, "https://gw.example/api/v1") == 0 &&
          cs->base_url_line == 6);
    CHECK(strcmp(cs->key_env, "TT_TEST_GW_KEY") == 0 && !cs->key_literal &&
          cs->key_line == 7);
    CHECK(strcmp(cs->model, "model-a") == 0 && cs->model_line == 8);
    CHECK(cs->max_tokens == 8192 && cs->max_tokens_line == 9);
    CHECK(cs->timeout_ms == 600000 && cs->timeout_line == 13);

    /* a missing variable names the key and its line */
    unsetenv("TT_TEST_GW_KEY");
    config_init(&cfg);
    CHECK(cline_settings_apply(cs, &cfg, err, sizeof err) == CLINE_E_INVALID);
    CHECK(strstr(err, "s.json:7: cline.openAiApiKey: ${env:TT_TEST_GW_KEY} "
                      "but TT_TEST_GW_KEY is not set") != NULL);
    setenv("TT_TEST_GW_KEY", " ", 1);
    config_init(&cfg);
    CHECK(cline_settings_apply(cs, &cfg, err, sizeof err) == CLINE_E_INVALID &&
          strstr(err, "set and empty"));

    /* the file fills what the command line left unset */
    setenv("TT_TEST_GW_KEY", "k", 1);
    config_init(&cfg);
    CHECK(cline_settings_apply(cs, &cfg, err, sizeof err) == CLINE_OK);
    CHECK(cfg.base_url == cs->base_url && cfg.sdk_base);
    CHECK(cfg.n_models == 1 && strcmp(cfg.models[0], "model-a") == 0);
    CHECK(cfg.api_key_env && strcmp(cfg.api_key_env, "TT_TEST_GW_KEY") == 0);
    CHECK(cfg.max_tokens == 8192 && cfg.timeout_s == 600.0);
    CHECK(cs->overridden[0] == '\0');

    /* flags win, and are noted */
    config_init(&cfg);
    cfg.base_url = "http://other";
    cfg.models[cfg.n_models++] = "model-b";
    cfg.api_key_env = "OTHER";
    cfg.api_key_env_given = true;
    cfg.max_tokens = 10;
    cfg.timeout_s = 5;
    cfg.timeout_given = true;
    CHECK(cline_settings_apply(cs, &cfg, err, sizeof err) == CLINE_OK);
    CHECK(strcmp(cfg.base_url, "http://other") == 0 && !cfg.sdk_base);
    CHECK(cfg.n_models == 1 && strcmp(cfg.models[0], "model-b") == 0);
    CHECK(strcmp(cfg.api_key_env, "OTHER") == 0);
    CHECK(cfg.max_tokens == 10 && cfg.timeout_s == 5);
    CHECK(strcmp(cs->overridden, "-u,-m,--api-key-env,--max-tokens,"
                                 "--timeout") == 0);
    cline_settings_free(cs);

    /* a literal key works (and is used); the flat maxTokens key; -1 */
    {
        const char *lit = "{\"cline.apiProvider\":\"openai\","
                          "\"cline.openAiApiKey\":\" sk-literal-123 \","
                          "\"cline.openAiModelInfo.maxTokens\": 512,"
                          "\"cline.requestTimeoutMs\": -1}";
        CHECK(cline_settings_parse("s.json", lit, strlen(lit), &cs, err,
                                   sizeof err) == CLINE_OK);
        CHECK(cs->key_literal &&
              strcmp(cs->key_literal, "sk-literal-123") == 0 && !cs->key_env);
        CHECK(cs->max_tokens == 512 && cs->timeout_ms == -1);
        config_init(&cfg);
        CHECK(cline_settings_apply(cs, &cfg, err, sizeof err) == CLINE_OK);
        CHECK(cfg.api_key_literal == cs->key_literal && !cfg.api_key_env);
        CHECK(!cfg.base_url && cfg.n_models == 0);
        cline_settings_free(cs);
    }

    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = cline_settings_parse(
            "s.json", bad[i].text, strlen(bad[i].text), &cs, err, sizeof err);
        CHECK_MSG(rc == CLINE_E_INVALID && cs == NULL, "bad[%zu] accepted", i);
        CHECK_MSG(strstr(err, bad[i].want) != NULL,
                  "bad[%zu]: '%s' lacks "
                  "'%s'",
                  i, err, bad[i].want);
        CHECK_MSG(strstr(err, "sk-") == NULL, "bad[%zu] shows a key", i);
    }
    CHECK(cline_settings_load("/nonexistent/settings.json", &cs, err,
                              sizeof err) == CLINE_E_IO &&
          strstr(err, "/nonexistent/settings.json"));
    cline_settings_free(NULL);
    return CHECK_DONE();
}
