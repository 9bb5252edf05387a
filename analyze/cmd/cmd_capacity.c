/* cmd_capacity: `tokentrace-analyze capacity TRACE... --slo ...`: a
 * sweep's stages judged against the SLO, the knee with its bootstrap
 * interval, and optionally the chart (docs/capacity.md). */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_options.h"
#include "capacity.h"
#include "commands.h"
#include "duration.h"
#include "log.h"
#include "plot_chart.h"
#include "plot_dir.h"
#include "plot_run.h"
#include "shard_gate.h"

static void help(void)
{
    printf(
        "usage: tokentrace-analyze capacity TRACE... --slo "
        "ttft=500ms,tpot=50ms\n"
        "                                   [--attain 99%%] "
        "[--include-transient]\n"
        "                                   [--max-send-lag 10ms] [--format "
        "table|json]\n"
        "                                   [-o DIR] [--seed S]\n"
        "                                   [--tokens auto|usage|chunks]\n"
        "\n"
        "Judges every stage of a sweep (tokentrace-record --sweep) against "
        "the\n"
        "SLO and finds the highest load that meets it.\n"
        "  --slo LIMITS          ttft=, tpot=, latency=, itl= (latencies from "
        "the\n"
        "                        intended send in an open loop); at least one\n"
        "  --attain P            the share of a stage's requests that must "
        "meet\n"
        "                        every limit (failed requests count as "
        "misses);\n"
        "                        default 99%%\n"
        "  --include-transient   keep the requests of ramp-up (sent before "
        "the\n"
        "                        stage's first reply ended) and drain (ended\n"
        "                        after the load began to fall); default: left "
        "out\n"
        "  --max-send-lag D      a stage whose recorder send lag p99 is above "
        "D\n"
        "                        (default 10ms) is invalid: the client, not "
        "the\n"
        "                        server, set its pace. Also invalid: recorder "
        "CPU\n"
        "                        above 90%% of a core (--max-cpu), or its\n"
        "                        event-loop lag p99 above 10%% of the stage's "
        "ITL\n"
        "                        p50 (--max-loop-lag-share)\n"
        "  --max-cpu P           see above (default 90%%)\n"
        "  --max-loop-lag-share P  see above (default 10%%)\n"
        "  -o DIR                write DIR/capacity.{gp,dat} and draw\n"
        "                        DIR/capacity.png (goodput and p99 against\n"
        "                        offered load, the knee marked) with gnuplot\n"
        "  --format F            table (default) or json\n"
        "  --seed S              seed of the bootstrap (default 1)\n"
        "  --merge-anyway        pool shards of one run id that are not one\n"
        "                        run (else refused, exit 1); said on stderr\n"
        "                        and in the table\n"
        "Exit 1 also when a shard run is cut or missing a shard (said).\n"
        "The knee is the heaviest valid stage that meets the SLO with every\n"
        "lighter valid stage meeting it too; its 95%% interval comes from "
        "1000\n"
        "bootstrap resamples of each stage's requests.\n"
        "example:\n"
        "  tokentrace-record -u URL -m M --sweep concurrency=1,2,4,8 -n 40 -o "
        "s.ttrace\n"
        "  tokentrace-analyze capacity s.ttrace --slo ttft=500ms,tpot=50ms -o "
        "chart\n");
}

/* "99%", "99" or "0.99" into a fraction in (0, max] ("250%" is 2.5).
 * Returns 0 or -1. */
static int parse_share(const char *v, double max, double *out)
{
    char *end;
    double d;
    errno = 0;
    d = strtod(v, &end);
    if (end == v || errno || !isfinite(d))
        return -1;
    if (*end == '%' && end[1] == '\0')
        d /= 100;
    else if (*end != '\0')
        return -1;
    else if (d > 1)
        d /= 100;
    if (d <= 0 || d > max)
        return -1;
    *out = d;
    return 0;
}

/* --attain, --max-cpu: a share of at most 1; --max-loop-lag-share: of at
 * most 1000 (spec->max). */
static int parse_share_flag(const char *v, void *base,
                            const struct opt_spec *spec, char *err,
                            size_t errlen)
{
    (void)err, (void)errlen;
    return parse_share(v, (double)spec->max,
                       (double *)(void *)((char *)base + spec->at));
}

/* --max-send-lag DUR, in ms (a bare number is ms), above 0. */
static int parse_send_lag(const char *v, void *base,
                          const struct opt_spec *spec, char *err, size_t errlen)
{
    struct cap_options *opt = base;
    double ms;
    (void)spec, (void)err, (void)errlen;
    if (duration_parse(v, DURATION_MS, DURATION_MS, &ms) || ms <= 0)
        return -1;
    opt->max_send_lag_ms = ms;
    return 0;
}

