/* run: one recording run from the trace header to the footer: opens the
 * loop, writes the header, lets run_loop.c serve the run, writes the
 * footer and says how it went. What happens during the run is decided in
 * run_loop.c. */
#include "run_loop.h"

#include <string.h>
#include <sys/resource.h>

#include "clock.h"
#include "log.h"
#include "run_start.h"

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

/* Writes the footer and the last flush. */
static void write_footer(struct run_loop *r)
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
    wake_probe_result(&r->probe, &f.wake_probe_p50_ns, &f.wake_probe_p99_ns,
                      &f.wake_probe_max_ns, &f.wake_probe_samples);
    lag_samples_result(&r->req.receive_lag, &f.receive_lag_p50_ns,
                       &f.receive_lag_p99_ns, &f.receive_lag_max_ns,
                       &f.receive_lag_samples);
    if (!run_loop_check_write(r, trace_write_footer(r->s->writer, &f)))
        run_loop_check_write(r, trace_writer_flush(r->s->writer));
}

int run_execute(const struct run_setup *s, struct run_outcome *out)
{
    struct run_loop r;
    struct run_start st;
    uint64_t cap = inflight_cap();
    int rc;
    memset(out, 0, sizeof *out);
    out->reason = "complete";
    rc = run_loop_open(&r, s, out, cap);
    if (rc) {
        run_loop_close(&r);
        return rc;
    }
    if (s->cfg->rate <= 0 && s->cfg->concurrency > cap)
        log_warn("-c %llu is above the open-file limit; expect connect "
                 "errors",
                 (unsigned long long)s->cfg->concurrency);
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
    rc = run_write_header(s, r.mono_zero, st.real_zero_ns, &r.awake);
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
