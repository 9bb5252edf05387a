/* cmd_capacity: `tokentrace-analyze capacity TRACE... --slo ...`: a
 * sweep's stages judged against the SLO, the knee with its bootstrap
 * interval, and optionally the chart (docs/capacity.md). */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze_options.h"
#include "capacity.h"
#include "commands.h"
#include "duration.h"
#include "log.h"
#include "plot_chart.h"
#include "plot_run.h"

static void help(void)
{
    printf(
        "usage: tokentrace-analyze capacity TRACE... --slo "
        "ttft=500ms,tpot=50ms\n"
        "                                   [--attain 99%%] "
        "[--include-transient]\n"
        "                                   [--max-send-lag 10ms] [--format "
        "table|json]\n"
        "                                   [-o DIR] [--seed S] [--tokens "
        "auto|usage|chunks]\n"
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

/* True when the first len bytes of arg are the flag name. */
static bool named(const char *arg, size_t len, const char *name)
{
    return strlen(name) == len && strncmp(arg, name, len) == 0;
}

/* Takes capacity's own flags out of argv into opt; the rest go to args.
 * Returns the count left, or -1 after a usage error. */
static int take_flags(int argc, char **argv, char **args,
                      struct cap_options *opt)
{
    int n = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        size_t len = strcspn(a, "=");
        if (strcmp(a, "--include-transient") == 0) {
            opt->include_transient = true;
            continue;
        }
        if (named(a, len, "--max-cpu") ||
            named(a, len, "--max-loop-lag-share")) {
            double *dst = named(a, len, "--max-cpu") ? &opt->max_cpu
                                                     : &opt->loop_lag_share;
            v = a[len] == '=' ? a + len + 1 : i + 1 < argc ? argv[++i] : NULL;
            if (!v || parse_share(v, dst == &opt->max_cpu ? 1 : 1000, dst)) {
                log_error("%.*s: '%s' is not a share such as 90%% or 0.5",
                          (int)len, a, v ? v : "");
                return -1;
            }
            continue;
        }
        if (named(a, len, "--attain") || named(a, len, "--max-send-lag")) {
            v = a[len] == '=' ? a + len + 1 : i + 1 < argc ? argv[++i] : NULL;
            if (!v) {
                log_error("%.*s needs a value (try --help)", (int)len, a);
                return -1;
            }
            if (named(a, len, "--attain") && parse_share(v, 1, &opt->attain)) {
                log_error("--attain: '%s' is not a share such as 99%% or "
                          "0.95",
                          v);
                return -1;
            }
            if (named(a, len, "--max-send-lag") &&
                (duration_parse(v, DURATION_MS, DURATION_MS,
                                &opt->max_send_lag_ms) ||
                 opt->max_send_lag_ms <= 0)) {
                log_error("--max-send-lag: '%s' is not a duration above 0 "
                          "(10ms, 0.5s)",
                          v);
                return -1;
            }
            continue;
        }
        args[n++] = argv[i];
    }
    args[n] = NULL;
    return n;
}

/* Writes and draws the chart into dir. Returns 0 or 1. */
static int chart(const struct cap_set *s, const char *dir)
{
    struct plot_ctx ctx = {NULL, dir, "png", NULL, NULL, s};
    char gnuplot[4096];
    struct plot_job job;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        log_error("%s: cannot create the directory: %s", dir, strerror(errno));
        return 1;
    }
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
    char **args = calloc((size_t)argc + 1, sizeof *args), err[256];
    int n, rc = 0;
    if (!args)
        return 1;
    n = take_flags(argc, argv, args, &opt);
    if (n < 0) {
        free(args);
        return 2;
    }
    rc = analyze_options_parse(
        n, args, OPT_SLO | OPT_FORMAT | OPT_TOKENS | OPT_OUT | OPT_SEED,
        (1u << FMT_TABLE) | (1u << FMT_JSON), "capacity", &o);
    if (rc || o.help) {
        if (o.help)
            help();
        free(o.traces);
        free(args);
        return rc;
    }
    if (slo_parse(o.slo ? o.slo : "", &opt.slo, err, sizeof err) ||
        !opt.slo.any) {
        log_error("%s", o.slo ? err
                              : "capacity needs --slo (ttft=500ms,tpot=50ms): "
                                "the knee is where the SLO breaks");
        free(o.traces);
        free(args);
        return 2;
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
        if ((o.format == FMT_JSON ? cap_write_json(&s, stdout)
                                  : cap_write_table(&s, stdout)) ||
            fflush(stdout))
            rc = 1;
        if (o.out_dir && chart(&s, o.out_dir))
            rc = 1;
    }
    cap_set_free(&s);
    free(o.traces);
    free(args);
    return rc;
}
