/* replay_steps: the queue of timed actions a stream producer hands to the
 * stream engine (replay_stream). A producer fills the queue only when it is
 * empty; the bytes of every step live in the queue's one buffer. */
#ifndef TT_REPLAY_STEPS_H
#define TT_REPLAY_STEPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

enum replay_step_kind {
    STEP_START, /* status line + headers of a streamed (chunked) reply */
    STEP_SEND,  /* one body write */
    STEP_END,   /* end the streamed reply; the stream is done */
    STEP_REPLY, /* a whole reply: status, headers, body; the stream is done */
    STEP_RESET, /* abort the TCP connection with an RST; done */
    STEP_HOLD,  /* send nothing more; wait until the client goes away */
};

struct replay_step {
    enum replay_step_kind kind;
    int64_t due_ns;           /* CLOCK_MONOTONIC time to act at */
    size_t off, len;          /* SEND/REPLY bytes inside the queue's buffer */
    int status;               /* START/REPLY: HTTP status */
    const char *content_type; /* START/REPLY: static string */
    const char *header_name;  /* optional extra header (static), or NULL */
    const char *header_value;
    bool droppable; /* SEND: skipped when the client is not reading */
};

#define REPLAY_STEPS_MAX 16
#define REPLAY_STEPS_BYTES_LIMIT ((size_t)64 << 20)

struct replay_steps {
    struct replay_step items[REPLAY_STEPS_MAX];
    size_t head, count;
    struct buf bytes; /* producers append step bytes here */
};

/* Initializes an empty queue. */
void replay_steps_init(struct replay_steps *q);

/* Frees the queue's memory. */
void replay_steps_free(struct replay_steps *q);

/* Adds a step whose bytes are everything appended to q->bytes since mark
 * (mark = q->bytes.len before appending). Returns the step for the caller
 * to fill in further, or NULL when the queue is full. */
struct replay_step *replay_steps_add(struct replay_steps *q,
                                     enum replay_step_kind kind, int64_t due_ns,
                                     size_t mark);

/* Shorthands of replay_steps_add returning 0, or -1 when the queue is
 * full: a SEND of the bytes appended since mark; a START of a reply with
 * status and content type ctype (static); a step without bytes (END,
 * RESET, HOLD). */
int replay_steps_send(struct replay_steps *q, int64_t due_ns, size_t mark);
int replay_steps_start(struct replay_steps *q, int64_t due_ns, int status,
                       const char *ctype);
int replay_steps_bare(struct replay_steps *q, enum replay_step_kind kind,
                      int64_t due_ns);

/* The oldest step, or NULL when empty. */
const struct replay_step *replay_steps_front(const struct replay_steps *q);

/* The bytes of a step of this queue. */
const char *replay_steps_data(const struct replay_steps *q,
                              const struct replay_step *s);

/* Drops the oldest step; the byte buffer is emptied with the last one. */
void replay_steps_pop(struct replay_steps *q);

#endif
