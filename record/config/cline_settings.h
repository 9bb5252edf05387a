/* cline_settings: reads the OpenAI Compatible provider settings of Cline
 * (VS Code's settings.json, JSONC) and merges them into the recorder's
 * config; flags given on the command line win over the file.
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

#include <stddef.h>
#include <stdint.h>

#include "cli.h"

struct cline_settings {
    char *path;
    char *provider; /* NULL when absent */
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

/* Parses the text of a settings file named name (for messages). On
 * success *out is a new object. */
int cline_settings_parse(const char *name, const char *text, size_t len,
                         struct cline_settings **out, char *err, size_t errlen);

/* Reads and parses the file at path. */
int cline_settings_load(const char *path, struct cline_settings **out,
                        char *err, size_t errlen);

/* Fills what the command line left unset in cfg from cs (borrowing cs's
 * strings), and notes in cs->overridden which flags won. A
 * "${env:VAR}" key whose variable is unset or empty is an error (unless
 * --api-key-env was given). Returns a cline_err. */
int cline_settings_apply(struct cline_settings *cs, struct config *cfg,
                         char *err, size_t errlen);

/* Prints the warnings about cs on stderr: a key written in the file, a
 * missing cline.apiProvider, flags that won over the file. */
void cline_settings_warn(const struct cline_settings *cs,
                         const struct config *cfg);

/* Wipes the literal key and frees. NULL-safe. */
void cline_settings_free(struct cline_settings *cs);

#endif
