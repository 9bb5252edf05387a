/* run_loop: the event loop's callbacks and every decision of the run. */
#include "run_loop.h"

#include <string.h>

#include "clock.h"
#include "rng.h"
#include "run_checks.h"
#include "run_events.h"
#include "run_loop_state.h"
#include "run_outcome.h"
#include "run_plan.h"

/* Set by run.c's SIGINT / SIGTERM handler (run.h); the loop reads it. */
volatile sig_atomic_t run_stop_requested;

#define RUN_TICK_US 100000 /* flush, idle check, signal check, progress */
/* Open loop: sends at most this many due requests before the loop serves
 * other events (a client behind schedule must still read its replies and
 * see its deadline). */
#define RUN_PACE_BURST 64

static void begin_stage(struct run_loop *r, size_t idx);

/* Once nothing is left to do: ends a sweep's stage and begins the next,
 * or ends the event loop. */
static void check_end(struct run_loop *r)
{
    if (run_loop_busy(r) != 0 || run_loop_has_next(r))
        return;
    run_loop_end_stage(r);
    if (r->stage.id && !r->no_more && !r->fatal &&
        (r->stage_idx + 1 < r->plan.n || run_loop_search_more(r))) {
        begin_stage(r, r->stage_idx + 1);
        return;
    }
    event_base_loopexit(r->ev.base, NULL);
}

/* Starts one attempt of schedule slot k (see run_requests_start; sess:
 * the session it is the current turn of, or NULL); a failure stops the
 * run. */
static void start_attempt(struct run_loop *r, uint64_t k, int64_t scheduled_ns,
                          int64_t released_ns, uint32_t attempt,
                          uint32_t retry_of, struct run_session *sess)
{
    struct schedule_slot slot;
    int rc;
    if (!schedule_slot(&r->sched, k, &slot))
        return;
    rc = run_requests_start(&r->req, k, &slot, scheduled_ns, released_ns,
                            attempt, retry_of, sess);
    if (rc)
        run_loop_fatal(r, rc);
}

/* Starts the next request of the schedule (for a session item: a new
 * session, with its first turn); scheduled_ns is its intended send time
 * (-1 in a closed loop), released_ns when the in-flight cap let it go
 * (-1: it did not wait). */
static void start_next(struct run_loop *r, int64_t scheduled_ns,
                       int64_t released_ns)
{
    struct schedule_slot slot;
    const struct workload_session *ws;
    struct run_session *sess = NULL;
    uint64_t k;
    if (!schedule_slot(&r->sched, r->next_k, &slot))
        return;
    ws = run_session_of_slot(r->s->wl, &slot);
    if (ws) {
        sess = run_session_start(
            &r->sessions, r->next_k,
            run_session_global_id(&r->sessions, &r->sched, r->s->wl, r->next_k),
            ws, slot.warmup);
        if (!sess) {
            run_loop_fatal(r, RUN_E_NOMEM);
            return;
        }
    }
    k = r->next_k;
    /* --shard: this shard's slots only */
    r->next_k = cli_shard_next(&r->cfg->shard, r->lanes, k);
    r->stage.sent++;
    start_attempt(r, k, scheduled_ns, released_ns, 1, 0, sess);
}

/* Closed loop: keeps the configured number of requests in flight (during
 * a ramp, the number reached so far; the pace timer raises it). */
static void refill(struct run_loop *r)
{
    int64_t next;
    uint64_t allowed;
    if (r->rate > 0)
        return;
    /* --ramp counts from the run's or the stage's start */
    allowed =
        run_plan_ramp_allowed(r->max_inflight, (int64_t)(r->cfg->ramp_s * 1e9),
                              r->ramp_zero_ns, clock_mono_ns(), &next);
    while (run_loop_busy(r) < allowed && run_loop_has_next(r))
        start_next(r, -1, -1);
    if (next >= 0 && run_loop_has_next(r))
        run_timer_at(r->ev.pace, next);
}

/* The wait of a retry is over: its next attempt goes out now. */
static void on_retry_due(evutil_socket_t fd, short what, void *arg)
{
    struct run_retry *w = arg;
    struct run_loop *r = w->owner;
    /* open loop: the retry is due when its wait ends, so its send lag is
     * the recorder's own lateness, like any scheduled request */
    int64_t scheduled_ns = r->rate > 0 ? w->due_ns : -1;
    (void)fd;
    (void)what;
    /* libevent may wake a little before the due time (its clock is cached
     * at the start of a loop turn): never send before the server said */
    if (clock_mono_ns() < w->due_ns && !r->fatal && !r->aborting &&
        run_timer_at(w->timer, w->due_ns) == 0)
        return;
    run_retry_unlink(&r->waiting, w);
    if (!r->fatal && !r->aborting)
        start_attempt(r, w->slot_k, scheduled_ns, -1, w->attempt, w->first_id,
                      w->session);
    run_retry_free(w);
    if (!r->fatal)
        check_end(r);
}

