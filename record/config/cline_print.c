/* cline_print: writes the Cline settings.json skeleton. */
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
            "// Cline (VS Code) settings for the OpenAI-compatible gateway\n"
            "// %s and model %s,\n"
            "// written by tokentrace-record --print-cline-settings.\n"
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
            bu.endpoint, jmodel, var, jbase, jref, jmodel);
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
