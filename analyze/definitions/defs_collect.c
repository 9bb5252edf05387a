/* defs_collect: every tool's values over the requests of a run, and the
 * percentiles each tool would print from them. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "definitions.h"

/* GuideLLM's percentiles (Percentiles.from_pdf over
 * DistributionSummary.from_values): each distinct value's weight (summed
 * over its copies; 1 each unless the metric is token-weighted) divided by
 * the total weight is its probability, their running sum the CDF, and the
 * p-th percentile the first value whose CDF reaches p (numpy searchsorted,
 * side "left"), summed in the same order as it does. Values of weight 0
 * are dropped; a total weight of ~0 falls back to 1 each, as it does. The
 * mean is the PDF's weighted sum. v is sorted with w (NULL: 1 each), n > 0,
 * no NaN. Not the house's type 7 on purpose: `summary --as guidellm`
 * reproduces GuideLLM's numbers, so its own method stays (the other tools
 * use numpy's default, which is common/quantile's type 7). */
static void inverted_cdf(const double *v, const double *w, size_t n,
                         struct defs_summary *out)
{
    static const double ps[3] = {0.5, 0.9, 0.99};
    double *res[3] = {&out->p50, &out->p90, &out->p99};
    double cdf = 0, mean = 0, total = 0;
    bool uniform;
    int k = 0;
    for (size_t i = 0; i < n; i++)
        total += w ? w[i] : 1;
    uniform = total <= 1e-6;
    if (uniform)
        total = (double)n;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        double weight = 0, prob;
        while (j < n && v[j] == v[i]) {
            weight += uniform || !w ? 1 : w[j];
            j++;
        }
        i = j;
        if (weight <= 0)
            continue;
        prob = weight / total;
        cdf += prob;
        mean += v[j - 1] * prob;
        while (k < 3 && cdf >= ps[k])
            *res[k++] = v[j - 1];
    }
    while (k < 3) /* a CDF that rounding kept below p: the largest value */
        *res[k++] = v[n - 1];
    out->mean = mean;
}

/* A value and its weight, sorted together. */
struct vw {
    double v, w;
};

static int vw_cmp(const void *a, const void *b)
{
    double x = ((const struct vw *)a)->v, y = ((const struct vw *)b)->v;
    return x < y ? -1 : x > y;
}

void defs_summarize(double *v, double *w, size_t n, enum defs_percentile method,
                    struct defs_summary *out)
{
    size_t m = 0;
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i])) {
            if (w)
                w[m] = w[i];
            v[m++] = v[i];
        }
    out->n = m;
    out->mean = out->p50 = out->p90 = out->p99 = NAN;
    if (m == 0)
        return;
    if (method == DEFS_PCT_INVERTED_CDF && w) {
        struct vw *p = malloc(m * sizeof(*p));
        if (p) {
            for (size_t i = 0; i < m; i++) {
                p[i].v = v[i];
                p[i].w = w[i];
            }
            qsort(p, m, sizeof(*p), vw_cmp);
            for (size_t i = 0; i < m; i++) {
                v[i] = p[i].v;
                w[i] = p[i].w;
            }
            free(p);
            inverted_cdf(v, w, m, out);
            return;
        }
        w = NULL; /* no memory: unweighted, and the caller's lost says so */
    }
    qsort(v, m, sizeof(*v), quantile_cmp_double);
    if (method == DEFS_PCT_INVERTED_CDF) {
        inverted_cdf(v, NULL, m, out);
        return;
    }
    for (size_t i = 0; i < m; i++)
        sum += v[i];
    out->mean = sum / (double)m;
    out->p50 = quantile_sorted(v, m, 50);
    out->p90 = quantile_sorted(v, m, 90);
    out->p99 = quantile_sorted(v, m, 99);
}

/* The shape of the request that explains most differences. */
static void note_shape(struct defs_collect *c, const struct defs_facts *f)
{
    int64_t first_text = f->n_tokens ? f->tokens[0].t_ns : -1;
    if (f->n_bare > 0 && (first_text < 0 || f->bare_ns[0] < first_text))
        c->role_first++;
    if (f->n_tokens && (f->tokens[0].flags & STREAM_TOK_REASONING))
        c->reasoning_first++;
    if (f->usage_output_tokens < 0)
        c->no_usage++;
    else if ((uint64_t)f->usage_output_tokens > f->n_tokens)
        c->packed++;
}

void defs_collect_init(struct defs_collect *c)
{
    memset(c, 0, sizeof(*c));
    for (int t = 0; t < DEFS_N_TOOLS; t++)
        for (int m = 0; m < DEFS_N_METRICS; m++) {
            stats_vec_init(&c->v[t][m], 0);
            stats_vec_init(&c->w[t][m], 0);
        }
}

int defs_collect_add(struct defs_collect *c, const struct defs_facts *f)
{
    int first_err = 0;
    c->requests++;
    c->apis |= 1u << (unsigned)f->api;
    note_shape(c, f);
    for (int t = 0; t < DEFS_N_TOOLS; t++) {
        const struct defs_tool_info *info = defs_tool((enum defs_tool)t);
        struct defs_result r;
        int rc = defs_compute((enum defs_tool)t, f, &r,
                              info->itl_pooled ? &c->v[t][DEFS_ITL] : NULL);
        if (r.cannot_parse) {
            c->cannot_parse[t]++;
            continue;
        }
        c->would_fail[t] += r.would_fail;
        if (strcmp(r.token_source, "usage") != 0)
            c->tokens_not_usage[t]++;
        for (int m = 0; m < DEFS_N_METRICS; m++) {
            if (m == DEFS_ITL && info->itl_pooled)
                continue;
            if (!rc && !isnan(r.ms[m]))
                rc = stats_vec_push(&c->v[t][m], r.ms[m]);
            if (!rc && !isnan(r.ms[m]))
                rc = stats_vec_push(&c->w[t][m], r.weight[m]);
        }
        if (rc) {
            c->lost++;
            if (!first_err)
                first_err = rc;
        }
    }
    return first_err;
}

void defs_collect_summary(struct defs_collect *c, enum defs_tool t,
                          enum defs_metric m, struct defs_summary *out)
{
    /* pooled ITL gaps have no weights (w is empty there) */
    defs_summarize(c->v[t][m].v,
                   c->w[t][m].n == c->v[t][m].n ? c->w[t][m].v : NULL,
                   c->v[t][m].n, defs_tool(t)->percentile, out);
}

void defs_collect_free(struct defs_collect *c)
{
    if (!c)
        return;
    for (int t = 0; t < DEFS_N_TOOLS; t++)
        for (int m = 0; m < DEFS_N_METRICS; m++) {
            stats_vec_free(&c->v[t][m]);
            stats_vec_free(&c->w[t][m]);
        }
    memset(c, 0, sizeof(*c));
}
