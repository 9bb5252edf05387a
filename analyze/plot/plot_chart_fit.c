/* plot_chart_fit: latency-vs-tokens (scatter with the least-squares line
 * per model, one panel per prompt class) and itl (histogram of inter-token
 * gaps, log time axis). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot_chart.h"
#include "plot_escape.h"

/* Most points drawn in the scatter, over all models (a stride sample). */
#define SCATTER_MAX_POINTS 20000
/* Most histogram bins; fewer per decade when the gaps span many. */
#define ITL_MAX_BINS 120

struct fit {
    size_t n;
    double a, b;       /* latency = a + b * tokens */
    double xmin, xmax; /* token counts seen */
    bool ok;           /* two distinct token counts at least */
};

/* True when request r of model `model` and class `cls` can be a scatter
 * point. */
static bool scatter_point(const struct plot_req *r, size_t model, size_t cls)
{
    return r->model == model && r->cls == cls && r->ok &&
           isfinite(r->out_tokens) && isfinite(r->latency_ms);
}

/* Least squares over every request of the model and class (centered
 * sums, so large latencies lose no precision). */
static struct fit fit_model(const struct plot_data *d, size_t model, size_t cls)
{
    struct fit f = {0};
    double mx = 0, my = 0, sxx = 0, sxy = 0;
    for (size_t i = 0; i < d->n_reqs; i++) {
        const struct plot_req *r = &d->reqs[i];
        if (!scatter_point(r, model, cls))
            continue;
        if (f.n == 0 || r->out_tokens < f.xmin)
            f.xmin = r->out_tokens;
        if (f.n == 0 || r->out_tokens > f.xmax)
            f.xmax = r->out_tokens;
        f.n++;
        /* Welford-style running means and co-moments. */
        double dx = r->out_tokens - mx;
        mx += dx / (double)f.n;
        my += (r->latency_ms - my) / (double)f.n;
        sxx += dx * (r->out_tokens - mx);
        sxy += dx * (r->latency_ms - my);
    }
    if (f.n >= 2 && f.xmax > f.xmin && sxx > 0) {
        f.b = sxy / sxx;
        f.a = my - f.b * mx;
        f.ok = true;
    }
    return f;
}

/* The point block of model m in class k's panel (its legend: the fit);
 * raises *xmax and *ymax to the points drawn. */
static void scatter_block(const struct plot_data *d, size_t m, size_t k,
                          const struct fit *f, size_t stride, FILE *dat,
                          int *index, double *xmax, double *ymax)
{
    char title[600];
    size_t seen = 0;
    if (f->ok)
        snprintf(title, sizeof(title),
                 "%s: latency = %.4g ms + %.4g ms × tokens (n=%zu)",
                 d->models.v[m], f->a, f->b, f->n);
    else
        snprintf(title, sizeof(title), "%s (n=%zu; one token count: no fit)",
                 d->models.v[m], f->n);
    plot_dat_block(dat, index, title);
    for (size_t i = 0; i < d->n_reqs; i++) {
        const struct plot_req *r = &d->reqs[i];
        if (!scatter_point(r, m, k))
            continue;
        if (r->out_tokens > *xmax)
            *xmax = r->out_tokens;
        if (r->latency_ms > *ymax)
            *ymax = r->latency_ms;
        if (seen++ % stride != 0)
            continue;
        fprintf(dat, "%.6g ", r->out_tokens);
        plot_dat_num(dat, r->latency_ms);
        fputc('\n', dat);
    }
}

/* latency-vs-tokens.dat: the class names (panel titles), a point block
 * per model in each class's panel (legend: that model x class's fit),
 * then a two-row line block per fit, panel by panel (panel c's are fits
 * ffirst[c]..ffirst[c]+fcount[c]-1, drawn in flt/fdt). One panel per class, all
 * on the same axes: a model's classes are never fitted together (the intercept
 * of a pooled fit is no class's TTFT). */
