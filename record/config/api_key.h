/* api_key: reads the API key from its environment variable and builds the
 * auth header. The key never goes into a message, log or trace. */
#ifndef TT_RECORD_API_KEY_H
#define TT_RECORD_API_KEY_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"

struct api_key {
    const char *env;    /* variable the key came from; the one looked at first
                           when there is no key */
    char *value;        /* owned, NULL when there is no key */
    char *header;       /* owned header line with the key, NULL without key */
    bool from_settings; /* the key was written in the cline settings file */
    char source[160];   /* for messages: "$VAR" or "cline.openAiApiKey in
                           FILE" */
};

enum api_key_err {
    API_KEY_OK = 0,
    API_KEY_E_BAD = 1, /* the key holds a line break or control character */
    API_KEY_E_NOMEM = 2,
};

/* Looks up the key: --api-key-env VAR (or a cline "${env:VAR}"), else the
 * key written in the cline settings file, else OPENAI_API_KEY (anthropic:
 * ANTHROPIC_API_KEY, then OPENAI_API_KEY). Surrounding whitespace is
 * removed.
 * Without a key, k->value and k->header stay NULL (the caller warns). On
 * error err names the variable, never the value. */
int api_key_load(const struct config *cfg, struct api_key *k, char *err,
                 size_t errlen);

/* Wipes and frees the key. NULL-safe. */
void api_key_free(struct api_key *k);

#endif
