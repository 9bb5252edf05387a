/* run_retry: --retry in the run: deciding to send a failed attempt again,
 * waiting on a libevent timer (never a sleep: the loop keeps serving the
 * other requests, the tick keeps watching for Ctrl-C), and sending the next
 * attempt as a new request of the same schedule slot. */
#include "run_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "retry.h"

static void link_retry(struct run *r, struct run_retry *w)
{
    w->prev = NULL;
    w->next = r->waiting;
    if (r->waiting)
        r->waiting->prev = w;
    r->waiting = w;
    r->n_waiting++;
    r->progress.waiting = r->n_waiting;
}

static void unlink_retry(struct run *r, struct run_retry *w)
{
    if (w->prev)
        w->prev->next = w->next;
    else
        r->waiting = w->next;
    if (w->next)
        w->next->prev = w->prev;
    r->n_waiting--;
    r->progress.waiting = r->n_waiting;
}

void run_retry_drop(struct run_retry *w)
{
    if (!w)
        return;
    if (w->timer)
        event_free(w->timer);
    free(w);
}

/* Sets w's timer to fire at its due time (rounded up to the next µs).
 * Returns 0 or -1. */
static int arm_timer(struct run_retry *w)
{
    int64_t wait_ns = w->due_ns - clock_mono_ns();
    struct timeval tv;
    if (wait_ns < 0)
        wait_ns = 0;
    wait_ns += 999;
    tv.tv_sec = (time_t)(wait_ns / 1000000000);
    tv.tv_usec = (suseconds_t)((wait_ns % 1000000000) / 1000);
    return evtimer_add(w->timer, &tv);
}

/* The wait is over: the next attempt goes out now. */
static void on_retry_due(evutil_socket_t fd, short what, void *arg)
{
    struct run_retry *w = arg;
    struct run *r = w->r;
    /* open loop: the retry is due when its wait ends, so its send lag is
     * the recorder's own lateness, like any scheduled request */
    int64_t scheduled_ns = r->cfg->rate > 0 ? w->due_ns : -1;
    (void)fd;
    (void)what;
    /* libevent may wake a little before the due time (its clock is cached
     * at the start of a loop turn): never send before the server said */
    if (clock_mono_ns() < w->due_ns && !r->fatal && !r->aborting &&
        arm_timer(w) == 0)
        return;
    unlink_retry(r, w);
    if (!r->fatal && !r->aborting)
        run_start_attempt(r, w->slot_k, scheduled_ns, w->attempt, w->first_id);
    run_retry_drop(w);
    if (!r->fatal)
        run_check_end(r);
}

struct run_retry *run_retry_plan(struct run *r, const struct transfer *t,
                                 struct trace_result *res)
{
    struct run_retry *w;
    bool from_server;
    int64_t wait_ms;
    if (r->cfg->retry == 0 || t->attempt > r->cfg->retry || r->aborting ||
        r->fatal || t->forced_kind ||
        strncmp(res->error_kind, "http_", 5) != 0 ||
        !retry_status_retryable(res->http_status))
        return NULL;
    w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->timer = evtimer_new(r->base, on_retry_due, w);
    if (!w->timer) {
        free(w);
        return NULL;
    }
    wait_ms = retry_wait_ms(
        trace_result_header(res, "retry-after"),
        trace_result_header(res, "retry-after-ms"), t->attempt + 1,
        (time_t)(clock_real_ns() / 1000000000), &r->retry_rng, &from_server);
    w->r = r;
    w->slot_k = t->slot_k;
    w->due_ns = res->end_ns + wait_ms * 1000000;
    w->first_id = t->retry_of ? t->retry_of : t->id;
    w->attempt = t->attempt + 1;
    w->warmup = t->warmup;
    snprintf(w->last_kind, sizeof w->last_kind, "%s", res->error_kind);
    res->will_retry = true;
    res->retry_wait_ms = wait_ms;
    return w;
}

int run_retry_arm(struct run *r, struct run_retry *w)
{
    if (arm_timer(w) != 0) {
        run_retry_drop(w);
        return -1;
    }
    link_retry(r, w);
    return 0;
}

void run_retry_cancel_all(struct run *r, bool count)
{
    while (r->waiting) {
        struct run_retry *w = r->waiting;
        unlink_retry(r, w);
        if (count) {
            /* the attempt it would have replaced is the request's last */
            r->out->retried--;
            r->progress.retries--;
            if (w->warmup)
                r->out->warmup++;
            run_count_failure(r, w->last_kind);
        }
        run_retry_drop(w);
    }
}
