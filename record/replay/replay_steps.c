/* replay_steps: a small fixed ring of timed steps plus their bytes. */
#include "replay_steps.h"

#include <string.h>

void replay_steps_init(struct replay_steps *q)
{
    memset(q, 0, sizeof(*q));
    buf_init(&q->bytes, REPLAY_STEPS_BYTES_LIMIT);
}

void replay_steps_free(struct replay_steps *q)
{
    buf_free(&q->bytes);
    q->head = q->count = 0;
}

struct replay_step *replay_steps_add(struct replay_steps *q,
                                     enum replay_step_kind kind, int64_t due_ns,
                                     size_t mark)
{
    struct replay_step *s;

    if (q->count == REPLAY_STEPS_MAX || mark > q->bytes.len)
        return NULL;
    s = &q->items[(q->head + q->count) % REPLAY_STEPS_MAX];
    memset(s, 0, sizeof(*s));
    s->kind = kind;
    s->due_ns = due_ns;
    s->off = mark;
    s->len = q->bytes.len - mark;
    q->count++;
    return s;
}

int replay_steps_send(struct replay_steps *q, int64_t due_ns, size_t mark)
{
    return replay_steps_add(q, STEP_SEND, due_ns, mark) ? 0 : -1;
}

int replay_steps_start(struct replay_steps *q, int64_t due_ns, int status,
                       const char *ctype)
{
    struct replay_step *s =
        replay_steps_add(q, STEP_START, due_ns, q->bytes.len);
    if (s == NULL)
        return -1;
    s->status = status;
    s->content_type = ctype;
    return 0;
}

int replay_steps_bare(struct replay_steps *q, enum replay_step_kind kind,
                      int64_t due_ns)
{
    return replay_steps_add(q, kind, due_ns, q->bytes.len) ? 0 : -1;
}

const struct replay_step *replay_steps_front(const struct replay_steps *q)
{
    return q->count ? &q->items[q->head] : NULL;
}

const char *replay_steps_data(const struct replay_steps *q,
                              const struct replay_step *s)
{
    return s->len ? q->bytes.data + s->off : "";
}

void replay_steps_pop(struct replay_steps *q)
{
    if (q->count == 0)
        return;
    q->head = (q->head + 1) % REPLAY_STEPS_MAX;
    if (--q->count == 0) {
        q->head = 0;
        buf_reset(&q->bytes);
    }
}
