/* plot_chart_fit: latency-vs-tokens (scatter with the least-squares line
 * per model) and itl (histogram of inter-token gaps, log time axis). */
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

/* True when request r of model `model` can be a scatter point. */
static bool scatter_point(const struct plot_req *r, size_t model)
{
    return r->model == model && r->ok && isfinite(r->out_tokens) &&
           isfinite(r->latency_ms);
}

/* Least squares over every request of the model (centered sums, so large
 * latencies lose no precision). */
static struct fit fit_model(const struct plot_data *d, size_t model)
{
    struct fit f = {0};
    double mx = 0, my = 0, sxx = 0, sxy = 0;
    for (size_t i = 0; i < d->n_reqs; i++) {
        const struct plot_req *r = &d->reqs[i];
        if (!scatter_point(r, model))
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

/* latency-vs-tokens.dat: a point block per model (legend: the fit), then
 * a two-row line block per model that has a fit. */
static int write_latency_tokens(const struct plot_ctx *c, FILE *dat,
                                struct plot_out *out)
{
    const struct plot_data *d = c->d;
    struct plot_blocks bl = {0};
    struct fit *fits = calloc(d->models.n + 1, sizeof(*fits));
    int index = 0, *flt = calloc(d->models.n + 1, sizeof(int)),
        *fdt = calloc(d->models.n + 1, sizeof(int));
    size_t total = 0, stride, nfit = 0;
    char title[600];
    if (!fits || !flt || !fdt) {
        free(fits);
        free(flt);
        free(fdt);
        return -1;
    }
    plot_dat_block(dat, &index, NULL);
    fputs("\"latency against output tokens\" 0\n", dat);
    for (size_t m = 0; m < d->models.n; m++) {
        fits[m] = fit_model(d, m);
        total += fits[m].n;
    }
    stride = (total + SCATTER_MAX_POINTS - 1) / SCATTER_MAX_POINTS;
    if (stride == 0)
        stride = 1;
    for (size_t m = 0; m < d->models.n; m++) {
        size_t seen = 0;
        if (fits[m].n == 0)
            continue;
        if (fits[m].ok)
            snprintf(title, sizeof(title),
                     "%s: latency = %.4g ms + %.4g ms × tokens (n=%zu)",
                     d->models.v[m], fits[m].a, fits[m].b, fits[m].n);
        else
            snprintf(title, sizeof(title),
                     "%s (n=%zu; one token count: no fit)", d->models.v[m],
                     fits[m].n);
        plot_blocks_add(&bl, plot_model_lt(m), plot_model_dt(m), 7);
        plot_dat_block(dat, &index, title);
        for (size_t i = 0; i < d->n_reqs; i++) {
            const struct plot_req *r = &d->reqs[i];
            if (!scatter_point(r, m) || seen++ % stride != 0)
                continue;
            fprintf(dat, "%.6g ", r->out_tokens);
            plot_dat_num(dat, r->latency_ms);
            fputc('\n', dat);
        }
    }
    for (size_t m = 0; m < d->models.n; m++) {
        if (!fits[m].ok)
            continue;
        plot_dat_block(dat, &index, NULL);
        fprintf(dat, "%.6g %.7g\n%.6g %.7g\n", fits[m].xmin,
                fits[m].a + fits[m].b * fits[m].xmin, fits[m].xmax,
                fits[m].a + fits[m].b * fits[m].xmax);
        flt[nfit] = plot_model_lt(m);
        fdt[nfit++] = plot_model_dt(m);
    }
    plot_blocks_vars(&bl, &out->vars);
    plot_var_int(&out->vars, "nfit", (long long)nfit);
    plot_var_array(&out->vars, "flt", flt, nfit);
    plot_var_array(&out->vars, "fdt", fdt, nfit);
    plot_var_int(&out->vars, "scatter_stride", (long long)stride);
    plot_blocks_free(&bl);
    free(fits);
    free(flt);
    free(fdt);
    return bl.failed ? -1 : 0;
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
    "Latency against output tokens (Latency = TTFT + TPOT x n)",
    write_latency_tokens};
const struct plot_chart plot_chart_itl = {
    "itl", "Inter-token latency histogram", write_itl};
