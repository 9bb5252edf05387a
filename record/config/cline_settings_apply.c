/* cline_settings_apply: what a Cline settings file that was read puts into
 * the recorder's config (flags given win), and the notes and warnings the
 * recorder prints about it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cline_msg.h"
#include "cline_settings.h"
#include "log.h"
#include "sanitize.h"

#define bad cline_msg_bad

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

/* The note of what was read from Cline's own store: the file, the
 * provider, and where each value came from (never the key). */
static void note_store(const struct cline_settings *cs,
                       const struct config *cfg)
{
    char key[4200], timeout[64];
    char *base = cs->base_url ? sanitize_url(cs->base_url, NULL) : NULL;
    if (cs->timeout_ms > 0)
        snprintf(timeout, sizeof timeout, "%lld ms", (long long)cs->timeout_ms);
    else
        snprintf(timeout, sizeof timeout, "(not set)");
    if (cs->key_literal && cfg->api_key_literal)
        snprintf(key, sizeof key, "%s%s (in %s; not shown)", cs->names.scope,
                 cs->names.key, cs->key_path ? cs->key_path : cs->path);
    else if (cs->key_default_env && !cfg->api_key_env_given)
        snprintf(key, sizeof key,
                 "$OPENAI_API_KEY (no %s in the file: Cline "
                 "sends that variable's key)",
                 cs->names.key);
    else
        snprintf(key, sizeof key, "from the command line");
    log_note("%s: Cline's %s, provider %s%s: base URL %s, model %s, "
             "timeout %s, key %s",
             cs->path,
             cs->form == CLINE_FORM_PROVIDERS ? "providers.json"
                                              : "globalState.json",
             cs->provider ? cs->provider : "(not set)",
             cs->form == CLINE_FORM_PROVIDERS ? " (lastUsedProvider)" : "",
             base ? base : "(not set)", cs->model ? cs->model : "(not set)",
             timeout, key);
    free(base);
}

void cline_settings_warn(const struct cline_settings *cs,
                         const struct config *cfg)
{
    if (!cs)
        return;
    if (cfg->cline_found_by[0]) /* --cline-settings without a file */
        log_note("--cline-settings: %s, where Cline looks (%s)", cs->path,
                 cfg->cline_found_by);
    if (cs->form != CLINE_FORM_VSCODE) {
        note_store(cs, cfg);
        if (cs->overridden[0])
            log_note("%s: the command line wins over the file for %s", cs->path,
                     cs->overridden);
        return;
    }
    if (cs->key_literal && cfg->api_key_literal)
        log_warn("%s:%d: " K_KEY " holds the key itself: it works, but a "
                 "key in a settings file ends up in backups and screen "
                 "shares; put it in an environment variable and write \"" K_KEY
                 "\": \"${env:OPENAI_API_KEY}\"",
                 cs->path, cs->key_line);
    if (!cs->provider)
        log_warn("%s: no " K_PROVIDER ": Cline uses these settings only with "
                 "\"" K_PROVIDER "\": \"" K_OPENAI_COMPATIBLE "\"",
                 cs->path);
    if (cs->overridden[0])
        log_note("%s: the command line wins over the file for %s", cs->path,
                 cs->overridden);
}
