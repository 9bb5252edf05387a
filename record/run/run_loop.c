/* run_loop: the event loop's callbacks and every decision of the run. */
#include "run_loop.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "log.h"
#include "rng.h"
#include "run_outcome.h"

#define RUN_TICK_US 100000 /* flush, idle check, signal check, progress */
/* Open loop: sends at most this many due requests before the loop serves
 * other events (a client behind schedule must still read its replies and
 * see its deadline). */
#define RUN_PACE_BURST 64

/* Stops everything after a failed write (RUN_E_WRITE) or allocation. */
static void set_fatal(struct run_loop *r, int rc)
{
    if (r->fatal)
        return;
    r->fatal = true;
    r->fatal_rc = rc;
    r->no_more = true;
    if (rc == RUN_E_WRITE) {
        r->out->write_err = r->req.env.write_err;
        r->out->write_errno = trace_writer_errno(r->s->writer);
        r->out->reason = "write_error";
    }
    event_base_loopbreak(r->base);
}

int run_loop_check_write(struct run_loop *r, int err)
{
    int rc = run_requests_note_write(&r->req, err);
    if (rc)
        set_fatal(r, rc);
    return err;
}

/* True when the schedule has another request and nothing stops it. */
static bool has_next(const struct run_loop *r)
{
    struct schedule_slot slot;
    return !r->no_more && !r->stage_over && !r->fatal &&
           schedule_slot(&r->sched, r->next_k, &slot);
}

/* Requests in flight plus those waiting to retry, plus sessions between
 * two turns (a session holds its place while its user thinks). */
static uint64_t busy(const struct run_loop *r)
{
    return r->req.n_inflight + r->waiting.n + r->sessions.thinking;
}

static void begin_stage(struct run_loop *r, size_t idx);

/* --search: whether the stage's requests met the live limit. */
static bool search_pass(const struct run_loop *r)
{
    return r->stage_final > 0 &&
           (double)r->stage_met >=
               r->cfg->search.attain * (double)r->stage_final;
}

/* A sweep's stage is over (nothing in flight, nothing left to send):
 * writes its stage record (with --search, its verdict), once. */
static void end_stage(struct run_loop *r)
{
    struct trace_stage st;
    if (!r->stage.id || r->stage_written || r->fatal)
        return;
    r->stage_written = true;
    run_stage_end(&r->stage, clock_mono_ns(), &r->lag, &st);
    if (r->cfg->search.mode != SWEEP_NONE) {
        st.search = search_pass(r) ? "pass" : "fail";
        st.search_met = r->stage_met;
        st.search_judged = r->stage_final;
    }
    run_loop_check_write(r, trace_write_stage(r->s->writer, &st));
}

/* --search: appends the next probe's load to the plan, or says the
 * search is over. */
static bool search_more(struct run_loop *r)
{
    double next;
    if (r->cfg->search.mode == SWEEP_NONE || r->plan.n == CLI_MAX_STAGES ||
        !run_search_next(&r->search, r->plan.loads[r->stage_idx],
                         search_pass(r), &next))
        return false;
    r->plan.loads[r->plan.n++] = next;
    return true;
}

/* Once nothing is left to do: ends a sweep's stage and begins the next,
 * or ends the event loop. */
static void check_end(struct run_loop *r)
{
    if (busy(r) != 0 || has_next(r))
        return;
    end_stage(r);
    if (r->stage.id && !r->no_more && !r->fatal &&
        (r->stage_idx + 1 < r->plan.n || search_more(r))) {
        begin_stage(r, r->stage_idx + 1);
        return;
    }
    event_base_loopexit(r->base, NULL);
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
        set_fatal(r, rc);
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
    if (!schedule_slot(&r->sched, r->next_k, &slot))
        return;
    ws = run_session_of_slot(r->s->wl, &slot);
    if (ws) {
        sess = run_session_start(
            &r->sessions, r->next_k,
            run_session_global_id(&r->sessions, &r->sched, r->s->wl, r->next_k),
            ws, slot.warmup);
        if (!sess) {
            set_fatal(r, RUN_E_NOMEM);
            return;
        }
    }
    r->next_k += r->shard_n; /* --shard: this shard's slots only */
    r->stage.sent++;
    start_attempt(r, r->next_k - r->shard_n, scheduled_ns, released_ns, 1, 0,
                  sess);
}

