/* self_lag: the recorder watches its own measurement error. A periodic
 * CLOCK_MONOTONIC timer (a timerfd on Linux, so its expiries are exact
 * whatever libevent's timer precision) is watched by the event loop; how
 * late the loop serves each expiry is the time a received byte may also
 * have waited in a socket before the write callback stamped it. The
 * distribution goes into the trace footer.
 *
 * Each wake-up costs a little CPU of its own (~30-90 us on a VM where the
 * loop was idle), so the period is a trade: 5 ms cost ~6-18 ms of CPU per
 * second of recording; SELF_LAG_PERIOD_NS (50 ms) costs ~1-3 ms/s and still
 * gives 20 samples per second (docs/performance-history.md). */
#ifndef TT_SELF_LAG_H
#define TT_SELF_LAG_H

#include <stdbool.h>
#include <stdint.h>

#include "lag_samples.h"

struct event;
struct event_base;

struct self_lag {
    struct event *ev;
    int fd;      /* the timerfd, when has_fd */
    bool has_fd; /* false: a libevent timer instead */
    int64_t period_ns;
    int64_t due_ns;         /* the next expiry not yet served */
    struct lag_samples lag; /* lateness of each wake-up */
};
#define SELF_LAG_PERIOD_NS ((int64_t)50000000)

/* Starts expiring every period_ns (<= 0: SELF_LAG_PERIOD_NS) on base.
 * Returns 0, or -1 when no timer could be made (the run goes on without
 * self-measurement). */
int self_lag_start(struct self_lag *s, struct event_base *base,
                   int64_t period_ns);

/* Stops the timer (the samples stay). NULL-safe, idempotent. */
void self_lag_stop(struct self_lag *s);

/* Fills p50/p99/max in ns and the number of wake-ups; -1 and 0 when none. */
void self_lag_result(struct self_lag *s, int64_t *p50, int64_t *p99,
                     int64_t *max, uint64_t *n);

/* Samples kept so far: a mark for self_lag_since. */
uint64_t self_lag_mark(const struct self_lag *s);

/* Like self_lag_result, over the samples kept since mark only (a stage of
 * a sweep); the order of the kept samples is left alone. Out of memory
 * gives -1 and 0 too. */
void self_lag_since(const struct self_lag *s, uint64_t mark, int64_t *p50,
                    int64_t *p99, int64_t *max, uint64_t *n);

/* Frees the timer and the samples. */
void self_lag_free(struct self_lag *s);

#endif
