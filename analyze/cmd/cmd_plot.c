/* plot_cmd: `tokentrace-analyze plot TRACE... -o DIR`: gnuplot charts with
 * their .gp scripts and .dat data, optionally an HTML report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_options.h"
#include "commands.h"
#include "compare.h"
#include "log.h"
#include "plot_chart.h"
#include "plot_data.h"
#include "plot_dir.h"
#include "plot_html.h"
#include "plot_run.h"
#include "shard_gate.h"
#include "trend.h"

enum plot_mode { MODE_CHARTS, MODE_COMPARE, MODE_TREND };

static const struct plot_chart *const charts_default[] = {
    &plot_chart_ttft_cdf, &plot_chart_tpot,     &plot_chart_latency_tokens,
    &plot_chart_itl,      &plot_chart_timeline, &plot_chart_throughput,
};
static const struct plot_chart *const charts_compare[] = {&plot_chart_compare};
static const struct plot_chart *const charts_trend[] = {&plot_chart_trend};

/* Prints `plot --help` on stdout. */
static void plot_help(void)
{
    printf(
        "usage: tokentrace-analyze plot TRACE... -o DIR [--format png|svg] "
        "[--html]\n"
        "         [--by trace|model]\n"
        "       tokentrace-analyze plot --compare BASE NEW... -o DIR [...]\n"
        "       tokentrace-analyze plot --trend TRACE... -o DIR [--by "
        "week|day] [...]\n"
        "\n"
        "Writes gnuplot charts to DIR, each as a picture, its script NAME.gp "
        "and\n"
        "its data NAME.dat: `gnuplot DIR/NAME.gp` redraws it from any "
        "directory,\n"
        "so it can be restyled (see docs/charts.md):\n"
        "  ttft-cdf           TTFT CDF per model, one panel per prompt class\n"
        "  tpot               TPOT box plot (p1/p25/p50/p75/p99) per model x "
        "class\n"
        "  latency-vs-tokens  latency against output tokens with the fitted "
        "line\n"
        "                     (intercept ~ TTFT, slope ~ TPOT)\n"
        "  itl                histogram of inter-token gaps, log time axis\n"
        "  timeline           one bar per request: start, first token, end\n"
        "  throughput         output tokens/s and requests in flight (1 s "
        "bins)\n"
        "  turns              session workloads only: TTFT against input "
        "tokens,\n"
        "                     cached and uncached turns marked, and TTFT p50 "
        "per turn\n"
        "With --compare: compare (p50/p99 bars per model for each trace, BASE\n"
        "first; error bars: 95%% bootstrap CI of p50; labels: the verdict\n"
        "against BASE). With --trend: trend (p50/p99 lines per model per week\n"
        "or day).\n"
        "\n"
        "  -o DIR            output directory (created when missing)\n"
        "  --format F        png (default, pngcairo) or svg\n"
        "  --html            also DIR/report.html: one self-contained page "
        "with\n"
        "                    the trace info, the summary and every chart "
        "inline;\n"
        "                    with --compare compare's table (CIs, verdicts), "
        "with\n"
        "                    --trend trend's table (changes per period)\n"
        "  --by trace|model  the charts' series: trace draws each model once\n"
        "                    per trace (\"MODEL (FILE)\"), model merges a\n"
        "                    model's runs into one series; default: trace "
        "when\n"
        "                    the traces differ in their settings (API kind,\n"
        "                    endpoint, workload, recorder options), else "
        "model\n"
        "  --by week|day     period of --trend (default week, UTC)\n"
        "  --tokens SRC      auto, usage or chunks (as in summary)\n"
        "  --classify HOW    declared or measured prompt classes\n"
        "  --merge-anyway    pool shards of one run id that are not one run\n"
        "                    (else refused, exit 1); a cut or missing shard\n"
        "                    is a warning (exit 0)\n"
        "\n"
        "gnuplot runs from PATH; without it the .gp and .dat files are still\n"
        "written (exit 0). Large traces are drawn from a sample of points; "
        "the\n"
        "percentiles and fits always use every request.\n"
        "examples:\n"
        "  tokentrace-analyze plot week48.ttrace -o charts --html\n"
        "  tokentrace-analyze plot --compare week47.ttrace week48.ttrace -o "
        "cmp\n"
        "  tokentrace-analyze plot --trend weekly/*.ttrace -o trend --format "
        "svg\n");
}

