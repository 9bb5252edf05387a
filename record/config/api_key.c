/* api_key: key lookup by API kind, and the Bearer / x-api-key header. */
#include "api_key.h"
#include "cline_settings.h"
#include "secret.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* v when it is not NULL and not blank, else NULL. */
static const char *nonblank(const char *v)
{
    const char *p;
    if (!v)
        return NULL;
    for (p = v; *p; p++)
        if (*p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
            return v;
    return NULL;
}

/* The value of name when set and not blank, else NULL. */
static const char *get(const char *name)
{
    return nonblank(getenv(name));
}

int api_key_load(const struct config *cfg, struct api_key *k, char *err,
                 size_t errlen)
{
    const char *v = NULL;
    size_t len, i, hlen;
    memset(k, 0, sizeof *k);
    if (cfg->api_key_env) {
        k->env = cfg->api_key_env;
        v = get(k->env);
    } else if (cfg->api_key_literal) {
        k->env = cfg->cline ? cfg->cline->names.key : "cline.openAiApiKey";
        k->from_settings = true;
        v = nonblank(cfg->api_key_literal);
    } else if (cfg->api == API_ANTHROPIC) {
        k->env = "ANTHROPIC_API_KEY";
        v = get(k->env);
        if (!v && get("OPENAI_API_KEY")) {
            k->env = "OPENAI_API_KEY";
            v = get(k->env);
        }
    } else {
        k->env = "OPENAI_API_KEY";
        v = get(k->env);
    }
    if (k->from_settings)
        snprintf(k->source, sizeof k->source, "%s%s in %s",
                 cfg->cline ? cfg->cline->names.scope : "", k->env,
                 cfg->cline && cfg->cline->key_path ? cfg->cline->key_path
                 : cfg->cline                       ? cfg->cline->path
                                                    : "the settings file");
    else
        snprintf(k->source, sizeof k->source, "$%s", k->env);
    if (!v)
        return API_KEY_OK;
    len = strlen(v);
    while (len && (v[len - 1] == ' ' || v[len - 1] == '\t' ||
                   v[len - 1] == '\r' || v[len - 1] == '\n'))
        len--;
    while (len && (*v == ' ' || *v == '\t')) {
        v++;
        len--;
    }
    for (i = 0; i < len; i++) {
        if ((unsigned char)v[i] < 0x20 || v[i] == 0x7f) {
            snprintf(err, errlen,
                     "the key in %s contains a line break or "
                     "control character",
                     k->source);
            return API_KEY_E_BAD;
        }
    }
    k->value = strndup(v, len);
    hlen = len + 32;
    k->header = malloc(hlen);
    if (!k->value || !k->header) {
        api_key_free(k);
        snprintf(err, errlen, "out of memory");
        return API_KEY_E_NOMEM;
    }
    snprintf(k->header, hlen, "%s%s",
             cfg->api == API_ANTHROPIC ? "x-api-key: "
                                       : "Authorization: Bearer ",
             k->value);
    return API_KEY_OK;
}

void api_key_free(struct api_key *k)
{
    if (!k)
        return;
    secret_free(k->value);
    secret_free(k->header);
    k->value = k->header = NULL;
}