/* Closed loop with --ramp: how many may be in flight at now_ns (one more
 * every ramp / concurrency from the start), and when the next one may
 * join (-1: the ramp is over). */
static uint64_t ramp_allowed(const struct run_loop *r, int64_t now_ns,
                             int64_t *next_ns)
{
    int64_t ramp = (int64_t)(r->cfg->ramp_s * 1e9), since;
    uint64_t n = r->max_inflight, k;
    *next_ns = -1;
    if (ramp <= 0 || n == 0)
        return n;
    since = now_ns - r->ramp_zero_ns;
    if (since >= ramp)
        return n;
    k = 1 + (uint64_t)((double)n * (double)since / (double)ramp);
    if (k >= n)
        return n;
    *next_ns =
        r->ramp_zero_ns + (int64_t)ceil((double)k * (double)ramp / (double)n);
    return k;
}

/* Closed loop: keeps the configured number of requests in flight (during
 * a ramp, the number reached so far; the pace timer raises it). */
static void refill(struct run_loop *r)
{
    int64_t next;
    uint64_t allowed;
    if (r->rate > 0)
        return;
    allowed = ramp_allowed(r, clock_mono_ns(), &next);
    while (busy(r) < allowed && has_next(r))
        start_next(r, -1, -1);
    if (next >= 0 && has_next(r))
        run_timer_at(r->pace, next);
}

/* Counts t's first token (a fact transfer.c keeps) on the progress line,
 * once. */
static void take_first_token(struct run_loop *r, struct transfer *t)
{
    if (t->first_token_ns < 0 || t->first_token_counted)
        return;
    t->first_token_counted = true;
    progress_add_ttft(&r->progress, t->first_token_ns - t->start_ns);
}

/* Brings the progress line up to date before it is drawn at now_ns: the
 * first tokens seen since, the counts, the streams with no byte for
 * PROGRESS_STALL_NS. */
