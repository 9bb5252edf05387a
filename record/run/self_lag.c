/* self_lag: how late the recorder's own event loop wakes up. */
#include "self_lag.h"

#include <event2/event.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/timerfd.h>
#endif

#include "clock.h"

/* The loop ran our callback: the time since the expiry it serves. */
static void note(struct self_lag *s, int64_t now)
{
    /* earlier than asked (libevent rounds to microseconds) counts as 0 */
    lag_samples_add(&s->lag, now > s->due_ns ? now - s->due_ns : 0);
}

#ifdef __linux__
/* The timerfd is readable: it expired (once or more) since the last read.
 * One sample per wake-up: the lateness of the oldest expiry not yet served;
 * the next due time is the first expiry after now. */
static void on_timerfd(evutil_socket_t fd, short what, void *arg)
{
    struct self_lag *s = arg;
    int64_t now = clock_mono_ns();
    uint64_t expired;

    (void)what;
    if (read(fd, &expired, sizeof(expired)) != (ssize_t)sizeof(expired))
        return; /* spurious wake-up: nothing expired */
    note(s, now);
    s->due_ns += (int64_t)expired * s->period_ns;
    if (s->due_ns <= now) /* expiries between the read and now */
        s->due_ns += ((now - s->due_ns) / s->period_ns + 1) * s->period_ns;
}

/* A periodic CLOCK_MONOTONIC timerfd on the loop: the kernel expires it on
 * time (whatever libevent's own timer precision), and re-arming costs no
 * system call. Returns 0 or -1. */
static int start_timerfd(struct self_lag *s, struct event_base *base)
{
    struct itimerspec its;

    s->fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (s->fd < 0)
        return -1;
    s->has_fd = true;
    s->due_ns = clock_mono_ns() + s->period_ns;
    its.it_value.tv_sec = (time_t)(s->due_ns / 1000000000);
    its.it_value.tv_nsec = (long)(s->due_ns % 1000000000);
    its.it_interval.tv_sec = (time_t)(s->period_ns / 1000000000);
    its.it_interval.tv_nsec = (long)(s->period_ns % 1000000000);
    s->ev = event_new(base, s->fd, EV_READ | EV_PERSIST, on_timerfd, s);
    if (s->ev == NULL ||
        timerfd_settime(s->fd, TFD_TIMER_ABSTIME, &its, NULL) != 0 ||
        event_add(s->ev, NULL) != 0)
        return -1;
    return 0;
}
#endif

/* Without a timerfd: a libevent timer, re-armed one period after now. */
static void arm(struct self_lag *s, int64_t now)
{
    struct timeval tv = {(time_t)(s->period_ns / 1000000000),
                         (suseconds_t)(s->period_ns % 1000000000 / 1000)};
    s->due_ns = now + s->period_ns;
    evtimer_add(s->ev, &tv);
}

static void on_timer(evutil_socket_t fd, short what, void *arg)
{
    struct self_lag *s = arg;
    int64_t now = clock_mono_ns();
    (void)fd;
    (void)what;
    note(s, now);
    arm(s, now);
}

int self_lag_start(struct self_lag *s, struct event_base *base,
                   int64_t period_ns)
{
    memset(s, 0, sizeof(*s));
    s->period_ns = period_ns > 0 ? period_ns : SELF_LAG_PERIOD_NS;
#ifdef __linux__
    if (start_timerfd(s, base) == 0)
        return 0;
    if (s->ev)
        event_free(s->ev);
    s->ev = NULL;
    if (s->has_fd)
        close(s->fd);
    s->has_fd = false;
#endif
    s->ev = evtimer_new(base, on_timer, s);
    if (!s->ev)
        return -1;
    arm(s, clock_mono_ns());
    return 0;
}

void self_lag_stop(struct self_lag *s)
{
    if (s && s->ev)
        event_del(s->ev);
}

void self_lag_result(struct self_lag *s, int64_t *p50, int64_t *p99,
                     int64_t *max, uint64_t *n)
{
    lag_samples_result(&s->lag, p50, p99, max, n);
}

uint64_t self_lag_mark(const struct self_lag *s)
{
    return s->lag.n_kept;
}

void self_lag_since(const struct self_lag *s, uint64_t mark, int64_t *p50,
                    int64_t *p99, int64_t *max, uint64_t *n)
{
    lag_samples_since(&s->lag, mark, p50, p99, max, n);
}

void self_lag_free(struct self_lag *s)
{
    if (!s)
        return;
    if (s->ev)
        event_free(s->ev);
    if (s->has_fd)
        close(s->fd);
    lag_samples_free(&s->lag);
    memset(s, 0, sizeof(*s));
}
