/* replay_capacity: the synthetic server's batch model. At most `capacity`
 * streams decode at once; a request that arrives when every slot is taken
 * waits (first come, first served) for the earliest one to free, so its
 * TTFT grows by the wait; and its TPOT grows with the streams already
 * decoding when it is admitted (tpot + batch_tpot x others). A request's
 * whole timing is fixed when it arrives, so the model is deterministic:
 * the same arrivals give the same schedule. */
#ifndef TT_REPLAY_CAPACITY_H
#define TT_REPLAY_CAPACITY_H

#include <stddef.h>
#include <stdint.h>

#define REPLAY_CAPACITY_MAX 65536 /* slots of one profile */

/* One profile's decode slots: when each frees (CLOCK_MONOTONIC ns). */
struct replay_capacity {
    size_t n;         /* slots; 0: unlimited (no queue, no batch cost) */
    int64_t *free_ns; /* n entries, owned */
};

/* What admission decided for one request. */
struct replay_admit {
    int64_t queue_ns; /* waited for a slot (0 when one was free) */
    int64_t tpot_ns;  /* its TPOT at the batch size it joined */
    size_t decoding;  /* streams decoding when it started, itself included */
};

/* Makes n slots, all free (n = 0: an unlimited model that allocates
 * nothing). Returns 0, or ENOMEM (then c is unlimited). */
int replay_capacity_init(struct replay_capacity *c, size_t n);

/* Frees the slots. NULL-safe. */
void replay_capacity_free(struct replay_capacity *c);

/* Admits a request that arrived at arrival_ns and, once started, holds
 * its slot for prefill_ns (the TTFT without queueing) plus (tokens - 1)
 * TPOTs: takes the earliest free slot (waiting for it when none is free),
 * fills *out and marks the slot busy until that request's last token.
 * An unlimited model admits at once with tpot_ns unchanged. Can't fail. */
void replay_capacity_admit(struct replay_capacity *c, int64_t arrival_ns,
                           int64_t prefill_ns, int64_t tokens, int64_t tpot_ns,
                           int64_t batch_tpot_ns, struct replay_admit *out);

#endif