/* Draws every chart with gnuplot: the chosen format, plus an SVG copy for
 * the HTML report. Returns 0, or 1 when gnuplot failed on some. */
static int draw(const char *gnuplot, const char *dir,
                const struct plot_chart *const *charts, size_t n, bool svg,
                bool html)
{
    struct plot_job *jobs = calloc(2 * n + 1, sizeof(*jobs));
    size_t n_jobs = 0, failed;
    if (!jobs)
        return 1;
    for (size_t i = 0; i < n; i++) {
        struct plot_job *j = &jobs[n_jobs++];
        snprintf(j->script, sizeof(j->script), "%s/%s.gp", dir,
                 charts[i]->name);
        j->fmt = svg ? "svg" : "png";
        if (html && !svg) {
            jobs[n_jobs] = *j;
            jobs[n_jobs++].fmt = "svg";
        }
    }
    failed = plot_run_jobs(gnuplot, jobs, n_jobs, 2);
    for (size_t i = 0; i < n_jobs; i++)
        if (jobs[i].status != 0)
            log_error("gnuplot failed on %s (%s, exit %d)", jobs[i].script,
                      jobs[i].fmt, jobs[i].status);
    free(jobs);
    return failed ? 1 : 0;
}

/* True when an input is stdin, which cannot be read a second time. */
static bool reads_stdin(const struct analyze_options *o)
{
    for (size_t i = 0; i < o->n_traces; i++)
        if (strcmp(o->traces[i], "-") == 0)
            return true;
    return false;
}

/* The report's comparison and trend sections: compare's sides and
 * results, the trend's rows. */
struct report_data {
    struct compare_side *sides;
    struct compare_result *res;
    size_t n_sides, n_res;
    struct trend_set trend;
    bool has_trend;
};

/* Loads what the report's comparison (BASE against each NEW, as
 * `compare`) or trend (as `trend`) section shows into r and x. Returns 0,
 * or -1 out of memory (damage was reported when the charts' data was
 * read). */
static int report_load(const struct analyze_options *o, enum plot_mode mode,
                       struct report_data *r, struct plot_html_extra *x)
{
    memset(r, 0, sizeof(*r));
    memset(x, 0, sizeof(*x));
    if (reads_stdin(o) && mode != MODE_CHARTS) {
        log_note("standard input cannot be read twice: report.html has no "
                 "comparison or trend section");
        return 0;
    }
    if (mode == MODE_TREND) {
        bool weekly = !o->period || strcmp(o->period, "day") != 0;
        trend_init(&r->trend, weekly, o->load.classify_measured);
        r->has_trend = true;
        if (trend_load(&r->trend, o->traces, o->n_traces, &o->load) < 0 ||
            trend_finish(&r->trend) != 0)
            return -1;
        x->trend = &r->trend;
        return 0;
    }
    if (mode != MODE_COMPARE)
        return 0;
    r->sides = calloc(o->n_traces, sizeof(*r->sides));
    r->res = calloc(o->n_traces, sizeof(*r->res));
    if (!r->sides || !r->res)
        return -1;
    for (; r->n_sides < o->n_traces; r->n_sides++)
        if (compare_side_load(&r->sides[r->n_sides], o->traces[r->n_sides],
                              &o->load) < 0) {
            r->n_sides++;
            return -1;
        }
    for (; r->n_res + 1 < r->n_sides; r->n_res++)
        if (compare_run(&r->sides[0], &r->sides[r->n_res + 1], 1,
                        &r->res[r->n_res]) != 0) {
            r->n_res++;
            return -1;
        }
    x->cmp = r->res;
    x->n_cmp = r->n_res;
    return 0;
}

