/* cline_store: reads Cline's providers.json and its legacy
 * globalState.json + secrets.json, and finds them where Cline does
 * (cline_store.h cites Cline's code for each rule). */
#include "cline_store.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cline_msg.h"

#define OPENAI_COMPATIBLE "openai-compatible"

/* The offset just past the first member name "name" (a quoted string
 * followed by blanks and a colon) in doc's text at or after from, or
 * (size_t)-1. Used for the line of a nested setting in messages. */
static size_t member_after(const struct jsonc_doc *doc, size_t from,
                           const char *name)
{
    size_t n = strlen(name), i;
    for (i = from; i + n + 2 <= doc->len; i++) {
        size_t j = i + n + 2;
        if (doc->text[i] != '"' || memcmp(doc->text + i + 1, name, n) != 0 ||
            doc->text[i + n + 1] != '"')
            continue;
        while (j < doc->len && (doc->text[j] == ' ' || doc->text[j] == '\t' ||
                                doc->text[j] == '\r' || doc->text[j] == '\n'))
            j++;
        if (j < doc->len && doc->text[j] == ':')
            return j;
    }
    return (size_t)-1;
}

/* The line of member name at or after from; not found (a name written
 * with escapes): the line of from, else 1. */
static int line_after(const struct jsonc_doc *doc, size_t from,
                      const char *name)
{
    size_t at = from == (size_t)-1 ? (size_t)-1 : member_after(doc, from, name);
    if (at != (size_t)-1)
        return jsonc_line_at(doc, at);
    return from != (size_t)-1 && from < doc->len ? jsonc_line_at(doc, from) : 1;
}

enum cline_form cline_store_form(const struct jsonc_doc *doc, bool *secrets)
{
    static const char *const legacy[] = {
        "actModeApiProvider", "planModeApiProvider",  "openAiBaseUrl",
        "requestTimeoutMs",   "actModeOpenAiModelId", "planModeOpenAiModelId"};
    const cJSON *root = doc->root;
    size_t i;
    *secrets = false;
    if (!cJSON_IsObject(root))
        return CLINE_FORM_VSCODE;
    if (cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(root, "providers")))
        return CLINE_FORM_PROVIDERS;
    for (i = 0; i < sizeof legacy / sizeof legacy[0]; i++)
        if (cJSON_GetObjectItemCaseSensitive(root, legacy[i]))
            return CLINE_FORM_LEGACY;
    if (cJSON_GetObjectItemCaseSensitive(root, "openAiApiKey")) {
        *secrets = true;
        return CLINE_FORM_LEGACY;
    }
    return CLINE_FORM_VSCODE;
}

/* A trimmed copy of the string v into *dst (NULL when v is absent); the
 * setting leaf (for messages) must be a non-empty string. */
static int take_string(struct cline_settings *cs, const cJSON *v,
                       const char *leaf, int line, char **dst, char *err,
                       size_t errlen)
{
    char nm[160];
    const char *s, *e;
    *dst = NULL;
    if (!v)
        return CLINE_OK;
    cline_msg_name(cs, leaf, nm, sizeof nm);
    if (!cJSON_IsString(v))
        return cline_msg_bad(err, errlen, cs->path, line, nm,
                             "must be a string, not %s", cline_msg_type(v));
    for (s = v->valuestring; *s == ' ' || *s == '\t'; s++)
        ;
    for (e = s + strlen(s); e > s && (e[-1] == ' ' || e[-1] == '\t'); e--)
        ;
    if (e == s)
        return cline_msg_bad(err, errlen, cs->path, line, nm, "is empty");
    *dst = strndup(s, (size_t)(e - s));
    return *dst ? CLINE_OK : CLINE_E_NOMEM;
}

/* A positive whole number of milliseconds or tokens into *dst (-1 when
 * absent); Cline's schema takes positive integers only. */
static int take_count(struct cline_settings *cs, const cJSON *v,
                      const char *leaf, int line, int64_t max, int64_t *dst,
                      char *err, size_t errlen)
{
    char nm[160];
    *dst = -1;
    if (!v)
        return CLINE_OK;
    cline_msg_name(cs, leaf, nm, sizeof nm);
    if (!cJSON_IsNumber(v))
        return cline_msg_bad(err, errlen, cs->path, line, nm,
                             "must be a number, not %s", cline_msg_type(v));
    if (!isfinite(v->valuedouble) || v->valuedouble < 1 ||
        v->valuedouble > (double)max || v->valuedouble != floor(v->valuedouble))
        return cline_msg_bad(err, errlen, cs->path, line, nm,
                             "must be a whole number from 1 to %lld",
                             (long long)max);
    *dst = (int64_t)v->valuedouble;
    return CLINE_OK;
}

