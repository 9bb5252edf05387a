/* run_reply: the text of a reply as it streams in (a session's next turn
 * carries it as the assistant's message): SSE events in, the generated
 * answer text out, for every API kind the recorder speaks (chat
 * delta.content, completions text, Anthropic text deltas, Responses
 * output_text deltas). Reasoning and tool-call arguments are not part of
 * it. Bounded: text beyond RUN_REPLY_MAX is dropped (and said). */
#ifndef TT_RECORD_RUN_REPLY_H
#define TT_RECORD_RUN_REPLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "sse.h"

#define RUN_REPLY_MAX ((size_t)4 << 20)

struct run_reply {
    struct sse_parser sse;
    struct buf text; /* the answer so far (NUL-terminated once finished) */
    bool truncated;  /* more than RUN_REPLY_MAX: the rest was dropped */
    bool nomem;
};

/* Feeds received body bytes. */
void run_reply_feed(struct run_reply *r, const char *p, size_t n);

/* The text collected (NUL-terminated, valid until run_reply_delete) and its
 * length in *len; "" when none. */
const char *run_reply_text(struct run_reply *r, size_t *len);

/* A malloc'd collector, started (NULL out of memory). */
struct run_reply *run_reply_new(void);

/* Frees a collector from run_reply_new and its buffers. NULL-safe. */
void run_reply_delete(struct run_reply *r);

#endif
