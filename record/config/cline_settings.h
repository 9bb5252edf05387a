/* cline_settings: reads the OpenAI Compatible provider settings of Cline
 * and merges them into the recorder's config; flags given on the command
 * line win over the file. Three forms, told apart by their content:
 *
 * - Cline's own store (the CLI, and the VS Code extension since it moved
 *   to files), read by cline_store.c: settings/providers.json, and the
 *   older globalState.json + secrets.json pair (cline_store.h).
 * - The seed's VS Code settings.json form (JSONC), read here:
 *
 *   cline.apiProvider               must be "openai" (OpenAI Compatible)
 *   cline.openAiBaseUrl             base URL, used the OpenAI SDK's way
 *   cline.openAiApiKey              "${env:VAR}" (read from the environment)
 *                                   or the key itself (works, warned)
 *   cline.openAiModelId             model
 *   cline.openAiModelInfo.maxTokens max_tokens (nested or flat key)
 *   cline.requestTimeoutMs          --timeout
 *
 * Errors read "FILE:LINE: KEY: reason" and never show a key: the text near
 * a syntax error is left out at the key setting (its line, or the line its
 * value starts on) and redacted where it looks like a key (sanitize.h); a
 * wrong provider is quoted only when it is a short plain id.
 * Ownership: cline_settings_load returns an object that owns its strings;
 * cline_settings_free wipes the literal key and frees everything. */
#ifndef TT_RECORD_CLINE_SETTINGS_H
#define TT_RECORD_CLINE_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "cli.h"

/* The form a settings file has. */
enum cline_form {
    CLINE_FORM_VSCODE = 0, /* settings.json with "cline.*" keys */
    CLINE_FORM_PROVIDERS,  /* Cline's settings/providers.json */
    CLINE_FORM_LEGACY,     /* Cline's globalState.json (+ secrets.json) */
};

/* What the messages and the trace header call each setting: the name
 * in the file ("cline.openAiBaseUrl", "baseUrl") and, for a nested one,
 * where it sits ("providers.openai-compatible.settings."). */
struct cline_names {
    char scope[96];
    const char *provider, *base_url, *key, *model, *max_tokens, *timeout;
};

struct cline_settings {
    char *path;
    enum cline_form form;
    struct cline_names names;
    char *key_path;       /* the file the key was read from (the legacy
                             secrets.json), NULL: path */
    bool key_default_env; /* no key in the file: Cline sends
                             $OPENAI_API_KEY, and so does the recorder */
    char *provider;       /* NULL when absent */
    int provider_line;
    char *base_url;
    int base_url_line;
    char *key_env;     /* VAR of "${env:VAR}", or NULL */
    char *key_literal; /* the key written in the file, or NULL */
    int key_line;
    char *model;
    int model_line;
    int64_t max_tokens; /* -1 when absent (or Cline's -1 "default") */
    int max_tokens_line;
    int64_t timeout_ms; /* -1 when absent */
    int timeout_line;
    char overridden[96]; /* flags that won over the file: "-u,-m", or "" */
};

enum cline_err {
    CLINE_OK = 0,
    CLINE_E_NOMEM = 1,
    CLINE_E_IO = 2,      /* cannot read the file */
    CLINE_E_INVALID = 3, /* syntax, a wrong type or value: err says where */
};

/* Parses the text of a settings file named name (for messages), in any
 * of the three forms. On success *out is a new object. A legacy
 * globalState.json's key is not in it: cline_settings_load reads the
 * secrets.json beside it. */
int cline_settings_parse(const char *name, const char *text, size_t len,
                         struct cline_settings **out, char *err, size_t errlen);

/* Reads and parses the file at path. A directory is a Cline data
 * directory (~/.cline/data): its settings/providers.json, else its
 * globalState.json (cline_store_find_in). A globalState.json takes its
 * key from the secrets.json beside it; a secrets.json given alone is
 * read with the globalState.json beside it. */
int cline_settings_load(const char *path, struct cline_settings **out,
                        char *err, size_t errlen);

/* Fills what the command line left unset in cfg from cs (borrowing cs's
 * strings), and notes in cs->overridden which flags won. A
 * "${env:VAR}" key whose variable is unset or empty is an error (unless
 * --api-key-env was given). Returns a cline_err. */
int cline_settings_apply(struct cline_settings *cs, struct config *cfg,
                         char *err, size_t errlen);

/* Prints the notes and warnings about cs on stderr: the file found where
 * Cline looks (--cline-settings without a file), what was read from
 * Cline's own store, a key written in the file, a missing
 * cline.apiProvider, flags that won over the file. */
void cline_settings_warn(const struct cline_settings *cs,
                         const struct config *cfg);

/* Where Cline keeps its settings, looked up as Cline does (cline_store.h):
 * $CLINE_PROVIDER_SETTINGS_PATH; else in the data directory
 * ($CLINE_DATA_DIR, else $CLINE_DIR/data, else ~/.cline/data) its
 * settings/providers.json, else the legacy globalState.json. Returns
 * CLINE_OK with the file in path and in why the rule that found it
 * ("$CLINE_DATA_DIR", "~/.cline/data"), or CLINE_E_IO with why saying
 * where it looked. For a --cline-settings given without a file. */
int cline_settings_find(char *path, size_t len, char *why, size_t wlen);

/* Wipes the literal key and frees. NULL-safe. */
void cline_settings_free(struct cline_settings *cs);

#endif
