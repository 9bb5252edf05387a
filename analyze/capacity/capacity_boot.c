/* capacity_boot: the knee (the heaviest load meeting the SLO, every
 * lighter stage meeting it too) and its percentile-bootstrap interval
 * from resampling each stage's requests. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capacity.h"

/* Valid stages with a known load, lightest first: their indices in
 * order[] (the caller frees it). Returns how many, or -1 out of memory. */
static long valid_by_load(const struct cap_set *s, size_t **order)
{
    size_t i, j, n = 0;
    *order = malloc((s->n_stages ? s->n_stages : 1) * sizeof **order);
    if (!*order)
        return -1;
    for (i = 0; i < s->n_stages; i++) {
        if (!s->stages[i].valid || isnan(s->stages[i].load))
            continue;
        /* insertion by load: stages of several traces interleave */
        for (j = n;
             j > 0 && s->stages[(*order)[j - 1]].load > s->stages[i].load; j--)
            (*order)[j] = (*order)[j - 1];
        (*order)[j] = i;
        n++;
    }
    return (long)n;
}

/* The knee among order[0..n) given each stage's pass: the last of the
 * unbroken run of passes from the lightest; -1 when the lightest fails.
 * *all: no stage failed. */
static long knee_of(const size_t *order, size_t n, const bool *pass, bool *all)
{
    long k = -1;
    size_t j;
    *all = true;
    for (j = 0; j < n; j++) {
        if (!pass[order[j]]) {
            *all = false;
            break;
        }
        k = (long)j;
    }
    return k;
}

/* The rows a stage's numbers use, as indices into s->rows (caller frees);
 * their count in *n. NULL out of memory. */
static size_t *used_rows(const struct cap_set *s, const struct cap_stage *st,
                         size_t *n)
{
    size_t *v = malloc((st->n ? st->n : 1) * sizeof *v), i;
    *n = 0;
    if (!v)
        return NULL;
    for (i = 0; i < st->n; i++)
        if (s->opt.include_transient || !s->rows[st->first + i].transient)
            v[(*n)++] = st->first + i;
    return v;
}

/* B resamples: each valid stage's used requests drawn with replacement;
 * the knee's load of each resample (0 below the lightest stage) and the
 * observed knee stage's attainment, as 2.5% and 97.5% percentiles. */
static int bootstrap(struct cap_set *s, const size_t *order, size_t n,
                     long knee)
{
    size_t B = s->opt.resamples, b, j;
    double *loads = malloc((B ? B : 1) * sizeof *loads);
    double *att = malloc((B ? B : 1) * sizeof *att);
    bool *pass = calloc(s->n_stages ? s->n_stages : 1, sizeof *pass);
    size_t **rows = calloc(n ? n : 1, sizeof *rows);
    size_t *counts = calloc(n ? n : 1, sizeof *counts);
    struct rng_xoshiro rng;
    int rc = STATS_E_NOMEM;
    if (!loads || !att || !pass || !rows || !counts)
        goto out;
    for (j = 0; j < n; j++)
        if (!(rows[j] = used_rows(s, &s->stages[order[j]], &counts[j])))
            goto out;
    rng_xoshiro_seed(&rng, s->opt.seed);
    for (b = 0; b < B; b++) {
        bool all;
        long k;
        for (j = 0; j < n; j++) {
            size_t met = 0, d;
            for (d = 0; d < counts[j]; d++)
                met += s->rows[rows[j][rng_xoshiro_below(&rng, counts[j])]].met;
            double a = counts[j] ? (double)met / (double)counts[j] : 0;
            pass[order[j]] = counts[j] && a >= s->opt.attain;
            if ((long)j == knee)
                att[b] = a;
        }
        k = knee_of(order, n, pass, &all);
        loads[b] = k < 0 ? 0 : s->stages[order[k]].load;
    }
    qsort(loads, B, sizeof *loads, quantile_cmp_double);
    qsort(att, B, sizeof *att, quantile_cmp_double);
    s->knee_lo = quantile_sorted(loads, B, 2.5);
    s->knee_hi = quantile_sorted(loads, B, 97.5);
    s->attain_lo = quantile_sorted(att, B, 2.5);
    s->attain_hi = quantile_sorted(att, B, 97.5);
    rc = STATS_OK;
out:
    for (j = 0; rows && j < n; j++)
        free(rows[j]);
    free(rows);
    free(counts);
    free(pass);
    free(att);
    free(loads);
    return rc;
}

int cap_set_knee(struct cap_set *s)
{
    size_t *order = NULL;
    long n = valid_by_load(s, &order), k;
    bool *pass, all;
    int rc = STATS_OK;
    s->knee = -1;
    s->all_pass = false;
    if (n < 0)
        return STATS_E_NOMEM;
    pass = calloc(s->n_stages ? s->n_stages : 1, sizeof *pass);
    if (!pass) {
        free(order);
        return STATS_E_NOMEM;
    }
    for (size_t i = 0; i < s->n_stages; i++)
        pass[i] = s->stages[i].pass;
    k = knee_of(order, (size_t)n, pass, &all);
    s->all_pass = n > 0 && all;
    if (k >= 0)
        s->knee = (int)order[k];
    if (k >= 0 && s->opt.resamples > 0)
        rc = bootstrap(s, order, (size_t)n, k);
    free(pass);
    free(order);
    return rc;
}
