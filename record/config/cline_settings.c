/* cline_settings: reading a Cline settings file: the form it has, the VS
 * Code settings.json form's keys (Cline's own store: cline_store.c; into
 * the config: cline_settings_apply.c). */
#include "cline_settings.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cline_msg.h"
#include "cline_store.h"
#include "jsonc.h"
#include "sanitize.h"
#include "secret.h"

#define bad cline_msg_bad
#define type_name cline_msg_type

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
        if (!secret_env_name_ok(v + 6)) {
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
    if (v[0] == '$' && (v[1] == '{' || secret_env_name_ok(v + 1))) {
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

/* Fills cs from the parsed document of the VS Code form. */
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
    if (!rc && cs->provider && strcmp(cs->provider, K_OPENAI_COMPATIBLE) != 0)
        return bad(err, errlen, name, cs->provider_line, K_PROVIDER,
                   "is %s%s%s, not an OpenAI-compatible provider: "
                   "tokentrace measures Cline's \"OpenAI Compatible\" "
                   "provider; set \"" K_PROVIDER "\": \"" K_OPENAI_COMPATIBLE
                   "\" with " K_BASE_URL ", " K_KEY " and " K_MODEL,
                   cline_msg_shown(cs->provider) ? "\"" : "",
                   cline_msg_shown(cs->provider) ? cs->provider
                                                 : "another value (not shown)",
                   cline_msg_shown(cs->provider) ? "\"" : "");
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
static bool near_key_setting(const char *text, size_t len, int line,
                             const char *needle)
{
    size_t n = strlen(needle), i, start = 0, end, last = len;
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
    if (strstr(why, "syntax error") &&
        (near_key_setting(text, len, line, "openAiApiKey") ||
         near_key_setting(text, len, line, "apiKey") ||
         near_key_setting(text, len, line, "accessToken"))) {
        /* "apiKey", "accessToken": providers.json (cline_store.h) */
        snprintf(err, errlen,
                 "%s:%d: syntax error at the %s setting (the text "
                 "there is not shown: it may be the key; a missing quote, "
                 "comma or colon?)",
                 name, line,
                 near_key_setting(text, len, line, "openAiApiKey") ? K_KEY
                                                                   : "apiKey");
        return;
    }
    safe = sanitize_string(why, NULL);
    snprintf(err, errlen, "%s:%d: %s", name, line,
             safe ? safe : "syntax error");
    free(safe);
}

/* The message for a legacy secrets.json parsed without its
 * globalState.json (cline_settings_load reads the pair). */
static int no_state(const char *name, char *err, size_t errlen)
{
    snprintf(err, errlen,
             "%s: a Cline secrets.json holds the key only: give the "
             "globalState.json beside it (or the data directory)",
             name);
    return CLINE_E_INVALID;
}

int cline_settings_parse(const char *name, const char *text, size_t len,
                         struct cline_settings **out, char *err, size_t errlen)
{
    struct jsonc_doc doc;
    struct cline_settings *cs;
    char why[256];
    int line, rc;
    bool secrets;
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
    cs->names.provider = K_PROVIDER;
    cs->names.base_url = K_BASE_URL;
    cs->names.key = K_KEY;
    cs->names.model = K_MODEL;
    cs->names.max_tokens = K_MAX_TOKENS;
    cs->names.timeout = K_TIMEOUT;
    switch (cline_store_form(&doc, &secrets)) {
    case CLINE_FORM_PROVIDERS:
        rc = cline_store_read_providers(cs, &doc, name, err, errlen);
        break;
    case CLINE_FORM_LEGACY:
        rc = secrets ? no_state(name, err, errlen)
                     : cline_store_read_legacy(cs, &doc, name, err, errlen);
        break;
    default:
        rc = read_all(cs, &doc, name, err, errlen);
        break;
    }
    if (rc == CLINE_E_NOMEM)
        snprintf(err, errlen, "out of memory");
    jsonc_free(&doc);
    if (rc) {
        cline_settings_free(cs);
        return rc;
    }
    *out = cs;
    return CLINE_OK;
}

/* Reads the whole file at path into *text (malloc'd, *len bytes). */
static int read_text(const char *path, char **text, size_t *len, char *err,
                     size_t errlen)
{
    FILE *f = fopen(path, "rb");
    int rc = CLINE_OK;
    *text = NULL;
    if (!f) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return CLINE_E_IO;
    }
    *text = malloc(JSONC_MAX_BYTES + 1);
    if (!*text) {
        fclose(f);
        snprintf(err, errlen, "out of memory");
        return CLINE_E_NOMEM;
    }
    *len = fread(*text, 1, JSONC_MAX_BYTES + 1, f);
    if (ferror(f)) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        rc = CLINE_E_IO;
    } else if (*len > JSONC_MAX_BYTES) {
        snprintf(err, errlen,
                 "%s: larger than %zu bytes: not a settings "
                 "file",
                 path, JSONC_MAX_BYTES);
        rc = CLINE_E_INVALID;
    }
    fclose(f);
    if (rc) {
        free(*text);
        *text = NULL;
    }
    return rc;
}

