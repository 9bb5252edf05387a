/* plot_chart_cmp: charts across traces, from groups by trace x model x
 * class, a row of panels per prompt class: compare (p50/p99 bars per
 * trace, compare's verdicts) and trend (p50/p99 lines per model over the
 * weeks or days the traces were recorded). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "log.h"
#include "plot_chart.h"
#include "plot_escape.h"

static const int panel_metric[3] = {M_TTFT, M_TPOT, M_LATENCY};
#define N_PANELS 3

/* The trace number in a DIM_TRACE key ("3:file.ttrace"). */
static size_t key_trace(const char *key)
{
    char *end;
    unsigned long v = strtoul(key, &end, 10);
    return end != key && *end == ':' ? (size_t)v : (size_t)-1;
}

/* The group of trace t, model m and class k (groups by trace,model,class);
 * NULL if none. */
static const struct group *trace_group(const struct plot_data *d, size_t t,
                                       size_t m, size_t k)
{
    for (size_t i = 0; i < d->set.n_groups; i++) {
        const struct group *g = d->set.groups[i];
        if (g->n_keys >= 3 && key_trace(g->keys[0]) == t &&
            strcmp(g->keys[1], d->models.v[m]) == 0 &&
            strcmp(g->keys[2], d->classes.v[k]) == 0)
            return g;
    }
    return NULL;
}

/* Seed of the chart's bootstraps: compare's default (--seed 1). */
#define CMP_SEED 1
/* Colours of the verdict labels (0xRRGGBB). */
#define VERDICT_RED 0xcc0000L
#define VERDICT_GREEN 0x228833L
#define VERDICT_GREY 0x666666L

/* The 95% percentile-bootstrap interval of the median of v (sorted, n
 * values): the interval of median(v) - median({0}), which is the same
 * resampling. False when there is none (n is 0, or no memory). */
static bool median_ci(const double *v, size_t n, double *lo, double *hi)
{
    static const double zero = 0;
    struct stats_ci ci;
    if (stats_bootstrap_median_diff(&zero, 1, v, n, CMP_SEED, 0, COMPARE_LEVEL,
                                    &ci) != STATS_OK)
        return false;
    *lo = ci.lo;
    *hi = ci.hi;
    return true;
}

/* The verdict of new against base for one metric of one model x class,
 * compare's own (compare_samples_verdict on the same samples, so the chart
 * says what the table above it says), in the report table's words:
 * "slower +38%", "faster -12%", "no difference", "too few". Returns -1
 * out of memory, else 0. */
static int verdict_text(const struct group *base, const struct group *nw,
                        int metric, char *out, size_t size, long *colour)
{
    struct stats_ci ci;
    const struct stats_summary *a = &base->sum[metric], *b = &nw->sum[metric];
    enum compare_verdict v;
    bool has_ci;
    *colour = VERDICT_GREY;
    if (compare_samples_verdict(base->v[metric].v, a->n, nw->v[metric].v, b->n,
                                50, CMP_SEED, &ci, &has_ci, &v))
        return -1;
    if (v == VERDICT_TOO_FEW || v == VERDICT_NONE)
        snprintf(out, size, "%s", v == VERDICT_NONE ? "n/a" : "too few");
    else if (v == VERDICT_NOISE)
        snprintf(out, size, "no difference");
    else {
        *colour = ci.estimate > 0 ? VERDICT_RED : VERDICT_GREEN;
        if (a->p50 > 0)
            snprintf(out, size, "%s %+.0f%%",
                     ci.estimate > 0 ? "slower" : "faster",
                     ci.estimate / a->p50 * 100);
        else
            snprintf(out, size, "%s", ci.estimate > 0 ? "slower" : "faster");
    }
    return 0;
}

/* The grid of both charts: a row of panels per prompt class, a column per
 * metric (TTFT, TPOT, latency), every panel of a column on the same y
 * axis up to ymax_C (C = 1..3) times head; the panels' places as screen
 * fractions below a key of `legend` entries, the class names in .dat
 * index 0 after `skip` rows. */
