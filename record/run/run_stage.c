/* run_stage: a sweep stage's load and the recorder's state during it. */
#include "run_stage.h"

#include <string.h>
#include <time.h>

/* The calling (loop) thread's CPU time (user + system) in ns, -1 when
 * unknown: the keep-awake spinner's is left out. */
static int64_t run_stage_cpu_ns(void)
{
    struct timespec ts;
    /* the loop thread's own: the keep-awake spinner (keep_awake.h) burns
     * idle time that is no one's load */
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return -1;
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void run_stage_begin(struct run_stage *st, const struct cli_sweep *sw,
                     size_t idx, int64_t now_ns, int64_t ramp_ns,
                     const struct self_lag *lag)
{
    memset(st, 0, sizeof *st);
    st->id = (uint32_t)idx + 1;
    st->mode = sw->mode;
    st->load = sw->loads[idx];
    st->start_ns = now_ns;
    st->ramp_ns = ramp_ns;
    st->lag_mark = self_lag_mark(lag);
    st->cpu_start_ns = run_stage_cpu_ns();
}

void run_stage_end(const struct run_stage *st, int64_t end_ns,
                   const struct self_lag *lag, struct trace_stage *out)
{
    int64_t cpu = run_stage_cpu_ns();
    memset(out, 0, sizeof *out);
    out->id = st->id;
    out->mode = cli_sweep_mode_name(st->mode);
    out->load = st->load;
    out->start_ns = st->start_ns;
    out->end_ns = end_ns;
    out->sent = st->sent;
    out->ramp_ns = st->ramp_ns;
    out->cpu_ns =
        cpu >= 0 && st->cpu_start_ns >= 0 ? cpu - st->cpu_start_ns : -1;
    self_lag_since(lag, st->lag_mark, &out->loop_lag_p50_ns,
                   &out->loop_lag_p99_ns, &out->loop_lag_max_ns,
                   &out->loop_lag_samples);
}

void run_stage_opening(const struct run_stage *st, struct trace_stage *out)
{
    memset(out, 0, sizeof *out);
    out->id = st->id;
    out->mode = cli_sweep_mode_name(st->mode);
    out->load = st->load;
    out->start_ns = st->start_ns;
    out->end_ns = out->cpu_ns = -1;
    out->ramp_ns = st->ramp_ns;
}