/* Decides whether attempt t, which ended as res, is sent again (never
 * while stopping). When it is, marks res (will_retry, retry_wait_ms) and
 * returns its waiting entry with a timer, not yet armed; else NULL (also
 * when out of memory: the attempt is then final). */
static struct run_retry *plan_retry(struct run_loop *r,
                                    const struct transfer *t,
                                    struct trace_result *res)
{
    struct run_retry *w;
    int64_t wait_ms;
    if (r->aborting || r->fatal || !run_retry_wanted(r->cfg->retry, t, res))
        return NULL;
    w = run_retry_new(t, res);
    if (!w)
        return NULL;
    w->owner = r;
    w->timer = evtimer_new(r->ev.base, on_retry_due, w);
    if (!w->timer) {
        run_retry_free(w);
        return NULL;
    }
    wait_ms = run_retry_wait_ms(res, w->attempt, &r->retry_rng);
    w->due_ns = res->end_ns + wait_ms * 1000000;
    res->will_retry = true;
    res->retry_wait_ms = wait_ms;
    return w;
}

/* The think time of a session ran out: its next turn goes out now. */
static void on_think_due(evutil_socket_t fd, short what, void *arg)
{
    struct run_session *sess = arg;
    struct run_loop *r = sess->owner;
    (void)fd;
    (void)what;
    /* never before its time (libevent's clock is cached per loop turn) */
    if (clock_mono_ns() < sess->due_ns && !r->fatal && !r->no_more &&
        run_timer_at(sess->timer, sess->due_ns) == 0)
        return;
    run_session_set_thinking(&r->sessions, sess, false);
    if (r->fatal || r->no_more) {
        run_session_end(&r->sessions, sess);
    } else {
        /* open loop: the turn is due at its time, so its send lag is the
         * recorder's own lateness, like any scheduled request */
        start_attempt(r, sess->slot_k, r->rate > 0 ? sess->due_ns : -1, -1, 1,
                      0, sess);
    }
    if (!r->fatal)
        check_end(r);
}

/* A session's turn ended for good as e: when it worked and the session
 * has another turn, its reply is kept (when the history needs it) and
 * the think time armed; otherwise the session is over (a failed turn
 * ends it: the rest would carry a history it never had). */
static void next_turn(struct run_loop *r, struct run_session *sess,
                      const struct run_ended *e)
{
    bool ok = !e->res.error_kind || !e->res.error_kind[0];
    if (!ok || !run_session_has_more(sess) || r->no_more || r->aborting ||
        r->fatal) {
        run_session_end(&r->sessions, sess);
        return;
    }
    if (run_session_advance(sess, r->cfg, e->reply, e->res.end_ns)) {
        run_loop_fatal(r, RUN_E_NOMEM);
        return;
    }
    sess->owner = r;
    if (!sess->timer)
        sess->timer = evtimer_new(r->ev.base, on_think_due, sess);
    if (!sess->timer || run_timer_at(sess->timer, sess->due_ns) != 0) {
        run_loop_fatal(r, RUN_E_NOMEM);
        return;
    }
    run_session_set_thinking(&r->sessions, sess, true);
}

/* An attempt ended (code: libcurl's, or CURLE_OK when it was stopped):
 * writes its result; then either it is sent again after a wait (counted
 * as retried) or the request ends with it. Frees t. */
static void finish(struct run_loop *r, struct transfer *t, CURLcode code)
{
    struct run_ended e;
    struct run_retry *again;
    int64_t end_ns = clock_mono_ns();
    int rc;
    progress_take_ttft(&r->progress, t);
    rc = run_requests_end(&r->req, t, code, end_ns, &e);
    if (rc) {
        run_loop_fatal(r, rc);
        transfer_free(t);
        return;
    }
    again = plan_retry(r, t, &e.res);
    rc = run_requests_write_result(&r->req, &e);
    if (rc) {
        run_loop_fatal(r, rc);
        run_retry_free(again);
        reply_text_delete(e.reply);
        transfer_free(t);
        return;
    }
    run_outcome_attempt(r->out, t->rx.chunks, t->rx.bytes);
    if (e.sse_mislabelled)
        run_outcome_sse_mislabelled(r->out, e.content_type);
    if (again && run_loop_arm_retry(r, again) == 0) {
        r->out->retried++;
    } else {
        run_outcome_request(r->out, e.res.error_kind, e.res.error_message,
                            t->warmup,
                            run_retry_exhausted(r->cfg->retry, t, &e.res));
        run_search_count(&r->cfg->search, t, &e.res, &r->stage_final,
                         &r->stage_met);
        if (t->session)
            next_turn(r, t->session, &e);
    }
    reply_text_delete(e.reply);
    transfer_free(t);
}

