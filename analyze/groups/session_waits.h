/* session_waits: what each session of a session workload (docs/workloads.md)
 * cost its user: the total wait, the sum over its turns of TTFT plus
 * generation (each turn's latency: its start to its last token), and the
 * distribution of those totals over the sessions. Think times are not
 * waits. A session any of whose turns failed is counted but its wait is
 * left out (it never finished). */
#ifndef TT_SESSION_WAITS_H
#define TT_SESSION_WAITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrics.h"
#include "stats.h"

struct session_wait {
    uint64_t key; /* trace index << 32 | session id; 0: an empty slot */
    double wait_ms;
    uint32_t turns;
    bool failed;
};

struct session_waits {
    struct session_wait *slots; /* open addressing, power-of-two size */
    size_t n_slots, n;
    bool out_of_memory;
    /* Filled by session_waits_summarize. */
    uint64_t sessions, complete;
    struct stats_summary wait_ms, turns;
    struct stats_summary turns_all; /* every session's, failed ones too */
};

/* Adds one request (a no-op for a request without a session, a warmup or
 * a superseded attempt). Out of memory: counted in out_of_memory. */
void session_waits_add(struct session_waits *w,
                       const struct request_metrics *m);

/* Fills sessions, complete, the distributions of the complete sessions'
 * waits and turns, and of every session's turns (turns_all). */
void session_waits_summarize(struct session_waits *w);

/* Frees the table; w is empty afterwards. NULL-safe. */
void session_waits_free(struct session_waits *w);

#endif