/* The provider id Cline resolves: "openai" is "openai-compatible". */
static const char *canonical(const char *id)
{
    return strcmp(id, "openai") == 0 ? OPENAI_COMPATIBLE : id;
}

/* The id of the entry Cline uses, from lastUsedProvider; without it the
 * only entry, or the openai-compatible one. NULL with err set when none. */
static const char *pick_provider(const cJSON *root, const cJSON *providers,
                                 const char *name, int line, char *err,
                                 size_t errlen)
{
    const cJSON *last =
        cJSON_GetObjectItemCaseSensitive(root, "lastUsedProvider");
    if (last && cJSON_IsString(last) && last->valuestring[0])
        return last->valuestring;
    if (last) {
        cline_msg_bad(err, errlen, name, line, "lastUsedProvider",
                      "must be a provider id, not %s", cline_msg_type(last));
        return NULL;
    }
    if (cJSON_GetArraySize(providers) == 1 && providers->child->string)
        return providers->child->string;
    if (cJSON_GetObjectItemCaseSensitive(providers, OPENAI_COMPATIBLE))
        return OPENAI_COMPATIBLE;
    if (cJSON_GetObjectItemCaseSensitive(providers, "openai"))
        return "openai";
    snprintf(err, errlen,
             "%s: no lastUsedProvider and no openai-compatible provider: "
             "configure Cline with cline auth -p openai-compatible -b "
             "BASE_URL -m MODEL",
             name);
    return NULL;
}

/* The "not OpenAI Compatible" message for provider id of file name. */
static int wrong_provider(char *err, size_t errlen, const char *name, int line,
                          const char *key, const char *id, bool has_openai)
{
    bool show = cline_msg_shown(id);
    return cline_msg_bad(
        err, errlen, name, line, key,
        "is %s%s%s, not Cline's OpenAI Compatible provider: tokentrace "
        "measures an OpenAI-compatible endpoint; %s",
        show ? "\"" : "", show ? id : "another value (not shown)",
        show ? "\"" : "",
        has_openai ? "the file has an openai-compatible entry too: switch "
                     "Cline to it (cline auth -p openai-compatible) or name "
                     "the endpoint with -u and -m"
                   : "configure Cline with cline auth -p openai-compatible "
                     "-b BASE_URL -m MODEL");
}

int cline_store_read_providers(struct cline_settings *cs,
                               const struct jsonc_doc *doc, const char *name,
                               char *err, size_t errlen)
{
    const cJSON *root = doc->root, *providers, *entry, *set, *auth, *key;
    int pline = jsonc_key_line(doc, "providers"), rc;
    size_t at;
    const char *id;
    providers = cJSON_GetObjectItemCaseSensitive(root, "providers");
    id = pick_provider(root, providers, name,
                       jsonc_key_line(doc, "lastUsedProvider"), err, errlen);
    if (!id)
        return CLINE_E_INVALID;
    cs->form = CLINE_FORM_PROVIDERS;
    cs->names.provider = "lastUsedProvider";
    cs->names.base_url = "baseUrl";
    cs->names.key = "apiKey";
    cs->names.model = "model";
    cs->names.max_tokens = "maxTokens";
    cs->names.timeout = "timeout";
    cs->provider = strdup(id);
    if (!cs->provider)
        return CLINE_E_NOMEM;
    cs->provider_line = jsonc_key_line(doc, "lastUsedProvider");
    if (cs->provider_line == 0) /* the entry chosen without it */
        cs->provider_line = pline > 0 ? pline : 1;
    if (strcmp(canonical(id), OPENAI_COMPATIBLE) != 0)
        return wrong_provider(
            err, errlen, name, cs->provider_line, "lastUsedProvider", id,
            cJSON_GetObjectItemCaseSensitive(providers, OPENAI_COMPATIBLE) ||
                cJSON_GetObjectItemCaseSensitive(providers, "openai"));
    entry = cJSON_GetObjectItemCaseSensitive(providers, id);
    if (!entry)
        entry = cJSON_GetObjectItemCaseSensitive(
            providers,
            strcmp(id, "openai") == 0 ? OPENAI_COMPATIBLE : "openai");
    if (!entry || !entry->string) {
        snprintf(err, errlen,
                 "%s: lastUsedProvider is \"%s\" but providers has no such "
                 "entry",
                 name, id);
        return CLINE_E_INVALID;
    }
    snprintf(cs->names.scope, sizeof cs->names.scope,
             "providers.%.40s.settings.", entry->string);
    at = member_after(doc, 0, "providers");
    if (at != (size_t)-1)
        at = member_after(doc, at, entry->string);
    set = cJSON_GetObjectItemCaseSensitive(entry, "settings");
    if (!cJSON_IsObject(set))
        return cline_msg_bad(err, errlen, name,
                             line_after(doc, 0, entry->string), cs->names.scope,
                             "must be an object, not %s",
                             set ? cline_msg_type(set) : "missing");
    cs->base_url_line = line_after(doc, at, "baseUrl");
    rc = take_string(cs, cJSON_GetObjectItemCaseSensitive(set, "baseUrl"),
                     "baseUrl", cs->base_url_line, &cs->base_url, err, errlen);
    cs->model_line = line_after(doc, at, "model");
    if (!rc)
        rc = take_string(cs, cJSON_GetObjectItemCaseSensitive(set, "model"),
                         "model", cs->model_line, &cs->model, err, errlen);
    /* the key: settings.apiKey, else auth.apiKey, else $OPENAI_API_KEY */
    key = cJSON_GetObjectItemCaseSensitive(set, "apiKey");
    auth = cJSON_GetObjectItemCaseSensitive(set, "auth");
    if (!key && cJSON_IsObject(auth)) {
        key = cJSON_GetObjectItemCaseSensitive(auth, "apiKey");
        cs->names.key = "auth.apiKey";
    }
    cs->key_line = line_after(doc, at, "apiKey");
    if (!rc)
        rc = take_string(cs, key, cs->names.key, cs->key_line, &cs->key_literal,
                         err, errlen);
    cs->key_default_env = !rc && !cs->key_literal;
    cs->max_tokens_line = line_after(doc, at, "maxTokens");
    if (!rc)
        rc = take_count(cs, cJSON_GetObjectItemCaseSensitive(set, "maxTokens"),
                        "maxTokens", cs->max_tokens_line, 10000000,
                        &cs->max_tokens, err, errlen);
    cs->timeout_line = line_after(doc, at, "timeout");
    if (!rc)
        rc = take_count(cs, cJSON_GetObjectItemCaseSensitive(set, "timeout"),
                        "timeout", cs->timeout_line, 100000000000LL,
                        &cs->timeout_ms, err, errlen);
    return rc;
}

