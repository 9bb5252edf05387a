/* wake_probe: the recorder's self-check of what network data suffers. A
 * helper thread on another CPU than the event loop's writes its clock
 * into a pipe every WAKE_PROBE_PERIOD_NS; the loop watches the pipe and
 * keeps, per stamp, how long after the write it read it. Like a received
 * packet, the write wakes the loop's CPU from another CPU (an
 * inter-processor interrupt, a halted vCPU's wake-up) and then waits for
 * the loop to get to it, so its lateness is the delay every chunk's
 * timestamp may carry. A timer on the loop's own CPU (self_lag.h) misses
 * the cross-CPU part. The distribution goes into the trace footer
 * (wake_probe_*; docs/trace-format.md).
 *
 * Cost: one wake-up of each thread per period (200 a second), about 12 ms
 * of CPU per second of recording (docs/performance.md, "Keep-awake: cost",
 * the wake-up probe). */
#ifndef TT_WAKE_PROBE_H
#define TT_WAKE_PROBE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "lag_samples.h"

struct event;
struct event_base;

struct wake_probe {
    struct event *ev;
    int fds[2]; /* pipe: the loop reads [0], the helper writes [1] */
    bool has_pipe, running;
    volatile int stop; /* read by the helper with __atomic loads */
    pthread_t helper;
    int64_t period_ns;
    int cpu; /* the helper's CPU, -1 not pinned */
    struct lag_samples lag;
};

#define WAKE_PROBE_PERIOD_NS ((int64_t)5000000)

/* Starts probing base every period_ns (<= 0: WAKE_PROBE_PERIOD_NS) from a
 * helper pinned to helper_cpu (keep_awake_other_cpu: not the loop's; -1:
 * not pinned, the caller's CPU set). Returns 0, or -1 (no pipe, no thread:
 * the run goes on without it; call wake_probe_free either way). */
int wake_probe_start(struct wake_probe *p, struct event_base *base,
                     int64_t period_ns, int helper_cpu);

/* Stops the helper (joined within one period) and the watch; the samples
 * stay. Idempotent; safe on a zeroed struct. */
void wake_probe_stop(struct wake_probe *p);

/* p50/p99/max in ns and the number of stamps read; -1 and 0 when none. */
void wake_probe_result(struct wake_probe *p, int64_t *p50, int64_t *p99,
                       int64_t *max, uint64_t *n);

/* Stops it and frees everything. Safe on a zeroed struct. */
void wake_probe_free(struct wake_probe *p);

#endif
