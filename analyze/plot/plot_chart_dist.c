/* plot_chart_dist: the distribution charts: ttft-cdf (empirical CDF per
 * model, one panel per class) and tpot (box plot per model x class). */
#include <math.h>
#include <stdio.h>

#include "plot_chart.h"
#include "plot_escape.h"

/* Most points drawn per CDF line: evenly spaced quantiles beyond it. */
#define CDF_MAX_POINTS 2000
/* Most points drawn per TPOT box (a stride sample of the sorted values). */
#define BOX_MAX_POINTS 400

/* The sorted, non-NaN values of metric m in group g (n of them). */
static const double *sorted_values(const struct group *g, int m, size_t *n)
{
    *n = g ? g->sum[m].n : 0;
    return g ? g->v[m].v : NULL;
}

/* The model x class group of model m and class k; NULL when empty. */
static const struct group *group_of(const struct plot_data *d, size_t model,
                                    size_t cls)
{
    return plot_data_group(d, d->models.v[model], d->classes.v[cls]);
}

/* Writes one CDF line: every value when few, else quantiles. The line
 * starts at 0 at the smallest value (the empirical CDF is 0 below it), so
 * a group of 4 does not seem to begin at 25%; the quantile form starts at
 * q = 0 by itself. */
static void write_cdf_rows(FILE *dat, const double *v, size_t n)
{
    if (n <= CDF_MAX_POINTS) {
        if (n) {
            plot_dat_num(dat, v[0]);
            fprintf(dat, " 0\n");
        }
        for (size_t i = 0; i < n; i++) {
            plot_dat_num(dat, v[i]);
            fprintf(dat, " %.6g\n", (double)(i + 1) / (double)n);
        }
        return;
    }
    for (size_t j = 0; j < CDF_MAX_POINTS; j++) {
        double q = (double)j / (CDF_MAX_POINTS - 1);
        plot_dat_num(dat, quantile_sorted(v, n, 100 * q));
        fprintf(dat, " %.6g\n", q);
    }
}

/* ttft-cdf.dat: panel titles, then the CDF lines panel by panel, then
 * their p50/p99 markers in the same order. */
static int write_ttft_cdf(const struct plot_ctx *c, FILE *dat,
                          struct plot_out *out)
{
    const struct plot_data *d = c->d;
    struct plot_blocks bl = {0};
    int index = 0;
    size_t ncls = d->classes.n, cols, rows;
    char title[600];
    double xmax = 0; /* one TTFT axis for every class's panel */

    plot_dat_block(dat, &index, NULL);
    for (size_t k = 0; k < ncls; k++) {
        plot_dat_string(dat, d->classes.v[k]);
        fputs(" 0\n", dat);
    }
    if (ncls == 0)
        fputs("\"(no requests)\" 0\n", dat);
    /* Pass 1: the CDF lines, panel by panel. */
    for (size_t k = 0; k < ncls || (k == 0 && ncls == 0); k++) {
        plot_blocks_panel(&bl);
        for (size_t m = 0; k < ncls && m < d->models.n; m++) {
            size_t n;
            const struct group *g = group_of(d, m, k);
            const double *v = sorted_values(g, M_TTFT, &n);
            if (n == 0)
                continue;
            snprintf(title, sizeof(title), "%s: p50 %.4g, p99 %.4g ms (n=%zu)",
                     d->models.v[m], g->sum[M_TTFT].p50, g->sum[M_TTFT].p99, n);
            plot_blocks_add(&bl, plot_model_lt(m), plot_model_dt(m), 7);
            plot_dat_block(dat, &index, title);
            write_cdf_rows(dat, v, n);
            if (isfinite(v[n - 1]) && v[n - 1] > xmax)
                xmax = v[n - 1];
        }
    }
    /* Pass 2: the p50 and p99 markers of each line, in the same order. */
    for (size_t k = 0; k < ncls; k++)
        for (size_t m = 0; m < d->models.n; m++) {
            const struct group *g = group_of(d, m, k);
            if (!g || g->sum[M_TTFT].n == 0)
                continue;
            plot_dat_block(dat, &index, NULL);
            plot_dat_num(dat, g->sum[M_TTFT].p50);
            fputs(" 0.5 6\n", dat);
            plot_dat_num(dat, g->sum[M_TTFT].p99);
            fputs(" 0.99 9\n", dat);
        }
    /* Panels stacked (two columns from four classes on), wide enough for
     * long model names in the legend below each. */
    cols = bl.n_panels <= 3 ? 1 : 2;
    rows = (bl.n_panels + cols - 1) / cols;
    plot_blocks_vars(&bl, &out->vars);
    plot_var_int(&out->vars, "rows", (long long)rows);
    plot_var_int(&out->vars, "cols", (long long)cols);
    plot_var_num(&out->vars, "xmax_all", xmax > 0 ? xmax * 1.05 : 1);
    out->width = cols == 1 ? 1000 : 1600;
    out->height = rows == 1 ? 600 : (int)(60 + 460 * rows);
    plot_blocks_free(&bl);
    return bl.failed ? -1 : 0;
}

