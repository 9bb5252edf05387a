/* reply_inspect: what the body of a reply that is not a stream says: the
 * message and code of an error JSON (OpenAI, Anthropic and the usual
 * gateway shapes), the title of an HTML page, the usage of a whole JSON
 * reply. Pure. */
#ifndef TT_RECORD_REPLY_INSPECT_H
#define TT_RECORD_REPLY_INSPECT_H

#include <stddef.h>
#include <stdint.h>

struct reply_inspect_facts {
    char message[512];    /* error message on one line, key scrubbed; "" */
    char code[64];        /* error code, else its type; "" */
    char title[128];      /* <title> of an HTML page; "" */
    int64_t usage_tokens; /* completion/output tokens of a JSON reply, -1 */
};

/* Inspects len bytes of body. key (may be NULL) is scrubbed from the
 * message. Never fails: what cannot be read stays empty. */
void reply_inspect(const char *body, size_t len, const char *key,
                   struct reply_inspect_facts *out);

#endif