static void grid_vars(const struct plot_data *d, const double *ymax,
                      double head, int skip, size_t legend,
                      struct plot_out *out)
{
    size_t rows = d->classes.n ? d->classes.n : 1;
    double key_h = 20.0 * (double)((legend + 3) / 4); /* 4 entries a row */
    int h = (int)(110 + key_h + 300 * (double)rows);
    char name[16];
    for (int c = 0; c < N_PANELS; c++) {
        snprintf(name, sizeof(name), "ymax_%d", c + 1);
        plot_var_num(&out->vars, name, ymax[c] > 0 ? ymax[c] * head : 1);
    }
    plot_var_int(&out->vars, "ncls", (long long)rows);
    plot_var_int(&out->vars, "class_row0", skip);
    plot_var_num(&out->vars, "grid_top", 1 - (55.0 + key_h) / h);
    plot_var_num(&out->vars, "row_h",
                 (1 - (55.0 + key_h) / h - 20.0 / h) / (double)rows);
    plot_var_num(&out->vars, "gap_top", 28.0 / h);
    plot_var_num(&out->vars, "gap_bottom", 55.0 / h);
    plot_var_num(&out->vars, "key_y", 1 - 38.0 / h);
    out->width = 1500;
    out->height = h;
}

/* Appends the class names to .dat index 0, a row `"class" NAME` each. */
static void class_rows(const struct plot_data *d, FILE *dat)
{
    for (size_t k = 0; k < d->classes.n; k++) {
        fputs("\"class\" ", dat);
        plot_dat_string(dat, d->classes.v[k]);
        fputc('\n', dat);
    }
}

/* A block's title row: the model (the legend's) and the class. */
static void block_title(const struct plot_data *d, FILE *dat, int *index,
                        size_t m, size_t k)
{
    plot_dat_block(dat, index, NULL);
    plot_dat_string(dat, d->models.v[m]);
    fputc(' ', dat);
    plot_dat_string(dat, d->classes.v[k]);
    fputc('\n', dat);
}

/* One row of compare.dat: x, p50, p99, the p50's CI and the verdict. */
static int compare_row(const struct plot_data *d, FILE *dat, size_t t, size_t m,
                       size_t k, int metric, double slot, double *ymax)
{
    const struct group *g = trace_group(d, t, m, k),
                       *base = trace_group(d, 0, m, k);
    double lo = NAN, hi = NAN;
    char verdict[64];
    long colour = VERDICT_GREY;
    int rc = 0;
    if (!median_ci(g->v[metric].v, g->sum[metric].n, &lo, &hi))
        lo = hi = g->sum[metric].p50;
    if (t == 0)
        snprintf(verdict, sizeof(verdict), "base");
    else if (!base || base->sum[metric].n == 0)
        snprintf(verdict, sizeof(verdict), "no base");
    else if (verdict_text(base, g, metric, verdict, sizeof(verdict), &colour))
        rc = -1;
    fprintf(dat, "%.6g ", (double)t * slot + 1 + (double)m);
    plot_dat_num(dat, g->sum[metric].p50);
    fputc(' ', dat);
    plot_dat_num(dat, g->sum[metric].p99);
    fputc(' ', dat);
    plot_dat_num(dat, lo);
    fputc(' ', dat);
    plot_dat_num(dat, hi);
    fputc(' ', dat);
    plot_dat_string(dat, verdict);
    fprintf(dat, " %ld\n", colour);
    if (isfinite(g->sum[metric].p99) && g->sum[metric].p99 > *ymax)
        *ymax = g->sum[metric].p99;
    if (isfinite(hi) && hi > *ymax)
        *ymax = hi;
    return rc;
}

/* compare.dat: trace tic labels and class names, then per panel (class x
 * TTFT, TPOT, latency) a block per model with a row per trace: x, p50,
 * p99, the p50's 95% bootstrap interval (lo, hi) and the verdict against
 * the base trace's same model and class ("base" on the base's own row). */
