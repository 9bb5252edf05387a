/* run_timers: the run's timers: the 100 ms tick, open-loop pacing and the
 * --duration deadline. */
#include "run_internal.h"

#include "clock.h"

/* Every 100 ms: signals, idle requests, flushing, the progress line. */
void run_on_tick(evutil_socket_t fd, short what, void *arg)
{
    struct run *r = arg;
    struct transfer *t, *next;
    int64_t now = clock_mono_ns();
    (void)fd;
    (void)what;
    if (run_stop_requested && !r->aborting) {
        r->aborting = true;
        r->no_more = true;
        r->out->signalled = true;
        r->out->reason = "signal";
        for (t = r->inflight; t && !r->fatal; t = next) {
            next = t->next;
            run_stop_transfer(r, t, "interrupted");
        }
        /* a request waiting to retry ends with the attempt it has */
        run_retry_cancel_all(r, true);
    }
    for (t = r->inflight; t && !r->fatal && r->idle_ns > 0; t = next) {
        int64_t last = t->last_activity_ns > t->start_ns ? t->last_activity_ns
                                                         : t->start_ns;
        next = t->next;
        if (now - last >= r->idle_ns)
            run_stop_transfer(r, t, "idle_timeout");
    }
    if (!r->fatal && trace_writer_pending(r->s->writer) > 0)
        run_check_write(r, trace_writer_flush(r->s->writer));
    if (r->fatal)
        return;
    progress_draw(&r->progress, now, false);
    run_refill(r);
    run_check_end(r);
}

/* Open loop: starts every request that is due, then waits for the next. */
void run_on_pace(evutil_socket_t fd, short what, void *arg)
{
    struct run *r = arg;
    int64_t now = clock_mono_ns();
    struct timeval tv;
    int64_t wait_ns;
    (void)fd;
    (void)what;
    while (run_has_next(r) && r->next_due_ns <= now &&
           run_busy(r) < r->max_inflight) {
        run_start_next(r, r->next_due_ns);
        r->next_due_ns = r->mono_zero + arrival_next(&r->arrival);
        now = clock_mono_ns();
    }
    if (r->fatal)
        return;
    if (run_has_next(r)) {
        /* at the in-flight cap, look again in 1 ms; the lateness shows in
         * start_ns - scheduled_ns */
        wait_ns =
            run_busy(r) >= r->max_inflight ? 1000000 : r->next_due_ns - now;
        if (wait_ns < 0)
            wait_ns = 0;
        tv.tv_sec = (time_t)(wait_ns / 1000000000);
        tv.tv_usec = (suseconds_t)((wait_ns % 1000000000) / 1000);
        evtimer_add(r->pace, &tv);
    }
    run_check_end(r);
}

/* --duration: no new requests from now on. */
void run_on_deadline(evutil_socket_t fd, short what, void *arg)
{
    struct run *r = arg;
    (void)fd;
    (void)what;
    if (run_has_next(r)) {
        if (!r->sched.unbounded)
            r->out->interrupted = true; /* a finite run was cut short */
        if (!r->out->signalled)
            r->out->reason = "duration";
    }
    r->no_more = true;
    run_check_end(r);
}
