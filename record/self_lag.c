/* self_lag: how late the recorder's own event loop wakes up. */
#include "self_lag.h"

#include <event2/event.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"

static void arm(struct self_lag *s, int64_t now)
{
    struct timeval tv = {0, (suseconds_t)(s->period_ns / 1000)};
    s->due_ns = now + s->period_ns;
    evtimer_add(s->ev, &tv);
}

static void keep(struct self_lag *s, int64_t late)
{
    s->count++;
    if (late > s->max_ns)
        s->max_ns = late;
    if (s->n_kept == s->cap) {
        uint64_t ncap = s->cap ? s->cap * 2 : 1024;
        int64_t *p;
        if (ncap > SELF_LAG_MAX_SAMPLES)
            return;
        p = realloc(s->samples, ncap * sizeof(*p));
        if (!p)
            return;
        s->samples = p;
        s->cap = ncap;
    }
    s->samples[s->n_kept++] = late;
}

static void on_wake(evutil_socket_t fd, short what, void *arg)
{
    struct self_lag *s = arg;
    int64_t now = clock_mono_ns();
    (void)fd;
    (void)what;
    /* libevent rounds timeouts to microseconds: earlier than asked is 0. */
    keep(s, now > s->due_ns ? now - s->due_ns : 0);
    arm(s, now);
}

int self_lag_start(struct self_lag *s, struct event_base *base,
                   int64_t period_ns)
{
    memset(s, 0, sizeof(*s));
    s->period_ns = period_ns;
    s->ev = evtimer_new(base, on_wake, s);
    if (!s->ev)
        return -1;
    arm(s, clock_mono_ns());
    return 0;
}

void self_lag_stop(struct self_lag *s)
{
    if (s && s->ev)
        evtimer_del(s->ev);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Type-7 percentile of sorted samples, rounded to ns. */
static int64_t percentile(const int64_t *v, uint64_t n, double p)
{
    double k = (double)(n - 1) * p / 100.0;
    uint64_t lo = (uint64_t)k;
    double frac = k - (double)lo;
    if (lo + 1 >= n)
        return v[n - 1];
    return v[lo] + (int64_t)(frac * (double)(v[lo + 1] - v[lo]) + 0.5);
}

void self_lag_result(struct self_lag *s, int64_t *p50, int64_t *p99,
                     int64_t *max, uint64_t *n)
{
    *n = s->count;
    if (s->n_kept == 0) {
        *p50 = *p99 = *max = -1;
        return;
    }
    qsort(s->samples, s->n_kept, sizeof(*s->samples), cmp_i64);
    *p50 = percentile(s->samples, s->n_kept, 50);
    *p99 = percentile(s->samples, s->n_kept, 99);
    *max = s->max_ns;
}

void self_lag_free(struct self_lag *s)
{
    if (!s)
        return;
    if (s->ev)
        event_free(s->ev);
    free(s->samples);
    memset(s, 0, sizeof(*s));
}