static int write_compare(const struct plot_ctx *c, FILE *dat,
                         struct plot_out *out)
{
    const struct plot_data *d = c->d;
    struct plot_blocks bl = {0};
    size_t nt = d->set.n_traces, nm = d->models.n;
    double slot = (double)nm + 1, ymax[N_PANELS] = {0};
    int index = 0;
    char name[600];

    plot_dat_block(dat, &index, NULL);
    for (size_t t = 0; t < nt; t++) {
        plot_data_trace_name(d, t, name, sizeof(name));
        fprintf(dat, "%.6g ", (double)t * slot + 1 + ((double)nm - 1) / 2);
        plot_dat_string(dat, name);
        fputc('\n', dat);
    }
    class_rows(d, dat);
    for (size_t k = 0; k < d->classes.n; k++)
        for (int p = 0; p < N_PANELS; p++) {
            int metric = panel_metric[p];
            plot_blocks_panel(&bl);
            for (size_t m = 0; m < nm; m++) {
                bool any = false;
                for (size_t t = 0; t < nt; t++) {
                    const struct group *g = trace_group(d, t, m, k);
                    if (!g || g->sum[metric].n == 0)
                        continue;
                    if (!any) {
                        plot_blocks_add(&bl, plot_model_lt(m), plot_model_dt(m),
                                        7);
                        block_title(d, dat, &index, m, k);
                        any = true;
                    }
                    if (compare_row(d, dat, t, m, k, metric, slot, &ymax[p]))
                        bl.failed = true;
                }
            }
        }
    plot_blocks_vars(&bl, &out->vars);
    plot_var_int(&out->vars, "nticks", (long long)nt);
    plot_var_num(&out->vars, "xmin", 0.4);
    plot_var_num(&out->vars, "xmax", nt ? (double)nt * slot - 0.4 : 1);
    plot_var_num(&out->vars, "boxw", 0.8);
    grid_vars(d, ymax, 1.6, (int)nt, nm, out);
    plot_blocks_free(&bl);
    return bl.failed ? -1 : 0;
}

/* Start (Unix seconds) of the UTC day or ISO week (from Monday) holding
 * the trace's start; false when the trace has no wall-clock time. */
static bool period_start(const struct trace_info *t, bool weekly, int64_t *out)
{
    int64_t s, day;
    if (t->real_zero_ns <= 0)
        return false;
    s = t->real_zero_ns / 1000000000;
    day = s / 86400;
    if (weekly)
        day -= ((day + 3) % 7 + 7) % 7; /* 1970-01-01 was a Thursday */
    *out = day * 86400;
    return true;
}

/* p50 and p99 of metric over every request of model m and class k in
 * traces that started in period p; false when there are none (or no
 * memory). */
static bool period_stats(const struct plot_data *d, const int64_t *trace_period,
                         int64_t p, size_t m, size_t k, int metric, double *p50,
                         double *p99)
{
    struct stats_vec v;
    struct stats_summary s;
    stats_vec_init(&v, 0);
    for (size_t t = 0; t < d->set.n_traces; t++) {
        const struct group *g =
            trace_period[t] == p ? trace_group(d, t, m, k) : NULL;
        for (size_t i = 0; g && i < g->sum[metric].n; i++)
            if (stats_vec_push(&v, g->v[metric].v[i]) != STATS_OK) {
                stats_vec_free(&v);
                return false;
            }
    }
    stats_summarize(v.v, v.n, &s);
    stats_vec_free(&v);
    *p50 = s.p50;
    *p99 = s.p99;
    return s.n > 0;
}

/* Block q (0: p50, 1: p99) of model m, class k in panel p of trend.dat,
 * when the model has requests of the class in some period; raises *ymax. */
