/* self_lag: the recorder watches its own measurement error. A light timer
 * asks to be woken every period; how late the event loop actually wakes it
 * is the time a received byte may also have waited in a socket before the
 * write callback stamped it. The distribution goes into the trace footer. */
#ifndef TT_SELF_LAG_H
#define TT_SELF_LAG_H

#include <stdint.h>

struct event;
struct event_base;

struct self_lag {
    struct event *ev;
    int64_t period_ns;
    int64_t due_ns;   /* when the pending wake-up was asked for */
    int64_t *samples; /* lateness, ns; the first SELF_LAG_MAX_SAMPLES kept */
    uint64_t n_kept, cap;
    uint64_t count;   /* every wake-up, kept or not */
    int64_t max_ns;
};

#define SELF_LAG_MAX_SAMPLES ((uint64_t)1 << 20)

/* Starts waking every period_ns on base. Returns 0, or -1 when the timer
 * could not be made (the run goes on without self-measurement). */
int self_lag_start(struct self_lag *s, struct event_base *base,
                   int64_t period_ns);

/* Stops the timer (the samples stay). NULL-safe, idempotent. */
void self_lag_stop(struct self_lag *s);

/* Fills p50/p99/max in ns and the number of wake-ups; -1 and 0 when none. */
void self_lag_result(struct self_lag *s, int64_t *p50, int64_t *p99,
                     int64_t *max, uint64_t *n);

/* Frees the timer and the samples. */
void self_lag_free(struct self_lag *s);

#endif