int cline_store_read_legacy(struct cline_settings *cs,
                            const struct jsonc_doc *doc, const char *name,
                            char *err, size_t errlen)
{
    const cJSON *root = doc->root, *mode, *v;
    const char *k_provider, *k_model;
    bool plan;
    int rc;
    mode = cJSON_GetObjectItemCaseSensitive(root, "mode");
    plan = cJSON_IsString(mode) && strcmp(mode->valuestring, "plan") == 0;
    k_provider = plan ? "planModeApiProvider" : "actModeApiProvider";
    cs->form = CLINE_FORM_LEGACY;
    cs->names.provider = k_provider;
    cs->names.base_url = "openAiBaseUrl";
    cs->names.key = "openAiApiKey";
    cs->names.timeout = "requestTimeoutMs";
    /* {act,plan}ModeOpenAiModelInfo.maxTokens is not read: Cline 3.0.65
     * does not migrate it into the settings it sends with */
    cs->names.max_tokens = "maxTokens";
    v = cJSON_GetObjectItemCaseSensitive(root, k_provider);
    cs->provider_line = jsonc_key_line(doc, k_provider);
    rc = take_string(cs, v, k_provider, cs->provider_line, &cs->provider, err,
                     errlen);
    if (rc)
        return rc;
    if (cs->provider && strcmp(canonical(cs->provider), OPENAI_COMPATIBLE) != 0)
        return wrong_provider(
            err, errlen, name, cs->provider_line, k_provider, cs->provider,
            cJSON_GetObjectItemCaseSensitive(root, "openAiBaseUrl") != NULL);
    cs->base_url_line = jsonc_key_line(doc, "openAiBaseUrl");
    rc = take_string(
        cs, cJSON_GetObjectItemCaseSensitive(root, "openAiBaseUrl"),
        "openAiBaseUrl", cs->base_url_line, &cs->base_url, err, errlen);
    /* the model: the mode's OpenAI model id, else its generic one */
    k_model = plan ? "planModeOpenAiModelId" : "actModeOpenAiModelId";
    v = cJSON_GetObjectItemCaseSensitive(root, k_model);
    if (!v) {
        k_model = plan ? "planModeApiModelId" : "actModeApiModelId";
        v = cJSON_GetObjectItemCaseSensitive(root, k_model);
    }
    cs->names.model = k_model;
    cs->model_line = jsonc_key_line(doc, k_model);
    if (!rc)
        rc = take_string(cs, v, k_model, cs->model_line, &cs->model, err,
                         errlen);
    cs->timeout_line = jsonc_key_line(doc, "requestTimeoutMs");
    if (!rc)
        rc = take_count(
            cs, cJSON_GetObjectItemCaseSensitive(root, "requestTimeoutMs"),
            "requestTimeoutMs", cs->timeout_line, 100000000000LL,
            &cs->timeout_ms, err, errlen);
    if (!rc && !cs->provider && !cs->base_url && !cs->model) {
        snprintf(err, errlen,
                 "%s: no Cline settings found (looked for %s, openAiBaseUrl "
                 "and %s)",
                 name, k_provider, k_model);
        return CLINE_E_INVALID;
    }
    return rc;
}

