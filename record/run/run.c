/* run: one recording run from the trace header to the footer: opens the
 * loop, writes the header, lets run_loop.c serve the run, writes the
 * footer and says how it went. What happens during the run is decided in
 * run_loop.c. */
#include "run_loop.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "fd_limit.h"
#include "log.h"

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

/* The run's clock zero. Without --start-at it is now; with it, the
 * process sleeps on CLOCK_REALTIME to the instant (every shard the same
 * one) and the zero is that instant mapped onto CLOCK_MONOTONIC, on which
 * the run then schedules. */
struct run_start {
    int64_t mono_zero_ns, real_zero_ns; /* the same instant on both */
    int64_t late_ns; /* how far past --start-at it woke (0 without one) */
    bool signalled;  /* SIGINT / SIGTERM during the wait */
};

/* Waits for start_at_ns (CLOCK_REALTIME ns; 0: none) and fills *out.
 * Returns 0, or 1 when it woke more than RUN_START_LATE_NS late (or was
 * started after the instant): out->late_ns says by how much. A signal
 * ends the wait early with out->signalled. */
static int run_start_wait(int64_t start_at_ns, struct run_start *out)
{
    struct timespec ts;
    int64_t mono, real;
    out->late_ns = 0;
    out->signalled = false;
    if (start_at_ns <= 0) {
        out->mono_zero_ns = clock_mono_ns();
        out->real_zero_ns = clock_real_ns();
        return 0;
    }
    ts.tv_sec = (time_t)(start_at_ns / 1000000000LL);
    ts.tv_nsec = (long)(start_at_ns % 1000000000LL);
    /* absolute on CLOCK_REALTIME: a clock step during the wait is
     * followed, so every host wakes at the instant its own clock names */
    while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL) == EINTR) {
        if (run_stop_requested) {
            out->signalled = true;
            break;
        }
    }
    mono = clock_mono_ns();
    real = clock_real_ns();
    out->late_ns = real - start_at_ns;
    if (out->late_ns < 0)
        out->late_ns = 0; /* a signal woke it early */
    /* the instant itself on the monotonic clock: the schedule is the
     * instant's, a late wake-up shows as send lag, not as a shift */
    out->mono_zero_ns = mono - out->late_ns;
    out->real_zero_ns = out->signalled ? real : start_at_ns;
    if (out->signalled)
        out->mono_zero_ns = mono;
    return !out->signalled && out->late_ns > RUN_START_LATE_NS ? 1 : 0;
}

/* Raises the open-file limit (soft to hard) and returns how many
 * requests may be in flight at once; *soft / *hard: the limits after
 * (0 unknown). */
static uint64_t inflight_cap(uint64_t *soft, uint64_t *hard)
{
    if (fd_limit_raise(soft, hard, NULL, 0) < 0)
        return 512;
    if (*soft > 100064)
        return 100000;
    return *soft > 96 ? *soft - 64 : 32;
}

/* Writes the footer and the last flush. */
static void write_footer(struct run_loop *r)
{
    struct trace_footer f;
    struct buf log;
    buf_init(&log, 64 * 1024);
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
    wake_probe_result(&r->probe, &f.wake_probe_p50_ns, &f.wake_probe_p99_ns,
                      &f.wake_probe_max_ns, &f.wake_probe_samples);
    lag_samples_result(&r->req.receive_lag, &f.receive_lag_p50_ns,
                       &f.receive_lag_p99_ns, &f.receive_lag_max_ns,
                       &f.receive_lag_samples);
    /* auto's changes (keep-awake is stopped: its monitor is joined) */
    if (r->awake.asked == KEEP_AWAKE_AUTO &&
        keep_awake_log_json(&r->awake, r->mono_zero, &log) == BUF_OK &&
        buf_error(&log) == BUF_OK) {
        f.keep_awake_end = keep_awake_mode_name(keep_awake_now(&r->awake));
        f.keep_awake_changes = r->awake.n_changes;
        f.keep_awake_log = log.data;
    }
    if (!run_loop_check_write(r, trace_write_footer(r->s->writer, &f)))
        run_loop_check_write(r, trace_writer_flush(r->s->writer));
    buf_free(&log);
}

int run_execute(const struct run_setup *s, struct run_outcome *out)
{
    struct run_loop r;
    struct run_start st;
    uint64_t soft, hard, cap = inflight_cap(&soft, &hard);
    int rc;
    memset(out, 0, sizeof *out);
    out->reason = "complete";
    rc = run_loop_open(&r, s, out, cap);
    if (rc) {
        run_loop_close(&r);
        return rc;
    }
    if (s->cfg->rate <= 0 && s->cfg->concurrency > cap)
        log_warn("-c %llu is above what the open-file limit allows (%llu "
                 "streams: soft limit %llu, raised to the hard limit %llu; "
                 "ulimit -Hn raises that, as root); expect connect errors",
                 (unsigned long long)s->cfg->concurrency,
                 (unsigned long long)cap, (unsigned long long)soft,
                 (unsigned long long)hard);
    run_loop_prepare(&r); /* --server-metrics: the state before the run
                             (before --start-at's wait: it never delays it) */
    if (run_start_wait(s->cfg->shard.start_at_ns, &st)) {
        /* too late for the shared instant: nothing is written, so the
         * merge names this shard as missing */
        out->late_ns = st.late_ns;
        run_loop_close(&r);
        return RUN_E_LATE;
    }
    out->start_ns = st.mono_zero_ns;
    out->late_ns = st.late_ns;
    run_loop_begin(&r, out->start_ns);
    rc =
        run_write_header(s, r.mono_zero, st.real_zero_ns, st.late_ns, &r.awake);
    if (st.signalled) { /* stopped while it waited: header and footer */
        out->signalled = true;
        out->reason = "signal";
    } else if (!run_loop_check_write(&r, rc)) {
        run_loop_run(&r);
    }
    out->end_ns = clock_mono_ns();
    if (out->signalled)
        out->interrupted = true;
    if (!r.fatal)
        write_footer(&r);
    run_loop_end(&r, out->end_ns);
    rc = r.fatal ? r.fatal_rc : RUN_OK;
    run_loop_close(&r);
    return rc;
}
