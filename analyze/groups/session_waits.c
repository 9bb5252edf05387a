/* session_waits: per-session totals of the time the user waited. */
#include "session_waits.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"

/* The slot of key in a table of n (a power of two) slots. */
static size_t slot_of(const struct session_wait *t, size_t n, uint64_t key)
{
    size_t i = (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 20) & (n - 1);
    while (t[i].key && t[i].key != key)
        i = (i + 1) & (n - 1);
    return i;
}

/* Doubles the table; -1 out of memory. */
static int grow(struct session_waits *w)
{
    size_t n = w->n_slots ? w->n_slots * 2 : 256;
    struct session_wait *t = calloc(n, sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < w->n_slots; i++)
        if (w->slots[i].key)
            t[slot_of(t, n, w->slots[i].key)] = w->slots[i];
    free(w->slots);
    w->slots = t;
    w->n_slots = n;
    return 0;
}

void session_waits_add(struct session_waits *w, const struct request_metrics *m)
{
    uint64_t key;
    struct session_wait *e;
    if (!m->session || m->warmup || m->superseded)
        return;
    if ((w->n + 1) * 2 > w->n_slots && grow(w)) {
        w->out_of_memory = true;
        return;
    }
    key = ((uint64_t)(m->trace ? m->trace->index : 0) << 32) | m->session;
    e = &w->slots[slot_of(w->slots, w->n_slots, key)];
    if (!e->key) {
        e->key = key;
        w->n++;
    }
    e->turns++;
    if (m->ok && isfinite(m->latency_ms))
        e->wait_ms += m->latency_ms;
    else
        e->failed = true;
}

void session_waits_summarize(struct session_waits *w)
{
    double *waits = malloc((w->n ? w->n : 1) * sizeof *waits);
    double *turns = malloc((w->n ? w->n : 1) * sizeof *turns);
    size_t k = 0, n_turns = 0;
    w->sessions = w->n;
    /* the complete sessions' waits and turns; then every session's turns
     * (a failed one's too: how far its user got) */
    for (size_t i = 0; waits && turns && i < w->n_slots; i++) {
        const struct session_wait *e = &w->slots[i];
        if (!e->key || e->failed)
            continue;
        waits[k] = e->wait_ms;
        turns[k++] = e->turns;
    }
    w->complete = k;
    stats_summarize(waits, k, &w->wait_ms);
    stats_summarize(turns, k, &w->turns);
    for (size_t i = 0; turns && i < w->n_slots; i++)
        if (w->slots[i].key)
            turns[n_turns++] = w->slots[i].turns;
    stats_summarize(turns, n_turns, &w->turns_all);
    free(waits);
    free(turns);
}

void session_waits_free(struct session_waits *w)
{
    if (!w)
        return;
    free(w->slots);
    memset(w, 0, sizeof *w);
}