static void report_free(struct report_data *r)
{
    for (size_t i = 0; r->res && i < r->n_res; i++)
        compare_result_free(&r->res[i]);
    for (size_t i = 0; r->sides && i < r->n_sides; i++)
        compare_side_free(&r->sides[i]);
    free(r->res);
    free(r->sides);
    if (r->has_trend)
        trend_free(&r->trend);
}

/* Writes report.html with its sections. Returns 0 or 1. */
static int report(const struct analyze_options *o, enum plot_mode mode,
                  const struct plot_data *d,
                  const struct plot_chart *const *charts, size_t n_charts,
                  bool have_gnuplot)
{
    struct report_data r;
    struct plot_html_extra x;
    int rc = 0;
    if (report_load(o, mode, &r, &x) != 0) {
        log_error("out of memory");
        rc = 1;
    } else if (plot_html_write(o->out_dir, d, charts, n_charts,
                               have_gnuplot ? "gnuplot did not draw this chart"
                                            : "gnuplot was not found when this "
                                              "report was written: run gnuplot "
                                              "on the .gp script to draw it",
                               &x))
        rc = 1;
    report_free(&r);
    return rc;
}

/* Loads, writes every chart's .gp/.dat, draws them and the report. */
static int run(const struct analyze_options *o, enum plot_mode mode)
{
    const struct plot_chart *const *charts;
    const struct plot_chart
        *charts_sessions[sizeof charts_default / sizeof charts_default[0] + 1];
    size_t n_charts;
    struct plot_data d;
    char gnuplot[4096];
    bool have_gnuplot, by_trace, html_failed;
    int rc, load_rc;
    const char *fmt = o->svg ? "svg" : "png";
    struct plot_ctx ctx = {&d, o->out_dir, fmt, NULL, o->period, NULL};

    charts = mode == MODE_COMPARE ? charts_compare
             : mode == MODE_TREND ? charts_trend
                                  : charts_default;
    n_charts = mode == MODE_CHARTS
                   ? sizeof(charts_default) / sizeof(charts_default[0])
                   : 1;
    if (plot_dir_make(o->out_dir))
        return 1;
    by_trace = mode == MODE_CHARTS && o->by && strcmp(o->by, "trace") == 0;
    load_rc = plot_data_load(
        &d, o->traces, o->n_traces, &o->load,
        mode == MODE_CHARTS ? "model,class" : "trace,model,class", by_trace);
    /* traces of different setups: a series each unless --by model said
     * otherwise (a second read; stdin cannot be read again) */
    if (mode == MODE_CHARTS && !o->by && load_rc >= 0 && load_rc != 2 &&
        plot_data_traces_differ(&d) && !reads_stdin(o)) {
        log_note("plot: the traces differ in their settings (API kind, "
                 "endpoint, workload or recorder options): one series per "
                 "model and trace (--by model merges them)");
        plot_data_free(&d);
        load_rc = plot_data_load(&d, o->traces, o->n_traces, &o->load,
                                 "model,class", true);
    }
    if (load_rc == 2 || load_rc < 0) {
        if (load_rc < 0)
            log_error("out of memory");
        plot_data_free(&d);
        return load_rc < 0 ? 1 : 2;
    }
    rc = load_rc;
    if (mode == MODE_CHARTS && d.sessions) { /* a session workload */
        for (size_t i = 0; i < n_charts; i++)
            charts_sessions[i] = charts_default[i];
        charts_sessions[n_charts++] = &plot_chart_turns;
        charts = charts_sessions;
    }
    ctx.font = plot_font_detect();
    for (size_t i = 0; i < n_charts; i++)
        if (plot_chart_write(&ctx, charts[i]))
            rc = 1;
    have_gnuplot = rc == load_rc &&
                   plot_find_program("gnuplot", gnuplot, sizeof(gnuplot)) == 0;
    if (rc == load_rc && !have_gnuplot)
        log_note(
            "gnuplot was not found on PATH: wrote the .gp scripts and .dat "
            "data to %s; run `gnuplot %s/%s.gp` to draw a chart",
            o->out_dir, o->out_dir, charts[0]->name);
    if (have_gnuplot &&
        draw(gnuplot, o->out_dir, charts, n_charts, o->svg, o->html))
        rc = 1;
    html_failed =
        o->html && report(o, mode, &d, charts, n_charts, have_gnuplot);
    if (html_failed)
        rc = 1;
    for (size_t i = 0; i < n_charts; i++)
        printf("%s/%s.%s\n", o->out_dir, charts[i]->name,
               have_gnuplot ? fmt : "gp");
    if (o->html && !html_failed) /* listed only when it was written */
        printf("%s/report.html\n", o->out_dir);
    if (fflush(stdout) != 0)
        rc = 1;
    plot_data_free(&d);
    return rc;
}

