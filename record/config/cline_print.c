/* cline_print: writes the settings for each Cline: the `cline auth`
 * command, the providers.json fragment, the extension's settings screen
 * (all as // comments), then the seed's settings.json skeleton. */
#include "cline_print.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base_url.h"

/* s as a JSON string literal (malloc'd), or NULL when out of memory. */
static char *json_string(const char *s)
{
    cJSON *j = cJSON_CreateString(s);
    char *out = j ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    return out;
}

/* Cline's base URL for the normalized base: Cline (the OpenAI SDK) appends
 * /chat/completions, so the base ends in /v1 unless it came from Cline. */
static void cline_base(const struct config *cfg, const char *endpoint,
                       char *out, size_t len)
{
    size_t n = strlen(endpoint);
    bool v1 = n >= 3 && strcmp(endpoint + n - 3, "/v1") == 0;
    snprintf(out, len, "%s%s", endpoint, v1 || cfg->sdk_base ? "" : "/v1");
}

/* s single-quoted for a POSIX shell into b; false when s holds a control
 * character (a line break would end the comment it is printed in). */
static bool shell_quote(const char *s, char *b, size_t len)
{
    size_t n = 0;
    if (len < 3)
        return false;
    b[n++] = '\'';
    for (; *s; s++) {
        if ((unsigned char)*s < 0x20 || *s == 0x7f || n + 6 >= len)
            return false;
        if (*s == '\'') {
            memcpy(b + n, "'\\''", 4);
            n += 4;
        } else {
            b[n++] = *s;
        }
    }
    b[n++] = '\'';
    b[n] = '\0';
    return true;
}

/* The forms of Cline's own store, as comments: the one command, the
 * providers.json it writes, the extension's screen (cline_store.h). */
static void print_store(FILE *out, const char *base, const char *model,
                        const char *jbase, const char *jmodel, const char *var)
{
    char qb[BASE_URL_MAX * 4 + 16], qm[1024];
    bool sh =
        shell_quote(base, qb, sizeof qb) && shell_quote(model, qm, sizeof qm);
    fprintf(out,
            "// 1. Cline CLI (npm cline): one command writes Cline's\n"
            "//    ~/.cline/data/settings/providers.json (the key read from "
            "$%s, never printed):\n",
            var);
    if (sh)
        fprintf(out,
                "//   cline auth -p openai-compatible -k \"$%s\" -m %s -b %s\n",
                var, qm, qb);
    else
        fprintf(out, "//   (the model name holds a control character: use "
                     "the providers.json form)\n");
    fprintf(out,
            "// 2. The providers.json it writes (the CLI and the VS Code "
            "extension read it;\n"
            "//    without \"apiKey\" Cline sends $OPENAI_API_KEY):\n"
            "//   {\"version\": 1, \"lastUsedProvider\": "
            "\"openai-compatible\", \"modes\": {},\n"
            "//    \"providers\": {\"openai-compatible\": {\"settings\": {\n"
            "//      \"provider\": \"openai-compatible\", \"apiKey\": "
            "\"<the key in $%s>\",\n"
            "//      \"model\": %s, \"baseUrl\": %s, \"timeout\": %d},\n"
            "//      \"updatedAt\": \"2026-01-01T00:00:00.000Z\", "
            "\"tokenSource\": \"manual\"}}}\n"
            "// 3. VS Code extension, settings screen, API Provider "
            "\"OpenAI Compatible\":\n"
            "//    Base URL: %s\n"
            "//    API Key:  the key in $%s (paste it; not printed)\n"
            "//    Model ID: %s\n"
            "// 4. The seed's VS Code settings.json form (\"cline.*\" keys), "
            "below.\n"
            "// Check Cline's own files where Cline looks: tokentrace-record "
            "--check --cline-settings\n",
            var, jmodel, jbase, CLINE_PRINT_TIMEOUT_MS, base, var, jmodel);
}

int cline_print_settings(FILE *out, const struct config *cfg, char *err,
                         size_t errlen)
{
    struct base_url bu;
    char base[BASE_URL_MAX + 8];
    const char *var = cfg->api_key_env ? cfg->api_key_env : "OPENAI_API_KEY";
    char *jbase, *jmodel, *jref;
    char ref[256];
    size_t i;
    if (cfg->api != API_OPENAI_CHAT) {
        snprintf(err, errlen,
                 "--print-cline-settings writes Cline's OpenAI "
                 "Compatible provider, which speaks openai-chat: drop --api "
                 "%s",
                 api_kind_name(cfg->api));
        return 2;
    }
    if (base_url_normalize(cfg->base_url, cli_request_path(cfg), NULL, &bu)) {
        snprintf(err, errlen, "%s", bu.message);
        return 2;
    }
    cline_base(cfg, bu.endpoint, base, sizeof base);
    snprintf(ref, sizeof ref, "${env:%s}", var);
    jbase = json_string(base);
    jmodel = json_string(cfg->models[0]);
    jref = json_string(ref);
    if (!jbase || !jmodel || !jref) {
        free(jbase);
        free(jmodel);
        free(jref);
        snprintf(err, errlen, "out of memory");
        return 1;
    }
    fprintf(out,
            "// Cline settings for the OpenAI-compatible gateway\n"
            "// %s and model %s,\n"
            "// written by tokentrace-record --print-cline-settings.\n",
            bu.endpoint, jmodel);
    print_store(out, base, cfg->models[0], jbase, jmodel, var);
    fprintf(out,
            "// Paste the \"cline.*\" lines into settings.json (command "
            "palette:\n"
            "// \"Preferences: Open User Settings (JSON)\"). The key stays out "
            "of the\n"
            "// file: export %s=<your key> in the environment VS Code\n"
            "// starts from. Check the channel with this file saved as "
            "cline.json:\n"
            "//   tokentrace-record --check --cline-settings cline.json\n"
            "{\n"
            "  \"cline.apiProvider\": \"openai\",\n"
            "  \"cline.openAiBaseUrl\": %s,\n"
            "  \"cline.openAiApiKey\": %s,\n"
            "  \"cline.openAiModelId\": %s,\n",
            var, jbase, jref, jmodel);
    if (cfg->max_tokens > 0)
        fprintf(out, "  \"cline.openAiModelInfo\": { \"maxTokens\": %lld },\n",
                (long long)cfg->max_tokens);
    else
        fprintf(out, "  // \"cline.openAiModelInfo\": { \"maxTokens\": 8192 "
                     "},\n");
    if (cfg->n_models > 1) {
        fprintf(out, "  // other models to try:");
        for (i = 1; i < cfg->n_models; i++) {
            char *m = json_string(cfg->models[i]); /* no line breaks */
            fprintf(out, "%s %s", i > 1 ? "," : "", m ? m : "?");
            free(m);
        }
        fprintf(out, "\n");
    }
    fprintf(out, "  \"cline.requestTimeoutMs\": %d\n}\n",
            CLINE_PRINT_TIMEOUT_MS);
    free(jbase);
    free(jmodel);
    free(jref);
    return 0;
}
