/* run: the recording run's lifecycle: set up, header, event loop, footer,
 * stop conditions and signals. */
#include "run_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "clock.h"
#include "log.h"

#define RUN_TICK_US 100000 /* flush, idle check, signal check, progress */

volatile sig_atomic_t run_stop_requested;

/* SIGINT / SIGTERM: only raises the flag the 100 ms tick looks at. */
static void on_signal(int sig)
{
    (void)sig;
    run_stop_requested = 1;
}

void run_install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* SA_RESETHAND: a second signal kills at once (even while a write to a
     * full pipe blocks); SA_RESTART: the first does not break that write */
    sa.sa_flags = (int)(SA_RESETHAND | SA_RESTART);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

/* Stops everything after a failed write or allocation. */
void run_set_fatal(struct run *r, int rc)
{
    if (r->fatal)
        return;
    r->fatal = true;
    r->fatal_rc = rc;
    r->no_more = true;
    if (rc == RUN_E_WRITE) {
        r->out->write_err = r->env.write_err;
        r->out->write_errno = trace_writer_errno(r->s->writer);
        r->out->reason = "write_error";
    }
    event_base_loopbreak(r->base);
}

/* Records a write error from a trace_write_* call; returns err. */
int run_check_write(struct run *r, int err)
{
    if (err) {
        if (!r->env.write_err)
            r->env.write_err = err;
        run_set_fatal(r, RUN_E_WRITE);
    }
    return err;
}

/* True when the schedule has another request and nothing stops it. */
bool run_has_next(const struct run *r)
{
    struct schedule_slot slot;
    return !r->no_more && !r->fatal &&
           schedule_slot(&r->sched, r->next_k, &slot);
}

/* Ends the event loop once nothing is left to do. */
void run_check_end(struct run *r)
{
    if (r->n_inflight == 0 && r->n_waiting == 0 && !run_has_next(r))
        event_base_loopexit(r->base, NULL);
}

/* Raises the open-file limit and returns how many requests may be in
 * flight at once. */
static uint64_t inflight_cap(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 512;
    if (rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
        getrlimit(RLIMIT_NOFILE, &rl);
    }
    if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > 100064)
        return 100000;
    return rl.rlim_cur > 96 ? (uint64_t)rl.rlim_cur - 64 : 32;
}

/* Sets up timers and transfer settings. Returns a run_err. */
static int setup(struct run *r)
{
    const struct config *c = r->cfg;
    struct event_config *ec = event_config_new();
    struct timeval tick = {0, RUN_TICK_US};
    uint64_t cap = inflight_cap();
    if (!ec)
        return RUN_E_SETUP;
    /* Open-loop pacing needs sub-ms timers; they cost a timerfd_settime per
     * loop turn (~0.6 per chunk), so a closed loop goes without. The
     * self-lag timer keeps its own precision (self_lag.h). */
    if (c->rate > 0)
        event_config_set_flag(ec, EVENT_BASE_FLAG_PRECISE_TIMER);
    r->base = event_base_new_with_config(ec);
    event_config_free(ec);
    if (!r->base || evloop_new(r->base, run_on_done, r, &r->loop))
        return RUN_E_SETUP;
    r->tick = event_new(r->base, -1, EV_PERSIST, run_on_tick, r);
    r->pace = evtimer_new(r->base, run_on_pace, r);
    r->deadline = evtimer_new(r->base, run_on_deadline, r);
    if (!r->tick || !r->pace || !r->deadline || event_add(r->tick, &tick))
        return RUN_E_SETUP;
    r->tc.url = r->s->url;
    r->tc.auth_header = r->s->auth_header;
    r->tc.anthropic = c->api == API_ANTHROPIC;
    r->tc.http2 = c->http2;
    r->tc.timeout_ms = (long)(c->timeout_s * 1000.0 + 0.5);
    r->tc.connect_timeout_ms = (long)(c->connect_timeout_s * 1000.0 + 0.5);
    r->tc.timeout_s = c->timeout_s;
    r->tc.idle_timeout_s = c->idle_timeout_s;
    r->tc.insecure = c->insecure;
    r->tc.cacert = c->cacert;
    r->retry_rng = c->seed ^ 0x5265747279ULL; /* jitter, repeatable per seed */
    r->idle_ns = (int64_t)(c->idle_timeout_s * 1e9);
    r->env.writer = r->s->writer;
    r->env.progress = &r->progress;
    r->sched.n_models = c->n_models;
    r->sched.n_classes = r->s->wl->n_classes;
    r->sched.warmup = c->warmup;
    r->sched.rounds = c->n;
    r->sched.unbounded = c->duration_s > 0 && !c->n_given;
    r->max_inflight = c->rate > 0 ? cap : c->concurrency;
    if (c->rate <= 0 && c->concurrency > cap)
        log_warn("-c %llu is above the open-file limit; expect connect "
                 "errors",
                 (unsigned long long)c->concurrency);
    return RUN_OK;
}