/* A deterministic jitter in [-0.22, 0.22] for the i-th point. */
static double jitter(size_t i)
{
    uint32_t h = (uint32_t)i * 2654435761u;
    h ^= h >> 15;
    return ((double)(h % 1000) / 999.0 - 0.5) * 0.44;
}

/* tpot.dat: class tic labels, one box block per model (a row per class),
 * then one point block per model. Boxes of a class sit side by side. */
static int write_tpot(const struct plot_ctx *c, FILE *dat, struct plot_out *out)
{
    const struct plot_data *d = c->d;
    struct plot_blocks bl = {0};
    int index = 0;
    size_t nm = d->models.n, ncls = d->classes.n;
    double slot = (double)nm + 1;

    plot_dat_block(dat, &index, NULL);
    for (size_t k = 0; k < ncls; k++) {
        fprintf(dat, "%.6g ", (double)k * slot + 1 + ((double)nm - 1) / 2);
        plot_dat_string(dat, d->classes.v[k]);
        fputc('\n', dat);
    }
    /* Boxes: one block per model that has TPOT anywhere. */
    for (size_t m = 0; m < nm; m++) {
        bool any = false;
        for (size_t k = 0; k < ncls; k++) {
            size_t n;
            const struct group *g = group_of(d, m, k);
            const double *v = sorted_values(g, M_TPOT, &n);
            if (n == 0)
                continue;
            if (!any) {
                plot_blocks_add(&bl, plot_model_lt(m), plot_model_dt(m), 7);
                plot_dat_block(dat, &index, d->models.v[m]);
                any = true;
            }
            fprintf(dat, "%.6g", (double)k * slot + 1 + (double)m);
            for (int p = 0; p < 5; p++) {
                static const double pct[5] = {1, 25, 50, 75, 99};
                fputc(' ', dat);
                plot_dat_num(dat, quantile_sorted(v, n, pct[p]));
            }
            fputc('\n', dat);
        }
    }
    /* Points: the same models in the same order, a sample per box. */
    for (size_t m = 0; m < nm; m++) {
        bool any = false;
        for (size_t k = 0; k < ncls; k++) {
            size_t n, stride;
            const double *v = sorted_values(group_of(d, m, k), M_TPOT, &n);
            if (n == 0)
                continue;
            if (!any)
                plot_dat_block(dat, &index, NULL);
            any = true;
            stride = (n + BOX_MAX_POINTS - 1) / BOX_MAX_POINTS;
            for (size_t i = 0; i < n; i += stride) {
                fprintf(dat, "%.4f ",
                        (double)k * slot + 1 + (double)m + jitter(i));
                plot_dat_num(dat, v[i]);
                fputc('\n', dat);
            }
        }
    }
    plot_blocks_vars(&bl, &out->vars);
    plot_var_int(&out->vars, "nticks", (long long)ncls);
    plot_var_num(&out->vars, "xmin", 0.4);
    plot_var_num(&out->vars, "xmax", ncls ? (double)ncls * slot - 0.4 : 1);
    plot_var_num(&out->vars, "boxw", 0.6);
    plot_blocks_free(&bl);
    return bl.failed ? -1 : 0;
}

const struct plot_chart plot_chart_ttft_cdf = {
    "ttft-cdf", "TTFT: empirical CDF per model and prompt class",
    write_ttft_cdf};
const struct plot_chart plot_chart_tpot = {
    "tpot", "TPOT distribution per model and prompt class", write_tpot};