/* The shard check (shard_gate.h) of what is pooled: each file a side of
 * --compare, else all of them. A cut or missing shard is a warning on
 * stderr (the charts are drawn). Returns 0, or 1 refused (said). */
static int gate(const struct analyze_options *o, enum plot_mode mode)
{
    struct shard_gate g;
    if (mode != MODE_COMPARE)
        return shard_gate_check(o->traces, o->n_traces, o->merge_anyway, &g);
    for (size_t i = 0; i < o->n_traces; i++)
        if (shard_gate_check(&o->traces[i], 1, o->merge_anyway, &g))
            return 1;
    return 0;
}

int cmd_plot(int argc, char **argv)
{
    struct analyze_options o;
    enum plot_mode mode = MODE_CHARTS;
    int rc = analyze_options_parse(argc, argv,
                                   OPT_FORMAT | OPT_IMAGE_FORMAT | OPT_OUT |
                                       OPT_HTML | OPT_TOKENS | OPT_CLASSIFY |
                                       OPT_BY | OPT_MODE | OPT_MERGE,
                                   0, "plot", &o);
    if (rc == 0 && o.compare && o.trend) {
        log_error("plot: --compare and --trend exclude each other");
        rc = 2;
    } else if (rc == 0 && o.compare) {
        mode = MODE_COMPARE;
        if (o.by)
            rc = analyze_options_error("plot",
                                       "--by does not apply to --compare");
    } else if (rc == 0 && o.trend) {
        mode = MODE_TREND; /* its --by is the period */
        o.period = o.by;
        o.by = NULL;
    }
    if (rc == 0 && o.help)
        plot_help();
    else if (rc == 0 && !o.out_dir) {
        log_error(
            "plot: -o DIR is required (try tokentrace-analyze plot --help)");
        rc = 2;
    } else if (rc == 0 && mode == MODE_COMPARE && o.n_traces < 2) {
        log_error("plot --compare needs a base trace and at least one more");
        rc = 2;
    } else if (rc == 0 && o.by && strcmp(o.by, "trace") != 0 &&
               strcmp(o.by, "model") != 0) {
        log_error("plot --by: '%s' is not trace or model", o.by);
        rc = 2;
    } else if (rc == 0 && o.period && strcmp(o.period, "week") != 0 &&
               strcmp(o.period, "day") != 0) {
        log_error("plot --trend --by: '%s' is not week or day", o.period);
        rc = 2;
    } else if (rc == 0) {
        /* --compare: each file is a side, as in `compare a a` */
        if (mode == MODE_COMPARE)
            o.load.keep_repeated = true;
        rc = gate(&o, mode);
        if (rc == 0)
            rc = run(&o, mode);
    }
    free(o.traces);
    return rc;
}