#define AT(f) OPT_AT(struct cap_options, f)
/* capacity's own flags, beside the shared ones (analyze_options.h). */
static const struct opt_spec cap_opts[] = {
    {.name = "include-transient",
     .kind = OPT_BOOL,
     .at = AT(include_transient)},
    {.name = "attain",
     .kind = OPT_CUSTOM,
     .parse = parse_share_flag,
     .at = AT(attain),
     .max = 1,
     .want = "a share such as 99% or 0.95"},
    {.name = "max-send-lag",
     .kind = OPT_CUSTOM,
     .parse = parse_send_lag,
     .want = "a duration above 0 (10ms, 0.5s)"},
    {.name = "max-cpu",
     .kind = OPT_CUSTOM,
     .parse = parse_share_flag,
     .at = AT(max_cpu),
     .max = 1,
     .want = "a share such as 90% or 0.5"},
    {.name = "max-loop-lag-share",
     .kind = OPT_CUSTOM,
     .parse = parse_share_flag,
     .at = AT(loop_lag_share),
     .max = 1000,
     .want = "a share such as 90% or 0.5"},
};

/* Writes and draws the chart into dir. Returns 0 or 1. */
static int chart(const struct cap_set *s, const char *dir)
{
    struct plot_ctx ctx = {NULL, dir, "png", NULL, NULL, s};
    char gnuplot[4096];
    struct plot_job job;
    if (plot_dir_make(dir))
        return 1;
    ctx.font = plot_font_detect();
    if (plot_chart_write(&ctx, &plot_chart_capacity))
        return 1;
    if (plot_find_program("gnuplot", gnuplot, sizeof gnuplot) != 0) {
        log_note("gnuplot was not found on PATH: wrote %s/capacity.gp and "
                 ".dat; run `gnuplot %s/capacity.gp` to draw the chart",
                 dir, dir);
        return 0;
    }
    memset(&job, 0, sizeof job);
    snprintf(job.script, sizeof job.script, "%s/capacity.gp", dir);
    job.fmt = "png";
    if (plot_run_jobs(gnuplot, &job, 1, 1)) {
        log_error("gnuplot failed on %s (exit %d)", job.script, job.status);
        return 1;
    }
    log_note("chart: %s/capacity.png", dir);
    return 0;
}

int cmd_capacity(int argc, char **argv)
{
    struct cap_options opt = {.attain = 0.99,
                              .max_send_lag_ms = 10,
                              .max_cpu = 0.9,
                              .loop_lag_share = 0.1,
                              .resamples = 1000};
    struct analyze_options o;
    struct cap_set s;
    struct shard_gate gate;
    char gate_json[512];
    struct opt_table own = {cap_opts, sizeof cap_opts / sizeof cap_opts[0],
                            &opt};
    char err[256];
    int rc = analyze_options_parse_with(
        argc, argv,
        OPT_SLO | OPT_FORMAT | OPT_TOKENS | OPT_OUT | OPT_SEED | OPT_MERGE,
        (1u << FMT_TABLE) | (1u << FMT_JSON), &own, "capacity", &o);
    if (rc || o.help) {
        if (o.help)
            help();
        free(o.traces);
        return rc;
    }
    if (slo_parse(o.slo ? o.slo : "", &opt.slo, err, sizeof err) ||
        !opt.slo.any) {
        log_error("%s", o.slo ? err
                              : "capacity needs --slo (ttft=500ms,tpot=50ms): "
                                "the knee is where the SLO breaks");
        free(o.traces);
        return 2;
    }
    if (shard_gate_check(o.traces, o.n_traces, o.merge_anyway, &gate)) {
        free(o.traces); /* a run not one: said, nothing written */
        return 1;
    }
    opt.seed = o.seed;
    cap_set_init(&s, &opt);
    for (size_t i = 0; i < o.n_traces; i++)
        if (load_trace_file(o.traces[i], &o.load, cap_collect, NULL, &s,
                            &s.traces, &s.n_traces))
            rc = 1;
    if (s.rows_dropped)
        log_warn("more requests than capacity keeps (%zu) or out of memory: "
                 "the later ones are left out",
                 (size_t)CAP_MAX_ROWS);
    if (s.n_rows == 0)
        log_warn("no request belongs to a stage: record with --sweep "
                 "(tokentrace-record --help)");
    if (cap_set_judge(&s) || cap_set_knee(&s)) {
        log_error("out of memory");
        rc = 1;
    } else {
        if ((o.format == FMT_JSON
                 ? cap_write_json(
                       &s, stdout,
                       shard_gate_json(&gate, gate_json, sizeof gate_json))
                 : cap_write_table(&s, stdout)) ||
            (o.format != FMT_JSON && shard_gate_line(stdout, &gate)) ||
            fflush(stdout))
            rc = 1;
        if (gate.n_incomplete)
            rc = 1; /* a shard cut or missing: said on stderr */
        if (o.out_dir && chart(&s, o.out_dir))
            rc = 1;
    }
    cap_set_free(&s);
    free(o.traces);
    return rc;
}