/* Frees what setup made and any transfer still in flight. */
static void teardown(struct run *r)
{
    while (r->inflight) {
        struct transfer *t = r->inflight;
        evloop_remove(r->loop, t->easy);
        run_unlink_transfer(r, t);
        transfer_free(t);
    }
    run_retry_cancel_all(r, false);
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

/* Writes the footer and the last flush. */
static void write_footer(struct run *r)
{
    struct trace_footer f;
    memset(&f, 0, sizeof f);
    f.end_ns = r->out->end_ns;
    f.requests = r->out->requests;
    f.ok = r->out->ok;
    f.failed = r->out->failed;
    f.retried = r->out->retried;
    f.chunks = r->out->chunks;
    f.bytes = r->out->bytes;
    f.interrupted = r->out->interrupted;
    f.reason = r->out->reason;
    self_lag_result(&r->lag, &f.loop_lag_p50_ns, &f.loop_lag_p99_ns,
                    &f.loop_lag_max_ns, &f.loop_lag_samples);
    if (!run_check_write(r, trace_write_footer(r->s->writer, &f)))
        run_check_write(r, trace_writer_flush(r->s->writer));
}

int run_execute(const struct run_setup *s, struct run_outcome *out)
{
    struct run r;
    int rc;
    bool show;
    memset(&r, 0, sizeof r);
    memset(out, 0, sizeof *out);
    out->reason = "complete";
    r.s = s;
    r.cfg = s->cfg;
    r.out = out;
    rc = setup(&r);
    if (rc) {
        teardown(&r);
        return rc;
    }
    r.mono_zero = clock_mono_ns();
    out->start_ns = r.mono_zero;
    show = !s->cfg->quiet && (s->cfg->progress == PROGRESS_ALWAYS ||
                              (s->cfg->progress == PROGRESS_AUTO && isatty(2)));
    progress_init(&r.progress, show, schedule_total(&r.sched), r.mono_zero);
    rc = run_write_header(s, r.mono_zero, clock_real_ns());
    if (!run_check_write(&r, rc)) {
        if (s->cfg->duration_s > 0) {
            struct timeval tv;
            int64_t ns = (int64_t)(s->cfg->duration_s * 1e9);
            tv.tv_sec = (time_t)(ns / 1000000000);
            tv.tv_usec = (suseconds_t)((ns % 1000000000) / 1000);
            evtimer_add(r.deadline, &tv);
        }
        if (s->cfg->rate > 0) {
            arrival_init(&r.arrival, s->cfg->arrival == ARRIVAL_POISSON,
                         s->cfg->rate, s->cfg->seed);
            r.next_due_ns = r.mono_zero + arrival_next(&r.arrival);
            run_on_pace(-1, 0, &r);
        } else {
            run_refill(&r);
        }
        if (!r.fatal) {
            /* the default period: 20 samples a second for ~1-3 ms of
             * CPU a second (self_lag.h) */
            self_lag_start(&r.lag, r.base, 0);
            run_check_end(&r);
            event_base_dispatch(r.base);
            self_lag_stop(&r.lag);
        }
    }
    out->end_ns = clock_mono_ns();
    if (out->signalled)
        out->interrupted = true;
    if (!r.fatal)
        write_footer(&r);
    progress_finish(&r.progress, out->end_ns);
    teardown(&r);
    return r.fatal ? r.fatal_rc : RUN_OK;
}
