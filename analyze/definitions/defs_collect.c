/* defs_collect: every tool's values over the requests of a run, and the
 * percentiles each tool would print from them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "definitions.h"

/* GuideLLM's percentiles: the values become a PDF over their distinct
 * values (each value's share of the count), its running sum the CDF, and
 * the p-th percentile the first value whose CDF reaches p (numpy
 * searchsorted, side "left"), summed in the same order as it does. The
 * mean is the PDF's weighted sum. v is sorted, n > 0, no NaN. Not the
 * house's type 7 on purpose: `summary --as guidellm` reproduces GuideLLM's
 * numbers, so its own method stays (the other tools use numpy's default,
 * which is common/quantile's type 7). */
static void inverted_cdf(const double *v, size_t n, struct defs_summary *out)
{
    static const double ps[3] = {0.5, 0.9, 0.99};
    double *res[3] = {&out->p50, &out->p90, &out->p99};
    double cdf = 0, mean = 0;
    int k = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        double prob;
        while (j < n && v[j] == v[i])
            j++;
        prob = (double)(j - i) / (double)n;
        cdf += prob;
        mean += v[i] * prob;
        while (k < 3 && cdf >= ps[k])
            *res[k++] = v[i];
        i = j;
    }
    while (k < 3) /* a CDF that rounding kept below p: the largest value */
        *res[k++] = v[n - 1];
    out->mean = mean;
}

void defs_summarize(double *v, size_t n, enum defs_percentile method,
                    struct defs_summary *out)
{
    size_t m = 0;
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i]))
            v[m++] = v[i];
    out->n = m;
    out->mean = out->p50 = out->p90 = out->p99 = NAN;
    if (m == 0)
        return;
    qsort(v, m, sizeof(*v), quantile_cmp_double);
    if (method == DEFS_PCT_INVERTED_CDF) {
        inverted_cdf(v, m, out);
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
        for (int m = 0; m < DEFS_N_METRICS; m++)
            stats_vec_init(&c->v[t][m], 0);
}

int defs_collect_add(struct defs_collect *c, const struct defs_facts *f)
{
    int first_err = 0;
    c->requests++;
    note_shape(c, f);
    for (int t = 0; t < DEFS_N_TOOLS; t++) {
        const struct defs_tool_info *info = defs_tool((enum defs_tool)t);
        struct defs_result r;
        int rc = defs_compute((enum defs_tool)t, f, &r,
                              info->itl_pooled ? &c->v[t][DEFS_ITL] : NULL);
        if (strcmp(r.token_source, "usage") != 0)
            c->tokens_not_usage[t]++;
        for (int m = 0; m < DEFS_N_METRICS; m++) {
            if (m == DEFS_ITL && info->itl_pooled)
                continue;
            if (!rc && !isnan(r.ms[m]))
                rc = stats_vec_push(&c->v[t][m], r.ms[m]);
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
    defs_summarize(c->v[t][m].v, c->v[t][m].n, defs_tool(t)->percentile, out);
}

void defs_collect_free(struct defs_collect *c)
{
    if (!c)
        return;
    for (int t = 0; t < DEFS_N_TOOLS; t++)
        for (int m = 0; m < DEFS_N_METRICS; m++)
            stats_vec_free(&c->v[t][m]);
    memset(c, 0, sizeof(*c));
}