static void update_progress(struct run_loop *r, int64_t now_ns)
{
    struct transfer *t;
    r->progress.stalled = 0;
    for (t = r->req.inflight; t; t = t->next) {
        take_first_token(r, t);
        if (run_timer_idle(t, now_ns, PROGRESS_STALL_NS))
            r->progress.stalled++;
    }
    r->progress.done = r->out->ok + r->out->failed;
    r->progress.errors = r->out->failed;
    r->progress.retries = r->out->retried;
    r->progress.in_flight = r->req.n_inflight;
    r->progress.waiting = r->waiting.n;
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
    w->timer = evtimer_new(r->base, on_retry_due, w);
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

/* Arms a planned retry (its result was written) and puts it on the
 * waiting list. Returns 0, or -1 (w was freed: the attempt is final). */
static int arm_retry(struct run_loop *r, struct run_retry *w)
{
    if (run_timer_at(w->timer, w->due_ns) != 0) {
        run_retry_free(w);
        return -1;
    }
    run_retry_link(&r->waiting, w);
    return 0;
}

/* Cancels every waiting retry (a signal, or teardown): each request ends
 * with its last attempt, counted as failed when count is true. */
static void cancel_retries(struct run_loop *r, bool count)
{
    while (r->waiting.head) {
        struct run_retry *w = r->waiting.head;
        run_retry_unlink(&r->waiting, w);
        if (count) {
            /* the attempt it would have replaced is the request's last */
            r->out->retried--;
            run_outcome_request(r->out, w->last_kind, NULL, w->warmup, false);
        }
        run_retry_free(w);
    }
}

/* --search: counts a request that ended for good in the stage, and
 * whether it was ok with its first token within the TTFT limit from its
 * intended send. */
static void count_for_search(struct run_loop *r, const struct transfer *t,
                             const struct trace_result *res)
{
    int64_t from = t->scheduled_ns >= 0 ? t->scheduled_ns : t->start_ns;
    bool ok = !res->error_kind || !res->error_kind[0];
    if (r->cfg->search.mode == SWEEP_NONE || t->warmup)
        return;
    r->stage_final++;
    if (ok && t->first_token_ns >= 0 &&
        (double)(t->first_token_ns - from) <= r->cfg->search.ttft_ms * 1e6)
        r->stage_met++;
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
    const struct workload_turn *turn = &sess->ws->turns[sess->turn];
    size_t len = 0;
    const char *text;
    if (!ok || !run_session_has_more(sess) || r->no_more || r->aborting ||
        r->fatal) {
        run_session_end(&r->sessions, sess);
        return;
    }
    if (!turn->body && (r->cfg->history == HISTORY_RECEIVED || !turn->reply)) {
        text = e->reply ? run_reply_text(e->reply, &len) : "";
        if (run_session_keep_reply(sess, text, len)) {
            set_fatal(r, RUN_E_NOMEM);
            return;
        }
    }
    sess->turn++;
    turn = &sess->ws->turns[sess->turn];
    /* a captured turn waits as long as its user did */
    sess->think_ns = turn->body && turn->think_ns >= 0
                         ? turn->think_ns
                         : think_time_draw(&r->cfg->think, r->cfg->seed,
                                           sess->id, sess->turn);
    sess->due_ns = e->res.end_ns + sess->think_ns;
    sess->owner = r;
    if (!sess->timer)
        sess->timer = evtimer_new(r->base, on_think_due, sess);
    if (!sess->timer || run_timer_at(sess->timer, sess->due_ns) != 0) {
        set_fatal(r, RUN_E_NOMEM);
        return;
    }
    run_session_set_thinking(&r->sessions, sess, true);
}

/* Ends every session between two turns (a signal, --duration, teardown):
 * their next turns are not sent. */
static void end_thinking(struct run_loop *r)
{
    struct run_session *s = r->sessions.head, *next;
    for (; s; s = next) {
        next = s->next;
        if (s->thinking)
            run_session_end(&r->sessions, s);
    }
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
    take_first_token(r, t);
    rc = run_requests_end(&r->req, t, code, end_ns, &e);
    if (rc) {
        set_fatal(r, rc);
        transfer_free(t);
        return;
    }
    again = plan_retry(r, t, &e.res);
    rc = run_requests_write_result(&r->req, &e);
    if (rc) {
        set_fatal(r, rc);
        run_retry_free(again);
        run_reply_delete(e.reply);
        transfer_free(t);
        return;
    }
    run_outcome_attempt(r->out, t->chunks, t->bytes);
    if (e.sse_mislabelled)
        run_outcome_sse_mislabelled(r->out, e.content_type);
    if (again && arm_retry(r, again) == 0) {
        r->out->retried++;
    } else {
        run_outcome_request(r->out, e.res.error_kind, e.res.error_message,
                            t->warmup,
                            run_retry_exhausted(r->cfg->retry, t, &e.res));
        count_for_search(r, t, &e.res);
        if (t->session)
            next_turn(r, t->session, &e);
    }
    run_reply_delete(e.reply);
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
    cancel_retries(r, true);
    end_thinking(r);
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
    update_progress(r, now);
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
        run_scrapes_start(&r->scrapes, r->loop, clock_mono_ns());
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
    while (has_next(r) && run_pacer_due(&r->pacer, now)) {
        int64_t due = r->pacer.next_due_ns;
        if (r->send_until_ns >= 0 && due >= r->send_until_ns) {
            /* due at or after --duration's end: not sent, however late
             * the loop is, so the bound is exact */
            on_deadline(-1, 0, r);
            return;
        }
        if (busy(r) >= r->max_inflight) {
            r->cap_blocked = true;
            break;
        }
        if (burst == RUN_PACE_BURST) {
            /* behind schedule: let the loop serve replies and timers
             * first; the lateness shows as send lag */
            run_timer_after(r->pace, 0);
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
    if (has_next(r))
        run_timer_after(r->pace, run_pacer_wait_ns(&r->pacer, now,
                                                   busy(r) >= r->max_inflight));
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
    if (has_next(r) || r->sessions.thinking) {
        if (!r->sched.unbounded)
            r->out->interrupted = true; /* a finite run was cut short */
        if (!r->out->signalled)
            r->out->reason = "duration";
    }
    r->no_more = true;
    end_thinking(r);
    check_end(r);
}

/* Of the n first requests of the global schedule, how many are this
 * shard's (k % N == I); UINT64_MAX stays unknown. */
static uint64_t shard_part(const struct config *c, uint64_t n)
{
    uint64_t i = c->shard.index, m = c->shard.count;
    if (m <= 1 || n == UINT64_MAX)
        return n;
    return n > i ? (n - i + m - 1) / m : 0;
}

/* The sends an open loop bounded by --duration plans: its own seeded
 * arrivals counted up to the end (a Poisson schedule is not rate x
 * duration), or rate x duration when that would take too long to count. */
static uint64_t planned_sends(const struct config *c)
{
    struct arrival a;
    int64_t end_ns = (int64_t)(c->duration_s * 1e9);
    uint64_t n = 0;
    if (c->rate * c->duration_s > 1e7)
        return shard_part(c, (uint64_t)(c->rate * c->duration_s + 0.5));
    arrival_init(&a, c->arrival == ARRIVAL_POISSON, c->rate, c->seed);
    if (c->burstiness > 0)
        arrival_set_burstiness(&a, c->burstiness);
    arrival_set_ramp(&a, (int64_t)(c->ramp_s * 1e9));
    while (arrival_next(&a) < end_ns)
        n++;
    return shard_part(c, n);
}

/* Whether the progress line is drawn: not with -q; with --progress always,
 * or on a terminal by default. */
static bool progress_shown(const struct config *c)
{
    return !c->quiet && (c->progress == PROGRESS_ALWAYS ||
                         (c->progress == PROGRESS_AUTO && isatty(2)));
}

/* True when the workload has a session item. */
static bool has_sessions(const struct workload *wl)
{
    for (size_t i = 0; i < wl->n_classes; i++)
        for (size_t j = 0; j < wl->classes[i].n_items; j++)
            if (wl->classes[i].items[j].session)
                return true;
    return false;
}

int run_loop_open(struct run_loop *r, const struct run_setup *s,
                  struct run_outcome *out, uint64_t inflight_cap)
{
    const struct config *c = s->cfg;
    struct timeval tick = {0, RUN_TICK_US};
    struct event_config *ec;
    memset(r, 0, sizeof *r);
    r->s = s;
    r->cfg = c;
    r->out = out;
    ec = event_config_new();
    if (!ec)
        return RUN_E_SETUP;
    /* Open-loop pacing needs sub-ms timers; they cost a timerfd_settime per
     * loop turn (~0.6 per chunk), so a closed loop goes without. The
     * self-lag timer keeps its own precision (self_lag.h). */
    if (c->rate > 0 || c->sweep.mode == SWEEP_RATE || s->arrivals ||
        has_sessions(s->wl)) /* think times are kept to the ms */
        event_config_set_flag(ec, EVENT_BASE_FLAG_PRECISE_TIMER);
    r->base = event_base_new_with_config(ec);
    event_config_free(ec);
    if (!r->base || evloop_new(r->base, on_done, r, &r->loop))
        return RUN_E_SETUP;
    r->tick = event_new(r->base, -1, EV_PERSIST, on_tick, r);
    r->pace = evtimer_new(r->base, on_pace, r);
    r->deadline = evtimer_new(r->base, on_deadline, r);
    if (!r->tick || !r->pace || !r->deadline || event_add(r->tick, &tick))
        return RUN_E_SETUP;
    if (run_scrapes_open(&r->scrapes, s))
        return RUN_E_SETUP;
    if (r->scrapes.n) {
        r->scrape_timer = event_new(r->base, -1, EV_PERSIST, on_scrape, r);
        if (!r->scrape_timer)
            return RUN_E_SETUP;
    }
    run_requests_init(&r->req, s, r->loop);
    r->retry_rng = c->seed ^ 0x5265747279ULL; /* jitter, repeatable per seed */
    r->idle_ns = (int64_t)(c->idle_timeout_s * 1e9);
    r->sched.n_models = c->n_models;
    r->sched.n_classes = s->wl->n_classes;
    r->sched.warmup = c->warmup;
    r->sched.rounds = c->n;
    r->sched.unbounded = c->duration_s > 0 && !c->n_given;
    r->rate = c->rate;
    if (s->arrivals) {
        /* an open loop whose times come from the file; the rate is only
         * its mean (for the paths that ask "open loop?") */
        const struct arrivals_file *a = s->arrivals;
        int64_t span = a->n ? a->at_ns[a->n - 1] : 0;
        r->rate = span > 0 ? (double)a->n / ((double)span / 1e9) : 1;
        r->sched.rounds = a->n;
        r->sched.unbounded = false;
    }
    r->plan = c->sweep;
    run_search_init(&r->search, &c->search);
    /* open loop: at most -c in flight when given with -r, else what the
     * open-file limit allows */
    r->max_inflight =
        c->rate > 0 || c->sweep.mode == SWEEP_RATE || s->arrivals
            ? (c->concurrency_given ? c->concurrency : inflight_cap)
            : c->concurrency;
    /* --shard: this shard's part of the global schedule (slots k with
     * k % N == I) and of the concurrency, so the shares sum to -c */
    r->shard_i = c->shard.count > 1 ? c->shard.index : 0;
    r->shard_n = c->shard.count > 1 ? c->shard.count : 1;
    r->next_k = r->shard_i;
    if (r->shard_n > 1 && (c->concurrency_given || r->rate <= 0))
        r->max_inflight = cli_shard_share(&c->shard, r->max_inflight);
    /* Counted here, before the run's clock zero, so no send waits for it;
     * and only for a line that is drawn. */
    r->planned = UINT64_MAX;
    if (progress_shown(c) && c->rate > 0 && c->duration_s > 0 && !c->sweep.n &&
        schedule_total(&r->sched) == UINT64_MAX)
        r->planned = planned_sends(c);
    return RUN_OK;
}

void run_loop_prepare(struct run_loop *r)
{
    run_scrapes_before(&r->scrapes);
}

/* --server-metrics: writes the scrapes taken before the run (the header
 * is written) and arms the interval timer. */
static void scrapes_begin(struct run_loop *r)
{
    int64_t us = (int64_t)(r->cfg->server_metrics_interval_s * 1e6);
    struct timeval every = {(time_t)(us / 1000000),
                            (suseconds_t)(us % 1000000)};
    if (!r->scrapes.n)
        return;
    run_loop_check_write(r, run_scrapes_write_held(&r->scrapes, r->s->writer));
    if (!r->fatal)
        event_add(r->scrape_timer, &every);
}

/* --server-metrics: the timer stops, the scrapes still running are
 * dropped, and each URL is scraped once more, after the last request. */
static void scrapes_end(struct run_loop *r)
{
    if (!r->scrapes.n)
        return;
    event_del(r->scrape_timer);
    if (!r->fatal)
        run_loop_check_write(
            r, run_scrapes_after(&r->scrapes, r->loop, r->s->writer));
}

/* The requests of this shard's part (per_stage slots of total): with a
 * session workload, every slot's turns; per_stage when the count is
 * unknown or too long to add up. */
static uint64_t session_requests(const struct run_loop *r, uint64_t total,
                                 uint64_t per_stage)
{
    struct schedule_slot slot;
    uint64_t n = 0;
    if (!has_sessions(r->s->wl) || total == UINT64_MAX || total > 10000000)
        return per_stage;
    for (uint64_t k = r->shard_i; k < total; k += r->shard_n) {
        const struct workload_session *ws;
        if (!schedule_slot(&r->sched, k, &slot))
            break;
        ws = run_session_of_slot(r->s->wl, &slot);
        n += ws ? ws->n_turns : 1;
    }
    return n;
}

void run_loop_begin(struct run_loop *r, int64_t mono_zero)
{
    /* pinned before the first connection (after --start-at's wait, which
     * needs no awake CPU), so the loop's CPU is known to the header;
     * stopped when the loop ends */
    keep_awake_start(&r->awake, r->cfg->keep_awake, r->cfg->keep_awake_cpu,
                     NULL);
    if (r->awake.mode == KEEP_AWAKE_OFF && r->awake.asked != KEEP_AWAKE_OFF)
        log_note("keep-awake off: %s", r->awake.why);
    r->ramp_zero_ns = mono_zero;
    const struct config *c = r->cfg;
    bool show = progress_shown(c);
    uint64_t total = schedule_total(&r->sched);
    uint64_t per_stage = shard_part(c, total);
    int64_t end_ns = -1;
    r->mono_zero = mono_zero;
    if (c->sweep.n) {
        /* every stage runs the schedule; stages end by count or time */
        if (c->search.mode != SWEEP_NONE)
            total = UINT64_MAX; /* the search picks its probes */
        if (total != UINT64_MAX)
            total =
                total * c->sweep.n - c->warmup * c->n_models * (c->sweep.n - 1);
        progress_init(&r->progress, show, shard_part(c, total), mono_zero);
        if (c->duration_s > 0)
            end_ns =
                mono_zero + (int64_t)(c->duration_s * 1e9 * (double)c->sweep.n);
        progress_set_plan(&r->progress, UINT64_MAX, end_ns);
        return;
    }
    /* a shard counts its own requests; the ETA is the global schedule's */
    progress_init(&r->progress, show, session_requests(r, total, per_stage),
                  mono_zero);
    /* the ETA: open loop ends with its schedule (total / rate, or the
     * duration), a closed loop when its count is done or the duration */
    if (c->duration_s > 0)
        end_ns = mono_zero + (int64_t)(c->duration_s * 1e9);
    if (c->rate > 0 && total != UINT64_MAX) {
        int64_t sched_end =
            mono_zero + (int64_t)((double)total / c->rate * 1e9);
        if (end_ns < 0 || sched_end < end_ns)
            end_ns = sched_end;
    }
    progress_set_plan(&r->progress, r->planned, end_ns);
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
    /* its load in the trace before its requests: a cut trace still
     * names the stage of every request */
    memset(&st, 0, sizeof st);
    st.id = r->stage.id;
    st.mode = cli_sweep_mode_name(sw->mode);
    st.load = sw->loads[idx];
    st.start_ns = now;
    st.end_ns = st.cpu_ns = -1;
    st.ramp_ns = (int64_t)(c->ramp_s * 1e9);
    if (run_loop_check_write(r, trace_write_stage(r->s->writer, &st)))
        return;
    if (idx > 0) {
        r->sched.warmup = 0;
        r->next_k = r->shard_i;
    }
    run_session_ids_stage(&r->sessions, idx);
    r->send_until_ns = -1;
    if (c->duration_s > 0) {
        run_timer_after(r->deadline, (int64_t)(c->duration_s * 1e9));
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

/* Serves events until the run ends: sleeping in epoll, or with
 * --keep-awake poll never sleeping (a non-blocking pass at a time). */
static void dispatch(struct run_loop *r)
{
    if (!keep_awake_polls(&r->awake)) {
        event_base_dispatch(r->base);
        return;
    }
    while (event_base_loop(r->base, EVLOOP_NONBLOCK) == 0 &&
           !event_base_got_break(r->base) && !event_base_got_exit(r->base))
        ;
}

/* The self-checks: the loop's own timer (self_lag.h: 20 samples a second
 * for ~1-3 ms of CPU a second) and the cross-CPU wake-up probe
 * (wake_probe.h), whose helper runs on another CPU than the loop's. */
static void start_checks(struct run_loop *r)
{
    int helper_cpu = keep_awake_other_cpu(&r->awake);
    self_lag_start(&r->lag, r->base, 0);
    /* on one allowed CPU the probe would not cross CPUs: none (the header
     * says so, run_header.c) */
    if (helper_cpu >= 0)
        wake_probe_start(&r->probe, r->base, 0, helper_cpu);
}

/* The run is over: the checks and the keep-awake stop (nothing spins
 * while the footer is written or the process exits). */
static void stop_checks(struct run_loop *r)
{
    self_lag_stop(&r->lag);
    wake_probe_stop(&r->probe);
    keep_awake_stop(&r->awake);
}

void run_loop_run(struct run_loop *r)
{
    const struct config *c = r->cfg;
    scrapes_begin(r);
    if (r->fatal)
        return;
    if (c->sweep.n) {
        begin_stage(r, 0);
        if (r->fatal)
            return;
        start_checks(r);
        dispatch(r);
        stop_checks(r);
        scrapes_end(r);
        return;
    }
    r->send_until_ns = -1;
    if (c->duration_s > 0) {
        run_timer_after(r->deadline, (int64_t)(c->duration_s * 1e9));
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
    start_checks(r);
    check_end(r);
    dispatch(r);
    stop_checks(r);
    scrapes_end(r);
}

void run_loop_end(struct run_loop *r, int64_t end_ns)
{
    update_progress(r, end_ns);
    progress_finish(&r->progress, end_ns);
}

void run_loop_close(struct run_loop *r)
{
    keep_awake_stop(&r->awake);
    wake_probe_free(&r->probe);
    for (size_t i = 0; i < r->scrapes.n; i++)
        if (r->scrapes.s[i]->busy) /* a run that failed mid-scrape */
            evloop_remove(r->loop, r->scrapes.s[i]->easy);
    run_scrapes_close(&r->scrapes);
    if (r->scrape_timer)
        event_free(r->scrape_timer);
    run_requests_free_all(&r->req);
    cancel_retries(r, false);
    while (r->sessions.head)
        run_session_end(&r->sessions, r->sessions.head);
    self_lag_free(&r->lag);
    if (r->tick)
        event_free(r->tick);
    if (r->pace)
        event_free(r->pace);
    if (r->deadline)
        event_free(r->deadline);
    evloop_free(r->loop);
    if (r->base)
        event_base_free(r->base);
}
