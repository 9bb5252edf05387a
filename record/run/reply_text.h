/* reply_text: the text of a reply as it streams in (a session's next turn
 * carries it as the assistant's message): SSE events in, the generated
 * answer text out, for every API kind the recorder speaks (chat
 * delta.content, completions text, Anthropic text deltas, Responses
 * output_text deltas). Reasoning and tool-call arguments are not part of
 * it. Bounded: text beyond RUN_REPLY_MAX is dropped (and said). */
#ifndef TT_RECORD_REPLY_TEXT_H
#define TT_RECORD_REPLY_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "sse.h"

#define RUN_REPLY_MAX ((size_t)4 << 20)

struct reply_text {
    struct sse_parser sse;
    struct buf text; /* the answer so far (NUL-terminated once finished) */
    bool truncated;  /* more than RUN_REPLY_MAX: the rest was dropped */
    bool nomem;
};

/* Feeds received body bytes. */
void reply_text_feed(struct reply_text *r, const char *p, size_t n);

/* The text collected (NUL-terminated, valid until reply_text_delete) and its
 * length in *len; "" when none. */
const char *reply_text_value(struct reply_text *r, size_t *len);

/* A malloc'd collector, started (NULL out of memory). */
struct reply_text *reply_text_new(void);

/* Frees a collector from reply_text_new and its buffers. NULL-safe. */
void reply_text_delete(struct reply_text *r);

#endif