/* Stops a running attempt and records it with error kind `kind`. */
static void stop_transfer(struct run_loop *r, struct transfer *t,
                          const char *kind)
{
    run_requests_stop(&r->req, t, kind);
    finish(r, t, CURLE_OK);
}

static void on_pace(evutil_socket_t fd, short what, void *arg);
static void on_deadline(evutil_socket_t fd, short what, void *arg);

/* evloop: a transfer ended. Its place goes to the next request: in a
 * closed loop at once, in an open loop to a due one the cap held. A
 * --server-metrics scrape that ended is only recorded. */
static void on_done(void *ud, CURL *easy, CURLcode code)
{
    struct run_loop *r = ud;
    struct transfer *t = NULL;
    if (run_scrapes_owns(&r->scrapes, easy)) {
        if (!r->fatal)
            run_loop_check_write(r, run_scrapes_done(&r->scrapes, easy, code,
                                                     clock_mono_ns(),
                                                     r->s->writer));
        return;
    }
    curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&t);
    if (!t)
        return;
    finish(r, t, code);
    if (r->fatal)
        return;
    r->released_ns = clock_mono_ns();
    if (r->rate > 0 && r->cap_blocked) {
        on_pace(-1, 0, r);
        return;
    }
    refill(r);
    check_end(r);
}

/* SIGINT / SIGTERM: no new requests, the ones in flight are stopped, and
 * a request waiting to retry ends with the attempt it has. */
static void stop_on_signal(struct run_loop *r)
{
    struct transfer *t, *next;
    r->aborting = true;
    r->no_more = true;
    r->out->signalled = true;
    r->out->reason = "signal";
    for (t = r->req.inflight; t && !r->fatal; t = next) {
        next = t->next;
        stop_transfer(r, t, "interrupted");
    }
    run_retry_cancel_all(&r->waiting, r->out);
    run_session_end_thinking(&r->sessions);
}

/* Every 100 ms: signals, idle requests, flushing, the progress line. */
static void on_tick(evutil_socket_t fd, short what, void *arg)
{
    struct run_loop *r = arg;
    struct transfer *t, *next;
    int64_t now = clock_mono_ns();
    (void)fd;
    (void)what;
    if (run_stop_requested && !r->aborting)
        stop_on_signal(r);
    for (t = r->req.inflight; t && !r->fatal && r->idle_ns > 0; t = next) {
        next = t->next;
        if (run_timer_idle(t, now, r->idle_ns))
            stop_transfer(r, t, "idle_timeout");
    }
    if (!r->fatal && trace_writer_pending(r->s->writer) > 0)
        run_loop_check_write(r, trace_writer_flush(r->s->writer));
    if (r->fatal)
        return;
    progress_update(&r->progress, r->req.inflight, r->req.n_inflight,
                    r->waiting.n, r->out, now);
    progress_draw(&r->progress, now, false);
    refill(r);
    check_end(r);
}

/* --server-metrics: every interval, a scrape of each URL (one not done
 * since the last time is left to finish). Scrapes run on the loop beside
 * the streams, on their own connections, and their bytes are filtered as
 * they arrive, so a stream's chunk never waits for a whole page. */
static void on_scrape(evutil_socket_t fd, short what, void *arg)
{
    struct run_loop *r = arg;
    (void)fd;
    (void)what;
    if (!r->fatal)
        run_scrapes_start(&r->scrapes, r->ev.loop, clock_mono_ns());
}

/* Open loop: starts every request that is due, then waits for the next.
 * A due request the in-flight cap (-c with -r) holds waits for an attempt
 * to end (on_done calls back here); it is recorded as released then. */