/* Reads and parses one file. */
static int load_file(const char *path, struct cline_settings **out, char *err,
                     size_t errlen)
{
    char *text;
    size_t len;
    int rc = read_text(path, &text, &len, err, errlen);
    *out = NULL;
    if (!rc)
        rc = cline_settings_parse(path, text, len, out, err, errlen);
    free(text);
    return rc;
}

/* The file called leaf in the directory of path, into b; false when
 * it is not an existing file. */
static bool sibling(const char *path, const char *leaf, char *b, size_t len)
{
    const char *slash = strrchr(path, '/');
    struct stat st;
    int n = slash ? snprintf(b, len, "%.*s/%s", (int)(slash - path), path, leaf)
                  : snprintf(b, len, "%s", leaf);
    return n > 0 && (size_t)n < len && stat(b, &st) == 0 && S_ISREG(st.st_mode);
}

/* True when the last component of path is leaf. */
static bool named(const char *path, const char *leaf)
{
    const char *slash = strrchr(path, '/');
    return strcmp(slash ? slash + 1 : path, leaf) == 0;
}

/* The key of a legacy globalState.json: openAiApiKey of the secrets.json
 * beside it (none when there is no such file or key). */
static int legacy_key(struct cline_settings *cs, char *err, size_t errlen)
{
    char spath[4096], why[256], *text;
    struct jsonc_doc doc;
    size_t len;
    int rc, line;
    cs->key_default_env = true;
    if (!sibling(cs->path, "secrets.json", spath, sizeof spath))
        return CLINE_OK;
    rc = read_text(spath, &text, &len, err, errlen);
    if (rc)
        return rc;
    rc = jsonc_parse(text, len, &doc, &line, why, sizeof why);
    if (rc == JSONC_E_NOMEM) {
        rc = CLINE_E_NOMEM;
    } else if (rc) {
        /* never its text: the file holds keys */
        snprintf(err, errlen,
                 "%s:%d: not valid JSON (the text is not "
                 "shown: the file holds keys)",
                 spath, line > 0 ? line : 1);
        rc = CLINE_E_INVALID;
    } else {
        rc = cline_store_read_secrets(&doc, spath, &cs->key_literal, err,
                                      errlen);
        cs->key_line = jsonc_key_line(&doc, "openAiApiKey");
        jsonc_free(&doc);
    }
    for (size_t i = 0; i < len; i++) /* the file's text holds keys */
        ((volatile char *)text)[i] = '\0';
    free(text);
    if (rc == CLINE_OK && cs->key_literal) {
        cs->key_default_env = false;
        cs->key_path = strdup(spath);
        if (!cs->key_path)
            rc = CLINE_E_NOMEM;
    }
    return rc;
}

int cline_settings_load(const char *path, struct cline_settings **out,
                        char *err, size_t errlen)
{
    char found[4096];
    struct stat st;
    int rc;
    *out = NULL;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (!cline_store_find_in(path, found, sizeof found)) {
            snprintf(err, errlen,
                     "%s: a directory without Cline's settings/"
                     "providers.json or globalState.json",
                     path);
            return CLINE_E_IO;
        }
        path = found;
    }
    if (named(path, "secrets.json") &&
        sibling(path, "globalState.json", found, sizeof found))
        path = found; /* the pair is read from its globalState.json */
    rc = load_file(path, out, err, errlen);
    if (rc == CLINE_OK && (*out)->form == CLINE_FORM_LEGACY)
        rc = legacy_key(*out, err, errlen);
    if (rc && *out) {
        cline_settings_free(*out);
        *out = NULL;
    }
    return rc;
}

void cline_settings_free(struct cline_settings *cs)
{
    if (!cs)
        return;
    secret_free(cs->key_literal);
    free(cs->key_path);
    free(cs->path);
    free(cs->provider);
    free(cs->base_url);
    free(cs->key_env);
    free(cs->model);
    free(cs);
}