int cline_store_read_secrets(const struct jsonc_doc *doc, const char *name,
                             char **key, char *err, size_t errlen)
{
    const cJSON *v =
        cJSON_GetObjectItemCaseSensitive(doc->root, "openAiApiKey");
    *key = NULL;
    if (!v)
        return CLINE_OK;
    if (!cJSON_IsString(v))
        return cline_msg_bad(
            err, errlen, name, jsonc_key_line(doc, "openAiApiKey"),
            "openAiApiKey", "must be a string, not %s", cline_msg_type(v));
    if (v->valuestring[strspn(v->valuestring, " \t")] == '\0')
        return CLINE_OK; /* Cline skips a blank key too */
    *key = strdup(v->valuestring + strspn(v->valuestring, " \t"));
    return *key ? CLINE_OK : CLINE_E_NOMEM;
}

/* True when path names an existing regular file. */
static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool cline_store_find_in(const char *dir, char *path, size_t len)
{
    int n = snprintf(path, len, "%s/settings/providers.json", dir);
    if (n > 0 && (size_t)n < len && is_file(path))
        return true;
    n = snprintf(path, len, "%s/globalState.json", dir);
    if (n > 0 && (size_t)n < len && is_file(path))
        return true;
    n = snprintf(path, len, "%s/secrets.json", dir);
    return n > 0 && (size_t)n < len && is_file(path);
}

/* The value of environment variable name with blanks trimmed at both
 * ends into b, or NULL when unset or blank (Cline trims them too). */
static const char *env_trimmed(const char *name, char *b, size_t len)
{
    const char *v = getenv(name), *e;
    if (!v)
        return NULL;
    v += strspn(v, " \t\r\n");
    for (e = v + strlen(v); e > v && (e[-1] == ' ' || e[-1] == '\t' ||
                                      e[-1] == '\r' || e[-1] == '\n');
         e--)
        ;
    if (e == v || (size_t)(e - v) >= len)
        return NULL;
    snprintf(b, len, "%.*s", (int)(e - v), v);
    return b;
}

int cline_settings_find(char *path, size_t len, char *why, size_t wlen)
{
    char v[4096], dir[4096];
    const char *from;
    if (env_trimmed("CLINE_PROVIDER_SETTINGS_PATH", v, sizeof v)) {
        snprintf(path, len, "%s", v);
        if (is_file(path)) {
            snprintf(why, wlen, "$CLINE_PROVIDER_SETTINGS_PATH");
            return CLINE_OK;
        }
        snprintf(why, wlen,
                 "no Cline settings: $CLINE_PROVIDER_SETTINGS_PATH names %s, "
                 "which is not a file",
                 path);
        return CLINE_E_IO;
    }
    if (env_trimmed("CLINE_DATA_DIR", v, sizeof v)) {
        snprintf(dir, sizeof dir, "%s", v);
        from = "$CLINE_DATA_DIR";
    } else if (env_trimmed("CLINE_DIR", v, sizeof v)) {
        snprintf(dir, sizeof dir, "%.4000s/data", v);
        from = "$CLINE_DIR/data";
    } else if (env_trimmed("HOME", v, sizeof v)) {
        snprintf(dir, sizeof dir, "%.4000s/.cline/data", v);
        from = "~/.cline/data";
    } else {
        snprintf(why, wlen, "no Cline settings: HOME is not set");
        return CLINE_E_IO;
    }
    if (cline_store_find_in(dir, path, len)) {
        snprintf(why, wlen, "%s", from);
        return CLINE_OK;
    }
    snprintf(why, wlen,
             "no Cline settings: neither %s/settings/providers.json nor "
             "%s/globalState.json exists (from %s): configure Cline with "
             "cline auth -p openai-compatible -b BASE_URL -m MODEL, or give "
             "the file",
             dir, dir, from);
    return CLINE_E_IO;
}