static void on_pace(evutil_socket_t fd, short what, void *arg)
{
    struct run_loop *r = arg;
    int64_t now = clock_mono_ns();
    bool was_blocked = r->cap_blocked;
    unsigned burst = 0;
    (void)fd;
    (void)what;
    if (r->rate <= 0) { /* a closed loop's ramp: one more may join */
        refill(r);
        check_end(r);
        return;
    }
    r->cap_blocked = false;
    while (run_loop_has_next(r) && run_pacer_due(&r->pacer, now)) {
        int64_t due = r->pacer.next_due_ns;
        if (r->send_until_ns >= 0 && due >= r->send_until_ns) {
            /* due at or after --duration's end: not sent, however late
             * the loop is, so the bound is exact */
            on_deadline(-1, 0, r);
            return;
        }
        if (run_loop_busy(r) >= r->max_inflight) {
            r->cap_blocked = true;
            break;
        }
        if (burst == RUN_PACE_BURST) {
            /* behind schedule: let the loop serve replies and timers
             * first; the lateness shows as send lag */
            run_timer_after(r->ev.pace, 0);
            return;
        }
        start_next(r, due,
                   was_blocked && r->released_ns > due ? r->released_ns : -1);
        run_pacer_advance(&r->pacer);
        burst++;
        now = clock_mono_ns();
    }
    if (r->fatal)
        return;
    if (run_loop_has_next(r))
        run_timer_after(r->ev.pace,
                        run_pacer_wait_ns(&r->pacer, now,
                                          run_loop_busy(r) >= r->max_inflight));
    check_end(r);
}

/* --duration: no new requests from now on. */
static void on_deadline(evutil_socket_t fd, short what, void *arg)
{
    struct run_loop *r = arg;
    (void)fd;
    (void)what;
    if (r->stage.id) { /* a sweep: the stage is over, not the run */
        r->stage_over = true;
        check_end(r);
        return;
    }
    if (run_loop_has_next(r) || r->sessions.thinking) {
        if (!r->sched.unbounded)
            r->out->interrupted = true; /* a finite run was cut short */
        if (!r->out->signalled)
            r->out->reason = "duration";
    }
    r->no_more = true;
    run_session_end_thinking(&r->sessions);
    check_end(r);
}

int run_loop_open(struct run_loop *r, const struct run_setup *s,
                  struct run_outcome *out, uint64_t inflight_cap)
{
    const struct config *c = s->cfg;
    struct run_events_cb cb;
    memset(r, 0, sizeof *r);
    cb = (struct run_events_cb){on_done,     on_tick,   on_pace,
                                on_deadline, on_scrape, r};
    r->s = s;
    r->cfg = c;
    r->out = out;
    if (run_scrapes_open(&r->scrapes, s) ||
        run_events_open(&r->ev, run_plan_precise_timers(s), r->scrapes.n > 0,
                        RUN_TICK_US, &cb))
        return RUN_E_SETUP;
    run_requests_init(&r->req, s, r->ev.loop);
    r->retry_rng = c->seed ^ 0x5265747279ULL; /* jitter, repeatable per seed */
    r->idle_ns = (int64_t)(c->idle_timeout_s * 1e9);
    r->rate = run_plan_schedule(s, &r->sched);
    r->plan = c->sweep;
    run_search_init(&r->search, &c->search);
    r->max_inflight = run_plan_max_inflight(s, r->rate, inflight_cap);
    /* --shard: this shard's part of the global schedule (open loop: slots
     * k with k % N == I; closed loop: those of its lanes, cli_shard.h) */
    r->shard_i = c->shard.count > 1 ? c->shard.index : 0;
    r->shard_n = c->shard.count > 1 ? c->shard.count : 1;
    r->lanes = run_plan_lanes(s, c->concurrency);
    r->next_k = cli_shard_first(&c->shard, r->lanes);
    r->planned = run_plan_planned_sends(c, &r->sched);
    return RUN_OK;
}

void run_loop_prepare(struct run_loop *r)
{
    run_scrapes_before(&r->scrapes, r->cfg->shard.start_at_ns);
}

void run_loop_begin(struct run_loop *r, int64_t mono_zero)
{
    /* pinned before the first connection, so the loop's CPU is known to
     * the header; stopped when the loop ends */
    run_checks_awake(&r->awake, r->cfg);
    r->ramp_zero_ns = mono_zero;
    r->mono_zero = mono_zero;
    run_plan_progress(&r->progress, r->cfg, &r->sched, r->s->wl, r->lanes,
                      r->planned, mono_zero);
    /* out of memory: the line says its p50 is of all models */
    (void)progress_set_models(&r->progress, r->cfg->models, r->cfg->n_models);
}

/* Begins stage idx of the sweep: its load, its schedule from the start
 * (no warmup after the first stage), its --duration, its first sends. */