static int write_latency_tokens(const struct plot_ctx *c, FILE *dat,
                                struct plot_out *out)
{
    const struct plot_data *d = c->d;
    struct plot_blocks bl = {0};
    size_t nm = d->models.n, ncls = d->classes.n, nf = nm * ncls + 1;
    struct fit *fits = calloc(nf, sizeof(*fits));
    int index = 0, *flt = calloc(nf, sizeof(int)),
        *fdt = calloc(nf, sizeof(int)), *ffirst = calloc(ncls + 1, sizeof(int)),
        *fcount = calloc(ncls + 1, sizeof(int));
    size_t total = 0, stride, nfit = 0, cols, rows;
    double xmax = 0, ymax = 0;
    int rc = 0;
    if (!fits || !flt || !fdt || !ffirst || !fcount) {
        rc = -1;
        goto out;
    }
    plot_dat_block(dat, &index, NULL);
    for (size_t k = 0; k < ncls; k++) {
        plot_dat_string(dat, d->classes.v[k]);
        fputc('\n', dat);
        for (size_t m = 0; m < nm; m++) {
            fits[k * nm + m] = fit_model(d, m, k);
            total += fits[k * nm + m].n;
        }
    }
    stride = (total + SCATTER_MAX_POINTS - 1) / SCATTER_MAX_POINTS;
    if (stride == 0)
        stride = 1;
    for (size_t k = 0; k < ncls; k++) {
        plot_blocks_panel(&bl);
        for (size_t m = 0; m < nm; m++) {
            const struct fit *f = &fits[k * nm + m];
            if (f->n == 0)
                continue;
            plot_blocks_add(&bl, plot_model_lt(m), plot_model_dt(m), 7);
            scatter_block(d, m, k, f, stride, dat, &index, &xmax, &ymax);
        }
    }
    for (size_t k = 0; k < ncls; k++) {
        ffirst[k] = (int)nfit + 1;
        for (size_t m = 0; m < nm; m++) {
            const struct fit *f = &fits[k * nm + m];
            if (!f->ok)
                continue;
            plot_dat_block(dat, &index, NULL);
            fprintf(dat, "%.6g %.7g\n%.6g %.7g\n", f->xmin,
                    f->a + f->b * f->xmin, f->xmax, f->a + f->b * f->xmax);
            flt[nfit] = plot_model_lt(m);
            fdt[nfit++] = plot_model_dt(m);
            fcount[k]++;
        }
    }
    cols = bl.n_panels <= 2 ? bl.n_panels : (bl.n_panels <= 4 ? 2 : 3);
    cols = cols ? cols : 1;
    rows = (bl.n_panels + cols - 1) / cols;
    plot_blocks_vars(&bl, &out->vars);
    plot_var_int(&out->vars, "nfit", (long long)nfit);
    plot_var_array(&out->vars, "flt", flt, nfit);
    plot_var_array(&out->vars, "fdt", fdt, nfit);
    plot_var_array(&out->vars, "ffirst", ffirst, ncls);
    plot_var_array(&out->vars, "fcount", fcount, ncls);
    plot_var_int(&out->vars, "scatter_stride", (long long)stride);
    plot_var_int(&out->vars, "rows", (long long)(rows ? rows : 1));
    plot_var_int(&out->vars, "cols", (long long)cols);
    plot_var_num(&out->vars, "xmax_all", xmax > 0 ? xmax * 1.05 : 1);
    plot_var_num(&out->vars, "ymax_all", ymax > 0 ? ymax * 1.05 : 1);
    out->width = cols == 1 ? 1000 : (int)(100 + 700 * cols);
    out->height = rows <= 1 ? 650 : (int)(80 + 520 * rows);
out:
    plot_blocks_free(&bl);
    free(fits);
    free(flt);
    free(fdt);
    free(ffirst);
    free(fcount);
    return rc || bl.failed ? -1 : 0;
}

/* Gathers every ITL of a model (all its classes) into v, summarized and
 * sorted. Returns false when out of memory. */
