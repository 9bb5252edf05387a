/* proxy_cline: the Cline settings pointing at the proxy: the `cline auth`
 * command (Cline's providers.json), the extension's screen, and the seed's
 * settings.json block. */
#include "proxy_cline.h"

#include <string.h>

#include "proxy_access.h"

#define CLINE_TIMEOUT_MS 600000 /* reasoning models think for minutes */

int proxy_cline_print(FILE *out, const struct proxy_config *cfg, char *err,
                      size_t errlen)
{
    char host[256], base[320], key[300], arg[300], screen[300];
    unsigned port;
    bool anthropic = strcmp(cfg->api, "anthropic") == 0;
    if (proxy_access_listen(cfg->listen, host, sizeof host, &port) ||
        port == 0) {
        snprintf(err, errlen,
                 "--print-cline-settings needs the proxy's --listen "
                 "HOST:PORT with a fixed port, got '%s'",
                 cfg->listen);
        return 2;
    }
    if (strcmp(host, "0.0.0.0") == 0 || strcmp(host, "::") == 0)
        snprintf(host, sizeof host, "127.0.0.1");
    snprintf(base, sizeof base,
             strchr(host, ':') ? "http://[%s]:%u%s" : "http://%s:%u%s", host,
             port, anthropic ? "" : "/v1");
    /* the value Cline sends as its key: the real key (forwarded), the
     * local token, or anything when the proxy injects the key */
    if (cfg->token_env)
        snprintf(key, sizeof key, "${env:%s}", cfg->token_env);
    else if (cfg->key_env)
        snprintf(key, sizeof key, "proxy-injects-the-key");
    else
        snprintf(key, sizeof key, "${env:%s}",
                 anthropic ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY");
    /* the same value for the one command: the variable for the shell */
    if (cfg->token_env || !cfg->key_env) {
        const char *var = cfg->token_env ? cfg->token_env
                          : anthropic    ? "ANTHROPIC_API_KEY"
                                         : "OPENAI_API_KEY";
        snprintf(arg, sizeof arg, "\"$%s\"", var);
        snprintf(screen, sizeof screen, "the value of $%s", var);
    } else {
        snprintf(arg, sizeof arg, "proxy-injects-the-key");
        snprintf(screen, sizeof screen, "anything (the proxy injects the key)");
    }
    fprintf(out,
            "// Cline through tokentrace-proxy on %s, in one command\n"
            "// (Cline CLI, npm cline: it writes ~/.cline/data/settings/"
            "providers.json,\n"
            "// which the VS Code extension reads too):\n"
            "//   cline auth -p %s -k %s -m MODEL_ID -b '%s'\n"
            "// (MODEL_ID: the upstream's model id). Or in the VS Code "
            "extension's\n"
            "// settings screen, API Provider \"%s\": Base URL %s,\n"
            "// API Key %s, Model ID the upstream's.\n",
            cfg->listen, anthropic ? "anthropic" : "openai-compatible", arg,
            base, anthropic ? "Anthropic" : "OpenAI Compatible", base, screen);
    fprintf(out,
            "// The seed's settings.json form: Cline's requests through\n"
            "// tokentrace-proxy on %s (written by tokentrace-proxy\n"
            "// --print-cline-settings). Paste the \"cline.*\" lines into\n"
            "// settings.json (\"Preferences: Open User Settings (JSON)\"),\n"
            "// start the proxy with the same flags, use Cline as usual, then\n"
            "//   tokentrace-analyze summary THE_PROXY_TRACE.ttrace\n"
            "{\n",
            cfg->listen);
    if (anthropic)
        fprintf(out,
                "  \"cline.apiProvider\": \"anthropic\",\n"
                "  \"cline.anthropicBaseUrl\": \"%s\",\n"
                "  \"cline.apiKey\": \"%s\",\n",
                base, key);
    else
        fprintf(out,
                "  \"cline.apiProvider\": \"openai\",\n"
                "  \"cline.openAiBaseUrl\": \"%s\",\n"
                "  \"cline.openAiApiKey\": \"%s\",\n"
                "  // \"cline.openAiModelId\": \"the upstream's model id\",\n",
                base, key);
    fprintf(out, "  \"cline.requestTimeoutMs\": %d\n}\n", CLINE_TIMEOUT_MS);
    return 0;
}
