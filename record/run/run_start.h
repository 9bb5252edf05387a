/* run_start: the run's clock zero. Without --start-at it is now; with it,
 * the process sleeps on CLOCK_REALTIME to the instant (every shard the
 * same one) and the zero is that instant mapped onto CLOCK_MONOTONIC, on
 * which the run then schedules. It reports; run.c decides. */
#ifndef TT_RECORD_RUN_START_H
#define TT_RECORD_RUN_START_H

#include <stdbool.h>
#include <stdint.h>

/* A shard that wakes later than this after --start-at refuses to run
 * (RUN_E_LATE) rather than squeeze its schedule; earlier lateness shows as
 * the first requests' send lag. */
#define RUN_START_LATE_NS 100000000LL

struct run_start {
    int64_t mono_zero_ns, real_zero_ns; /* the same instant on both */
    int64_t late_ns; /* how far past --start-at it woke (0 without one) */
    bool signalled;  /* SIGINT / SIGTERM during the wait */
};

/* Waits for start_at_ns (CLOCK_REALTIME ns; 0: none) and fills *out.
 * Returns 0, or 1 when it woke more than RUN_START_LATE_NS late (or was
 * started after the instant): out->late_ns says by how much. A signal
 * ends the wait early with out->signalled. */
int run_start_wait(int64_t start_at_ns, struct run_start *out);

#endif
