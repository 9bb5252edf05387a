/* wake_probe: a helper thread's clock through a pipe into the loop. */
#define _GNU_SOURCE /* CPU_SET, pipe2, pthread affinity */
#include "wake_probe.h"

#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"

/* Stamps read per read(2). */
#define STAMPS_PER_READ 64

/* The helper: sleeps to the next period on the absolute clock, then
 * writes the time it woke (its own lateness does not count: the stamp is
 * taken after it). A full pipe drops the stamp. */
static void *helper(void *arg)
{
    struct wake_probe *p = arg;
    int64_t next = clock_mono_ns() + p->period_ns;
    while (!__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE)) {
        struct timespec ts = {(time_t)(next / 1000000000),
                              (long)(next % 1000000000)};
        int64_t now;
        if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0 &&
            errno != EINTR)
            break;
        if (__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE))
            break;
        now = clock_mono_ns();
        if (write(p->fds[1], &now, sizeof now) < 0 && errno != EAGAIN)
            break;
        next += p->period_ns;
        if (next <= now) /* slept through periods: the next one after now */
            next = now + p->period_ns;
    }
    return NULL;
}

/* The pipe is readable: every stamp in it, each one's wait kept. */
static void on_stamps(evutil_socket_t fd, short what, void *arg)
{
    struct wake_probe *p = arg;
    int64_t now = clock_mono_ns(), stamps[STAMPS_PER_READ];
    ssize_t n;
    (void)what;
    while ((n = read(fd, stamps, sizeof stamps)) > 0) {
        for (ssize_t i = 0; i < n / (ssize_t)sizeof stamps[0]; i++)
            lag_samples_add(&p->lag, now - stamps[i]);
        if ((size_t)n < sizeof stamps)
            break;
    }
}

/* The pipe's ends can't be made (no descriptors left, ...): -1. */
static int open_pipe(struct wake_probe *p)
{
    if (pipe2(p->fds, O_NONBLOCK | O_CLOEXEC) != 0)
        return -1;
    p->has_pipe = true;
    return 0;
}

int wake_probe_start(struct wake_probe *p, struct event_base *base,
                     int64_t period_ns, int helper_cpu)
{
    pthread_attr_t attr;
    int e;
    memset(p, 0, sizeof *p);
    p->period_ns = period_ns > 0 ? period_ns : WAKE_PROBE_PERIOD_NS;
    p->cpu = helper_cpu;
    if (open_pipe(p) != 0)
        return -1;
    p->ev = event_new(base, p->fds[0], EV_READ | EV_PERSIST, on_stamps, p);
    if (!p->ev || event_add(p->ev, NULL) != 0)
        return -1;
    if (pthread_attr_init(&attr) != 0)
        return -1;
    /* a new thread inherits the caller's CPU set (the loop's alone when
     * it is pinned): the helper gets its own */
    if (p->cpu >= 0 && p->cpu < CPU_SETSIZE) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(p->cpu, &one);
        pthread_attr_setaffinity_np(&attr, sizeof one, &one);
    }
    pthread_attr_setstacksize(&attr, 64 * 1024);
    e = pthread_create(&p->helper, &attr, helper, p);
    pthread_attr_destroy(&attr);
    if (e)
        return -1;
    p->running = true;
    return 0;
}

void wake_probe_stop(struct wake_probe *p)
{
    if (p->running) {
        __atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
        pthread_join(p->helper, NULL);
        p->running = false;
    }
    if (p->ev)
        event_del(p->ev);
}

void wake_probe_result(struct wake_probe *p, int64_t *p50, int64_t *p99,
                       int64_t *max, uint64_t *n)
{
    lag_samples_result(&p->lag, p50, p99, max, n);
}

void wake_probe_free(struct wake_probe *p)
{
    wake_probe_stop(p);
    if (p->ev)
        event_free(p->ev);
    p->ev = NULL;
    if (p->has_pipe) {
        close(p->fds[0]);
        close(p->fds[1]);
    }
    p->has_pipe = false;
    lag_samples_free(&p->lag);
}
