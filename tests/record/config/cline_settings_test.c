/* cline_settings_test: Cline settings.json: values, lines, errors
 * naming key and line, and the merge with the command line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Cline's providers.json (the form `cline auth` writes), two providers. */
static const char providers[] =
    "{\n"                                   /* 1 */
    "  \"version\": 1,\n"                   /* 2 */
    "  \"lastUsedProvider\": \"openai\",\n" /* 3 */
    "  \"providers\": {\n"                  /* 4 */
    "    \"anthropic\": {\"settings\": {\"provider\": \"anthropic\", "
    "\"baseUrl\": \"https://a.example\"}},\n"                   /* 5 */
    "    \"openai-compatible\": {\n"                            /* 6 */
    "      \"settings\": {\n"                                   /* 7 */
    "        \"provider\": \"openai-compatible\",\n"            /* 8 */
    "        \"auth\": {\"apiKey\": \"sk-auth-0123456789\"},\n" /* 9 */
    "        \"model\": \"m1\",\n"                              /* 10 */
    "        \"baseUrl\": \"https://gw.example/v1\",\n"         /* 11 */
    "        \"timeout\": 90000,\n"                             /* 12 */
    "        \"maxTokens\": 256\n"                              /* 13 */
    "      }, \"updatedAt\": \"2026-12-03T09:31:00.216Z\", "
    "\"tokenSource\": \"manual\"}}}\n";

/* Writes text to path. */
static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* Cline's store: the provider used, its values and lines, the alias
 * "openai", the nested key; and the lookup in the environment. */
static void store_checks(void)
{
    struct cline_settings *cs;
    char err[512], dir[] = "/tmp/cline_settings_test.XXXXXX", path[4096],
                   why[4200], sub[4200];
    CHECK(cline_settings_parse("p.json", providers, strlen(providers), &cs, err,
                               sizeof err) == CLINE_OK);
    CHECK(cs->form == CLINE_FORM_PROVIDERS);
    CHECK(strcmp(cs->provider, "openai") == 0 && cs->provider_line == 3);
    CHECK(strcmp(cs->base_url, "https://gw.example/v1") == 0 &&
          cs->base_url_line == 11);
    CHECK(strcmp(cs->model, "m1") == 0 && cs->model_line == 10);
    CHECK(cs->key_literal &&
          strcmp(cs->key_literal, "sk-auth-0123456789") == 0);
    CHECK(strcmp(cs->names.key, "auth.apiKey") == 0 && !cs->key_default_env);
    CHECK(cs->timeout_ms == 90000 && cs->max_tokens == 256);
    CHECK(strcmp(cs->names.scope, "providers.openai-compatible.settings.") ==
          0);
    cline_settings_free(cs);
    {
        const char *other = "{\"lastUsedProvider\":\"anthropic\","
                            "\"providers\":{\"anthropic\":{\"settings\":{}}}}";
        CHECK(cline_settings_parse("p.json", other, strlen(other), &cs, err,
                                   sizeof err) == CLINE_E_INVALID);
        CHECK(strstr(err, "p.json:1: lastUsedProvider: is \"anthropic\"") &&
              strstr(err, "cline auth -p openai-compatible"));
    }

    /* where Cline looks */
    CHECK(mkdtemp(dir) != NULL);
    unsetenv("CLINE_PROVIDER_SETTINGS_PATH");
    unsetenv("CLINE_DIR");
    setenv("CLINE_DATA_DIR", dir, 1);
    CHECK(cline_settings_find(path, sizeof path, why, sizeof why) ==
              CLINE_E_IO &&
          strstr(why, "from $CLINE_DATA_DIR"));
    snprintf(sub, sizeof sub, "%s/globalState.json", dir);
    put(sub, "{\"actModeApiProvider\": \"openai\"}");
    CHECK(cline_settings_find(path, sizeof path, why, sizeof why) == CLINE_OK &&
          strcmp(path, sub) == 0 && strcmp(why, "$CLINE_DATA_DIR") == 0);
    snprintf(sub, sizeof sub, "%s/settings", dir);
    mkdir(sub, 0700);
    snprintf(sub, sizeof sub, "%s/settings/providers.json", dir);
    put(sub, providers);
    CHECK(cline_settings_find(path, sizeof path, why, sizeof why) == CLINE_OK &&
          strcmp(path, sub) == 0); /* providers.json before the legacy */
    unsetenv("CLINE_DATA_DIR");
    setenv("HOME", dir, 1);
    CHECK(cline_settings_find(path, sizeof path, why, sizeof why) ==
              CLINE_E_IO &&
          strstr(why, "/.cline/data/settings/providers.json") &&
          strstr(why, "from ~/.cline/data"));
    setenv("CLINE_PROVIDER_SETTINGS_PATH", sub, 1);
    CHECK(cline_settings_find(path, sizeof path, why, sizeof why) == CLINE_OK &&
          strcmp(path, sub) == 0 &&
          strcmp(why, "$CLINE_PROVIDER_SETTINGS_PATH") == 0);
    CHECK(cline_settings_load(dir, &cs, err, sizeof err) == CLINE_OK &&
          strcmp(cs->path, sub) == 0);
    cline_settings_free(cs);
    unsetenv("CLINE_PROVIDER_SETTINGS_PATH");
    unlink(sub);
    snprintf(sub, sizeof sub, "%s/settings", dir);
    rmdir(sub);
    snprintf(sub, sizeof sub, "%s/globalState.json", dir);
    unlink(sub);
    rmdir(dir);
}

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
    store_checks();
    return CHECK_DONE();
}