static bool model_gaps(const struct plot_data *d, size_t model,
                       struct stats_vec *v, struct stats_summary *s)
{
    for (size_t i = 0; i < d->set.n_groups; i++) {
        const struct group *g = d->set.groups[i];
        if (g->n_keys < 1 || strcmp(g->keys[0], d->models.v[model]) != 0)
            continue;
        for (size_t k = 0; k < g->sum[M_ITL].n; k++)
            if (stats_vec_push(v, g->v[M_ITL].v[k]) != STATS_OK)
                return false;
    }
    stats_summarize(v->v, v->n, s);
    return true;
}

/* itl.dat: one block of histogram steps per model, on common bins. */
static int write_itl(const struct plot_ctx *c, FILE *dat, struct plot_out *out)
{
    const struct plot_data *d = c->d;
    struct plot_blocks bl = {0};
    double lo = INFINITY, hi = 0;
    int index = 0, rc = 0;
    size_t nbins, per_decade;
    uint64_t *count = NULL;
    char title[600];

    plot_dat_block(dat, &index, NULL);
    fputs("\"inter-token gaps\" 0\n", dat);
    /* The axis: whole decades around the smallest positive and the largest gap.
     */
    for (size_t i = 0; i < d->set.n_groups; i++) {
        const struct group *g = d->set.groups[i];
        for (size_t k = 0; k < g->sum[M_ITL].n; k++) {
            double x = g->v[M_ITL].v[k];
            if (x > 0 && x < lo)
                lo = x;
            if (x > hi)
                hi = x;
        }
    }
    if (hi > 0) {
        double decades;
        lo = pow(10, floor(log10(lo)));
        hi = pow(10, ceil(log10(hi)));
        if (hi <= lo)
            hi = lo * 10;
        decades = round(log10(hi / lo));
        per_decade = (size_t)(ITL_MAX_BINS / decades);
        per_decade = per_decade > 20 ? 20 : (per_decade < 2 ? 2 : per_decade);
        nbins = (size_t)decades * per_decade;
        count = calloc(nbins, sizeof(*count));
        if (!count)
            return -1;
        for (size_t m = 0; m < d->models.n && rc == 0; m++) {
            struct stats_vec v;
            struct stats_summary s;
            size_t first = nbins, last = 0;
            stats_vec_init(&v, 0);
            if (!model_gaps(d, m, &v, &s)) {
                /* s is not filled in: stop before reading it */
                stats_vec_free(&v);
                rc = -1;
                break;
            }
            memset(count, 0, nbins * sizeof(*count));
            for (size_t k = 0; k < s.n; k++) {
                double pos =
                    v.v[k] <= lo ? 0 : log10(v.v[k] / lo) * (double)per_decade;
                size_t b = pos >= (double)nbins ? nbins - 1 : (size_t)pos;
                count[b]++;
                first = b < first ? b : first;
                last = b > last ? b : last;
            }
            if (s.n > 0) {
                snprintf(title, sizeof(title),
                         "%s: p50 %.4g, p99 %.4g ms (%zu gaps)", d->models.v[m],
                         s.p50, s.p99, s.n);
                plot_blocks_add(&bl, plot_model_lt(m), plot_model_dt(m), 7);
                plot_dat_block(dat, &index, title);
                fprintf(dat, "%.6g 0\n",
                        lo * pow(10, (double)first / (double)per_decade));
                for (size_t b = first; b <= last; b++)
                    fprintf(dat, "%.6g %.6g\n",
                            lo * pow(10, (double)b / (double)per_decade),
                            100.0 * (double)count[b] / (double)s.n);
                fprintf(dat, "%.6g 0\n",
                        lo * pow(10, (double)(last + 1) / (double)per_decade));
            }
            stats_vec_free(&v);
        }
    }
    plot_blocks_vars(&bl, &out->vars);
    plot_blocks_free(&bl);
    free(count);
    return rc || bl.failed ? -1 : 0;
}

const struct plot_chart plot_chart_latency_tokens = {
    "latency-vs-tokens",
    "Latency against output tokens per prompt class (Latency = TTFT + "
    "TPOT x n)",
    write_latency_tokens};
const struct plot_chart plot_chart_itl = {
    "itl", "Inter-token latency histogram", write_itl};
