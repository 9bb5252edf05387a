/* cline_settings: Cline's settings.json (JSONC) into the recorder's
 * config: parsing and checking each key, merging, warnings. */
#include "cline_settings.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonc.h"
#include "log.h"
#include "sanitize.h"
#include "secret.h"

#define K_PROVIDER "cline.apiProvider"
#define K_BASE_URL "cline.openAiBaseUrl"
#define K_KEY "cline.openAiApiKey"
#define K_MODEL "cline.openAiModelId"
#define K_MODEL_INFO "cline.openAiModelInfo"
#define K_MAX_TOKENS "cline.openAiModelInfo.maxTokens"
#define K_TIMEOUT "cline.requestTimeoutMs"

/* Cline's id of its "OpenAI Compatible" provider. */
#define OPENAI_COMPATIBLE "openai"

/* Formats "NAME:LINE: KEY: reason" into err; returns CLINE_E_INVALID. */
static int bad(char *err, size_t errlen, const char *name, int line,
               const char *key, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static int bad(char *err, size_t errlen, const char *name, int line,
               const char *key, const char *fmt, ...)
{
    va_list ap;
    int n =
        snprintf(err, errlen, "%s:%d: %s: ", name, line > 0 ? line : 1, key);
    if (n < 0 || (size_t)n >= errlen)
        return CLINE_E_INVALID;
    va_start(ap, fmt);
    vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return CLINE_E_INVALID;
}

/* JSON type name of v, for messages. */
static const char *type_name(const cJSON *v)
{
    if (cJSON_IsString(v))
        return "a string";
    if (cJSON_IsNumber(v))
        return "a number";
    if (cJSON_IsBool(v))
        return "true/false";
    if (cJSON_IsNull(v))
        return "null";
    if (cJSON_IsArray(v))
        return "an array";
    return "an object";
}

/* Copies the trimmed string value of key into *dst (NULL when absent) and
 * its line into *line. A non-string or an empty string is an error. */
static int get_string(const struct jsonc_doc *doc, const char *name,
                      const char *key, char **dst, int *line, char *err,
                      size_t errlen)
{
    const cJSON *v = jsonc_get(doc, key);
    const char *s, *e;
    *dst = NULL;
    *line = jsonc_key_line(doc, key);
    if (!v)
        return CLINE_OK;
    if (!cJSON_IsString(v))
        return bad(err, errlen, name, *line, key, "must be a string, not %s",
                   type_name(v));
    for (s = v->valuestring; *s == ' ' || *s == '\t'; s++)
        ;
    for (e = s + strlen(s); e > s && (e[-1] == ' ' || e[-1] == '\t'); e--)
        ;
    if (e == s)
        return bad(err, errlen, name, *line, key, "is empty");
    *dst = strndup(s, (size_t)(e - s));
    return *dst ? CLINE_OK : CLINE_E_NOMEM;
}

/* Reads a whole number of key (in [min, max]) into *dst; -1 when absent
 * or when it is one of Cline's "unset" values (-1). */
static int get_count(const cJSON *v, const char *name, int line,
                     const char *key, int64_t max, int64_t *dst, char *err,
                     size_t errlen)
{
    *dst = -1;
    if (!v)
        return CLINE_OK;
    if (!cJSON_IsNumber(v))
        return bad(err, errlen, name, line, key, "must be a number, not %s",
                   type_name(v));
    if (v->valuedouble == -1)
        return CLINE_OK;
    if (!isfinite(v->valuedouble) || v->valuedouble < 1 ||
        v->valuedouble > (double)max || v->valuedouble != floor(v->valuedouble))
        return bad(err, errlen, name, line, key,
                   "must be a whole number "
                   "from 1 to %lld",
                   (long long)max);
    *dst = (int64_t)v->valuedouble;
    return CLINE_OK;
}

/* Splits the key setting into a "${env:VAR}" reference or a literal key. */
static int read_key(struct cline_settings *cs, const struct jsonc_doc *doc,
                    const char *name, char *err, size_t errlen)
{
    char *v;
    size_t len;
    int rc = get_string(doc, name, K_KEY, &v, &cs->key_line, err, errlen);
    if (rc || !v)
        return rc;
    len = strlen(v);
    if (strncmp(v, "${env:", 6) == 0 && len > 7 && v[len - 1] == '}') {
        v[len - 1] = '\0';
        if (!cli_env_name_ok(v + 6)) {
            free(v);
            return bad(err, errlen, name, cs->key_line, K_KEY,
                       "the "
                       "variable name in ${env:...} is not a valid name");
        }
        if (sanitize_looks_secret(v + 6)) { /* the key pasted in there? */
            secret_free(v);
            return bad(err, errlen, name, cs->key_line, K_KEY,
                       "the variable name in ${env:...} looks like a key "
                       "(not shown): write the variable's name, as in "
                       "\"${env:OPENAI_API_KEY}\"");
        }
        cs->key_env = strdup(v + 6);
        free(v);
        return cs->key_env ? CLINE_OK : CLINE_E_NOMEM;
    }
    if (v[0] == '$' && (v[1] == '{' || cli_env_name_ok(v + 1))) {
        free(v);
        return bad(err, errlen, name, cs->key_line, K_KEY,
                   "write a "
                   "variable as \"${env:NAME}\" (VS Code's form)");
    }
    cs->key_literal = v;
    return CLINE_OK;
}

/* maxTokens: "cline.openAiModelInfo": {"maxTokens": N}, or the flat key. */
static int read_max_tokens(struct cline_settings *cs,
                           const struct jsonc_doc *doc, const char *name,
                           char *err, size_t errlen)
{
    const cJSON *info = jsonc_get(doc, K_MODEL_INFO);
    const cJSON *flat = jsonc_get(doc, K_MAX_TOKENS);
    if (flat) {
        cs->max_tokens_line = jsonc_key_line(doc, K_MAX_TOKENS);
        return get_count(flat, name, cs->max_tokens_line, K_MAX_TOKENS,
                         10000000, &cs->max_tokens, err, errlen);
    }
    cs->max_tokens = -1;
    if (!info)
        return CLINE_OK;
    cs->max_tokens_line = jsonc_key_line(doc, K_MODEL_INFO);
    if (!cJSON_IsObject(info))
        return bad(err, errlen, name, cs->max_tokens_line, K_MODEL_INFO,
                   "must be an object, not %s", type_name(info));
    return get_count(cJSON_GetObjectItemCaseSensitive(info, "maxTokens"), name,
                     cs->max_tokens_line, K_MAX_TOKENS, 10000000,
                     &cs->max_tokens, err, errlen);
}

/* True when a provider value may be quoted in a message: a short id such
 * as "anthropic" or "openrouter", nothing that could be a pasted key. */
static bool provider_shown(const char *v)
{
    size_t n = strlen(v), i;
    if (n > 40 || sanitize_looks_secret(v))
        return false;
    for (i = 0; i < n; i++)
        if (!((v[i] >= 'a' && v[i] <= 'z') || (v[i] >= 'A' && v[i] <= 'Z') ||
              (v[i] >= '0' && v[i] <= '9') || v[i] == '-' || v[i] == '_' ||
              v[i] == '.'))
            return false;
    return true;
}

/* Fills cs from the parsed document. */
static int read_all(struct cline_settings *cs, const struct jsonc_doc *doc,
                    const char *name, char *err, size_t errlen)
{
    int rc;
    if (!cJSON_IsObject(doc->root))
        return bad(err, errlen, name, 1, "settings",
                   "the file must hold a "
                   "{ ... } object, not %s",
                   type_name(doc->root));
    rc = get_string(doc, name, K_PROVIDER, &cs->provider, &cs->provider_line,
                    err, errlen);
    if (!rc && cs->provider && strcmp(cs->provider, OPENAI_COMPATIBLE) != 0)
        return bad(err, errlen, name, cs->provider_line, K_PROVIDER,
                   "is %s%s%s, not an OpenAI-compatible provider: "
                   "tokentrace measures Cline's \"OpenAI Compatible\" "
                   "provider; set \"" K_PROVIDER "\": \"" OPENAI_COMPATIBLE
                   "\" with " K_BASE_URL ", " K_KEY " and " K_MODEL,
                   provider_shown(cs->provider) ? "\"" : "",
                   provider_shown(cs->provider) ? cs->provider
                                                : "another value (not shown)",
                   provider_shown(cs->provider) ? "\"" : "");
    if (!rc)
        rc = get_string(doc, name, K_BASE_URL, &cs->base_url,
                        &cs->base_url_line, err, errlen);
    if (!rc)
        rc = read_key(cs, doc, name, err, errlen);
    if (!rc)
        rc = get_string(doc, name, K_MODEL, &cs->model, &cs->model_line, err,
                        errlen);
    if (!rc)
        rc = read_max_tokens(cs, doc, name, err, errlen);
    if (!rc) {
        cs->timeout_line = jsonc_key_line(doc, K_TIMEOUT);
        rc = get_count(jsonc_get(doc, K_TIMEOUT), name, cs->timeout_line,
                       K_TIMEOUT, 100000000000LL, &cs->timeout_ms, err, errlen);
    }
    if (rc == CLINE_E_NOMEM)
        snprintf(err, errlen, "out of memory");
    if (!rc && !cs->provider && !cs->base_url && !cs->key_env &&
        !cs->key_literal && !cs->model) {
        snprintf(err, errlen,
                 "%s: no Cline settings found (looked for " K_PROVIDER
                 ", " K_BASE_URL ", " K_KEY " and " K_MODEL ")",
                 name);
        return CLINE_E_INVALID;
    }
    return rc;
}

/* True when text[from, to) holds nothing but the rest of a member name,
 * blanks, colons, quotes and comments: a value after it has not begun yet
 * (a quote may be the name's own, on a later line when the name holds a
 * line break, or one that opens the value). */
static bool only_separators(const char *text, size_t from, size_t to)
{
    size_t i = from;
    while (i < to && text[i] != '"' && text[i] != '\n')
        i++;
    if (i < to && text[i] == '"')
        i++;
    while (i < to) {
        char c = text[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ':' ||
            c == '"') {
            i++;
        } else if (c == '/' && i + 1 < to && text[i + 1] == '/') {
            while (i < to && text[i] != '\n')
                i++;
        } else if (c == '/' && i + 1 < to && text[i + 1] == '*') {
            for (i += 2; i + 1 < to && !(text[i] == '*' && text[i + 1] == '/');
                 i++)
                ;
            i += 2;
        } else {
            return false;
        }
    }
    return true;
}

/* True when a syntax error on line (from 1) of text may show the key:
 * the line names the key setting, or the key setting comes before it with
 * only blanks, colons and comments in between (its value is on this line).
 * Then the text there may be the key itself (a missing quote or colon). */
static bool near_key_setting(const char *text, size_t len, int line)
{
    static const char needle[] = "openAiApiKey";
    size_t n = sizeof needle - 1, i, start = 0, end, last = len;
    int at = 1;
    for (i = 0; i < len && at < line; i++)
        if (text[i] == '\n') {
            at++;
            start = i + 1;
        }
    for (end = start; end < len && text[end] != '\n'; end++)
        ;
    for (i = 0; i + n <= end; i++) {
        if (memcmp(text + i, needle, n) != 0)
            continue;
        if (i >= start)
            return true;
        last = i;
    }
    return last < len && only_separators(text, last + n, start);
}

/* Writes the message of a document jsonc could not parse: where, and what
 * it found there unless that may be the key. */
static void syntax_message(const char *name, const char *text, size_t len,
                           int line, const char *why, char *err, size_t errlen)
{
    char *safe;
    if (line <= 0) {
        snprintf(err, errlen, "%s: %s", name, why);
        return;
    }
    if (strstr(why, "syntax error") && near_key_setting(text, len, line)) {
        snprintf(err, errlen,
                 "%s:%d: syntax error at the " K_KEY " setting (the text "
                 "there is not shown: it may be the key; a missing quote, "
                 "comma or colon?)",
                 name, line);
        return;
    }
    safe = sanitize_string(why, NULL);
    snprintf(err, errlen, "%s:%d: %s", name, line,
             safe ? safe : "syntax error");
    free(safe);
}

int cline_settings_parse(const char *name, const char *text, size_t len,
                         struct cline_settings **out, char *err, size_t errlen)
{
    struct jsonc_doc doc;
    struct cline_settings *cs;
    char why[256];
    int line, rc;
    *out = NULL;
    rc = jsonc_parse(text, len, &doc, &line, why, sizeof why);
    if (rc == JSONC_E_NOMEM) {
        snprintf(err, errlen, "out of memory");
        return CLINE_E_NOMEM;
    }
    if (rc) {
        syntax_message(name, text, len, line, why, err, errlen);
        return CLINE_E_INVALID;
    }
    cs = calloc(1, sizeof *cs);
    if (!cs || !(cs->path = strdup(name))) {
        free(cs);
        jsonc_free(&doc);
        snprintf(err, errlen, "out of memory");
        return CLINE_E_NOMEM;
    }
    cs->max_tokens = cs->timeout_ms = -1;
    rc = read_all(cs, &doc, name, err, errlen);
    jsonc_free(&doc);
    if (rc) {
        cline_settings_free(cs);
        return rc;
    }
    *out = cs;
    return CLINE_OK;
}

int cline_settings_load(const char *path, struct cline_settings **out,
                        char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    char *text;
    size_t len;
    int rc;
    *out = NULL;
    if (!f) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return CLINE_E_IO;
    }
    text = malloc(JSONC_MAX_BYTES + 1);
    if (!text) {
        fclose(f);
        snprintf(err, errlen, "out of memory");
        return CLINE_E_NOMEM;
    }
    len = fread(text, 1, JSONC_MAX_BYTES + 1, f);
    if (ferror(f)) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        rc = CLINE_E_IO;
    } else if (len > JSONC_MAX_BYTES) {
        snprintf(err, errlen,
                 "%s: larger than %zu bytes: not a settings "
                 "file",
                 path, JSONC_MAX_BYTES);
        rc = CLINE_E_INVALID;
    } else {
        rc = cline_settings_parse(path, text, len, out, err, errlen);
    }
    fclose(f);
    free(text);
    return rc;
}