static void trend_block(const struct plot_data *d, const int64_t *tp,
                        const int64_t *periods, size_t np, size_t m, size_t k,
                        int p, int q, FILE *dat, int *index,
                        struct plot_blocks *bl, double *ymax)
{
    bool any = false;
    char title[600];
    for (size_t i = 0; i < np; i++) {
        double p50, p99, v;
        if (!period_stats(d, tp, periods[i], m, k, panel_metric[p], &p50, &p99))
            continue;
        if (!any) {
            snprintf(title, sizeof(title), "%s %s", d->models.v[m],
                     q ? "p99" : "p50");
            plot_blocks_add(bl, plot_model_lt(m), q ? 2 : 1, q ? 6 : 7);
            plot_dat_block(dat, index, NULL);
            plot_dat_string(dat, title);
            fputc(' ', dat);
            plot_dat_string(dat, d->classes.v[k]);
            fputc('\n', dat);
            any = true;
        }
        v = q ? p99 : p50;
        fprintf(dat, "%lld ", (long long)periods[i]);
        plot_dat_num(dat, v);
        fputc('\n', dat);
        if (isfinite(v) && v > *ymax)
            *ymax = v;
    }
}

/* trend.dat: the class names, then per panel (class x TTFT, TPOT,
 * latency), per model, a p50 and a p99 block with a row (period start,
 * value) per period. */
static int write_trend(const struct plot_ctx *c, FILE *dat,
                       struct plot_out *out)
{
    const struct plot_data *d = c->d;
    struct plot_blocks bl = {0};
    bool weekly = !c->period || strcmp(c->period, "day") != 0;
    size_t nt = d->set.n_traces, np = 0;
    int64_t *tp = malloc((nt + 1) * sizeof(*tp)),
            *periods = malloc((nt + 1) * sizeof(*periods));
    double len = weekly ? 7 * 86400.0 : 86400.0;
    int index = 0;
    double ymax[N_PANELS] = {0};
    if (!tp || !periods) {
        free(tp);
        free(periods);
        return -1;
    }
    for (size_t t = 0; t < nt; t++) {
        if (!period_start(d->set.traces[t], weekly, &tp[t])) {
            log_warn("%s: no wall-clock start time; left out of the trend",
                     d->set.traces[t]->file);
            tp[t] = INT64_MIN;
            continue;
        }
        periods[np++] = tp[t];
    }
    qsort(periods, np, sizeof(*periods), quantile_cmp_i64);
    {
        size_t u = 0; /* keep distinct periods */
        for (size_t i = 0; i < np; i++)
            if (u == 0 || periods[u - 1] != periods[i])
                periods[u++] = periods[i];
        np = u;
    }
    plot_dat_block(dat, &index, NULL);
    class_rows(d, dat);
    for (size_t k = 0; k < d->classes.n; k++)
        for (int p = 0; p < N_PANELS; p++) {
            plot_blocks_panel(&bl);
            for (size_t m = 0; m < d->models.n; m++)
                for (int q = 0; q < 2; q++)
                    trend_block(d, tp, periods, np, m, k, p, q, dat, &index,
                                &bl, &ymax[p]);
        }
    plot_blocks_vars(&bl, &out->vars);
    plot_var_num(&out->vars, "xmin", np ? (double)periods[0] - len / 2 : 0);
    plot_var_num(&out->vars, "xmax",
                 np ? (double)periods[np - 1] + len / 2 : len);
    plot_var_num(&out->vars, "xtic_start", np ? (double)periods[0] : 0);
    plot_var_num(&out->vars, "xtic_step",
                 len * ceil((double)(np ? np : 1) / 12));
    plot_var_str(&out->vars, "period_label",
                 weekly ? "week (UTC - weeks start on Monday)" : "day (UTC)");
    plot_var_str(&out->vars, "trend_title",
                 weekly ? "Trend per week: p50 solid / p99 dashed"
                        : "Trend per day: p50 solid / p99 dashed");
    grid_vars(d, ymax, 1.08, 0, 2 * d->models.n, out);
    plot_blocks_free(&bl);
    free(tp);
    free(periods);
    return bl.failed ? -1 : 0;
}

const struct plot_chart plot_chart_compare = {
    "compare", "Compare traces: p50 and p99 per model and prompt class",
    write_compare};
const struct plot_chart plot_chart_trend = {
    "trend", "Trend: p50 and p99 per model and prompt class over time",
    write_trend};
