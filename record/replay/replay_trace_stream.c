/* replay_trace_stream: recorded chunks as timed steps. */
#include "replay_trace_stream.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

struct trace_stream {
    const struct replay_recording *rec;
    double speed;
    int64_t arrival_ns;
    size_t next_chunk;
    bool started, ended;
};

int replay_trace_stream_new(const struct replay_recording *rec, double speed,
                            int64_t arrival_ns, void **out)
{
    struct trace_stream *s = calloc(1, sizeof(*s));

    if (s == NULL)
        return ENOMEM;
    s->rec = rec;
    s->speed = speed > 0 ? speed : 1.0;
    s->arrival_ns = arrival_ns;
    *out = s;
    return 0;
}

/* arrival + delay / speed. */
static int64_t at(const struct trace_stream *s, int64_t delay_ns)
{
    return s->arrival_ns + (int64_t)((double)delay_ns / s->speed);
}

/* Producer entry point: headers, then one chunk per call, then the end. */
static int trace_refill(void *state, struct replay_steps *q)
{
    struct trace_stream *s = state;
    const struct replay_recording *r = s->rec;
    struct replay_step *st;
    size_t mark = q->bytes.len;

    if (!s->started) {
        s->started = true;
        st = replay_steps_add(q, STEP_START, at(s, r->header_ns), mark);
        if (st == NULL)
            return -1;
        st->status = r->status;
        st->content_type = r->content_type    ? r->content_type
                           : r->status == 200 ? "text/event-stream"
                                              : "application/json";
        if (r->retry_after != NULL) {
            st->header_name = "Retry-After";
            st->header_value = r->retry_after;
        }
        return 0;
    }
    if (s->next_chunk < r->n_chunks) {
        const struct replay_rec_chunk *c = &r->chunks[s->next_chunk++];
        if (buf_append(&q->bytes, r->bytes + c->off, c->len) != BUF_OK)
            return -1;
        return replay_steps_add(q, STEP_SEND, at(s, c->delay_ns), mark) ? 0
                                                                        : -1;
    }
    if (!s->ended) {
        s->ended = true;
        return replay_steps_add(q, STEP_END, at(s, r->end_ns), mark) ? 0 : -1;
    }
    return replay_steps_add(q, STEP_HOLD, s->arrival_ns, mark) ? 0 : -1;
}

/* Producer entry point: frees the state (not the recording). */
static void trace_free(void *state)
{
    free(state);
}

const struct replay_producer replay_trace_producer = {
    .refill = trace_refill,
    .free = trace_free,
};