/* Adds a flag name to cs->overridden. */
static void note_override(struct cline_settings *cs, const char *flag)
{
    size_t n = strlen(cs->overridden);
    snprintf(cs->overridden + n, sizeof cs->overridden - n, "%s%s",
             n ? "," : "", flag);
}

/* Uses the "${env:VAR}" key reference, checking that VAR holds a key. */
static int apply_key_env(struct cline_settings *cs, struct config *cfg,
                         char *err, size_t errlen)
{
    const char *v = getenv(cs->key_env), *p;
    if (!v)
        return bad(err, errlen, cs->path, cs->key_line, K_KEY,
                   "${env:%s} "
                   "but %s is not set in this environment: export %s=<your "
                   "key> (VS Code must be started from an environment that "
                   "has it too), or name another variable with --api-key-env",
                   cs->key_env, cs->key_env, cs->key_env);
    for (p = v; *p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'; p++)
        ;
    if (*p == '\0')
        return bad(err, errlen, cs->path, cs->key_line, K_KEY,
                   "${env:%s} "
                   "but %s is set and empty: export %s=<your key>",
                   cs->key_env, cs->key_env, cs->key_env);
    cfg->api_key_env = cs->key_env;
    return CLINE_OK;
}

int cline_settings_apply(struct cline_settings *cs, struct config *cfg,
                         char *err, size_t errlen)
{
    if (cs->base_url) {
        if (cfg->base_url) {
            note_override(cs, "-u");
        } else {
            cfg->base_url = cs->base_url;
            cfg->base_url_from_env = false;
            cfg->sdk_base = true;
        }
    }
    if (cs->model) {
        if (cfg->n_models)
            note_override(cs, "-m");
        else
            cfg->models[cfg->n_models++] = cs->model;
    }
    if (cs->key_env || cs->key_literal) {
        if (cfg->api_key_env_given)
            note_override(cs, "--api-key-env");
        else if (cs->key_env) {
            int rc = apply_key_env(cs, cfg, err, errlen);
            if (rc)
                return rc;
        } else
            cfg->api_key_literal = cs->key_literal;
    }
    if (cs->max_tokens > 0) {
        if (cfg->max_tokens > 0)
            note_override(cs, "--max-tokens");
        else
            cfg->max_tokens = cs->max_tokens;
    }
    if (cs->timeout_ms > 0) {
        if (cfg->timeout_given)
            note_override(cs, "--timeout");
        else
            cfg->timeout_s = (double)cs->timeout_ms / 1000.0;
    }
    return CLINE_OK;
}

void cline_settings_warn(const struct cline_settings *cs,
                         const struct config *cfg)
{
    if (!cs)
        return;
    if (cs->key_literal && cfg->api_key_literal)
        log_warn("%s:%d: " K_KEY " holds the key itself: it works, but a "
                 "key in a settings file ends up in backups and screen "
                 "shares; put it in an environment variable and write \"" K_KEY
                 "\": \"${env:OPENAI_API_KEY}\"",
                 cs->path, cs->key_line);
    if (!cs->provider)
        log_warn("%s: no " K_PROVIDER ": Cline uses these settings only with "
                 "\"" K_PROVIDER "\": \"" OPENAI_COMPATIBLE "\"",
                 cs->path);
    if (cs->overridden[0])
        log_note("%s: the command line wins over the file for %s", cs->path,
                 cs->overridden);
}

void cline_settings_free(struct cline_settings *cs)
{
    if (!cs)
        return;
    secret_free(cs->key_literal);
    free(cs->path);
    free(cs->provider);
    free(cs->base_url);
    free(cs->key_env);
    free(cs->model);
    free(cs);
}