static void begin_stage(struct run_loop *r, size_t idx)
{
    const struct config *c = r->cfg;
    const struct cli_sweep *sw = &r->plan;
    int64_t now = clock_mono_ns();
    struct trace_stage st;
    r->stage_idx = idx;
    r->stage_final = r->stage_met = 0;
    r->stage_over = false;
    r->stage_written = false;
    r->cap_blocked = false;
    run_stage_begin(&r->stage, sw, idx, now, (int64_t)(c->ramp_s * 1e9),
                    &r->lag);
    r->ramp_zero_ns = now;
    r->req.stage = r->stage.id;
    /* its load in the trace before its requests */
    run_stage_opening(&r->stage, &st);
    if (run_loop_check_write(r, trace_write_stage(r->s->writer, &st)))
        return;
    if (sw->mode == SWEEP_CONCURRENCY) /* its lanes are the stage's */
        r->lanes = run_plan_lanes(r->s, (uint64_t)sw->loads[idx]);
    if (idx > 0)
        r->sched.warmup = 0;
    if (idx > 0 || sw->mode == SWEEP_CONCURRENCY)
        r->next_k = cli_shard_first(&c->shard, r->lanes);
    run_session_ids_stage(&r->sessions, idx);
    r->send_until_ns = -1;
    if (c->duration_s > 0) {
        run_timer_after(r->ev.deadline, (int64_t)(c->duration_s * 1e9));
        r->send_until_ns = now + (int64_t)(c->duration_s * 1e9);
    }
    if (sw->mode == SWEEP_RATE) {
        r->rate = sw->loads[idx];
        /* each stage its own seeded arrivals, the same for a seed */
        run_pacer_start(&r->pacer, c, r->rate,
                        idx ? rng_mix(c->seed, idx) : c->seed, now);
        run_pacer_keep_shard(&r->pacer, r->shard_i, r->shard_n);
        on_pace(-1, 0, r);
    } else {
        r->max_inflight = cli_shard_share(&c->shard, (uint64_t)sw->loads[idx]);
        refill(r);
        check_end(r);
    }
}

void run_loop_run(struct run_loop *r)
{
    const struct config *c = r->cfg;
    run_loop_scrapes_begin(r);
    if (r->fatal)
        return;
    if (c->sweep.n) {
        begin_stage(r, 0);
        if (r->fatal)
            return;
        run_checks_start(&r->lag, &r->probe, &r->awake, r->ev.base);
        run_checks_dispatch(r->ev.base, &r->awake);
        run_checks_stop(&r->lag, &r->probe, &r->awake);
        run_loop_scrapes_end(r);
        return;
    }
    r->send_until_ns = -1;
    if (c->duration_s > 0) {
        run_timer_after(r->ev.deadline, (int64_t)(c->duration_s * 1e9));
        r->send_until_ns = r->mono_zero + (int64_t)(c->duration_s * 1e9);
    }
    if (r->s->arrivals) {
        run_pacer_start_list(&r->pacer, r->s->arrivals->at_ns,
                             r->s->arrivals->n, r->mono_zero);
        run_pacer_keep_shard(&r->pacer, r->shard_i, r->shard_n);
        on_pace(-1, 0, r);
    } else if (c->rate > 0) {
        run_pacer_init(&r->pacer, c, r->mono_zero);
        run_pacer_keep_shard(&r->pacer, r->shard_i, r->shard_n);
        on_pace(-1, 0, r);
    } else {
        refill(r);
    }
    if (r->fatal)
        return;
    run_checks_start(&r->lag, &r->probe, &r->awake, r->ev.base);
    check_end(r);
    run_checks_dispatch(r->ev.base, &r->awake);
    run_checks_stop(&r->lag, &r->probe, &r->awake);
    run_loop_scrapes_end(r);
}

void run_loop_end(struct run_loop *r, int64_t end_ns)
{
    progress_update(&r->progress, r->req.inflight, r->req.n_inflight,
                    r->waiting.n, r->out, end_ns);
    progress_finish(&r->progress, end_ns);
}

void run_loop_close(struct run_loop *r)
{
    keep_awake_stop(&r->awake);
    wake_probe_free(&r->probe);
    progress_free(&r->progress);
    run_scrapes_cancel(&r->scrapes, r->ev.loop);
    run_scrapes_close(&r->scrapes);
    run_requests_free_all(&r->req);
    run_retry_cancel_all(&r->waiting, NULL);
    while (r->sessions.head)
        run_session_end(&r->sessions, r->sessions.head);
    self_lag_free(&r->lag);
    run_events_close(&r->ev);
}
