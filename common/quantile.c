/* quantile: type-7 percentiles of sorted doubles and int64, and their
 * comparators. */
#include "quantile.h"

#include <math.h>

int quantile_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int quantile_cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The rank of the p-th percentile of n > 0 values: *lo = floor k and its
 * fraction, k as numpy computes it (p divided by 100 first: the same order
 * gives the same bits). Returns 0 when v[*lo + 1] exists, else -1 (the
 * answer is the last value). */
static int quantile_rank(size_t n, double p, size_t *lo, double *frac)
{
    double k;
    if (!(p > 0)) /* also NaN p */
        p = 0;
    if (p > 100)
        p = 100;
    k = (p / 100.0) * (double)(n - 1);
    *lo = (size_t)floor(k);
    if (*lo >= n - 1)
        return -1;
    *frac = k - (double)*lo;
    return 0;
}

/* numpy's _lerp: a + (b - a) * t, computed from the nearer end so that
 * t = 1 gives b exactly (matches numpy bit for bit). */
static double quantile_lerp(double a, double b, double t)
{
    double d = b - a;
    return t >= 0.5 ? b - d * (1.0 - t) : a + d * t;
}

double quantile_at(size_t n, double p, double (*at)(const void *ctx, size_t i),
                   const void *ctx)
{
    size_t lo;
    double frac;
    if (n == 0)
        return NAN;
    if (quantile_rank(n, p, &lo, &frac) != 0)
        return at(ctx, n - 1);
    return quantile_lerp(at(ctx, lo), at(ctx, lo + 1), frac);
}

/* at() of an array of doubles. */
static double quantile_array_at(const void *ctx, size_t i)
{
    return ((const double *)ctx)[i];
}

double quantile_sorted(const double *sorted, size_t n, double p)
{
    return quantile_at(n, p, quantile_array_at, sorted);
}

int64_t quantile_sorted_i64(const int64_t *sorted, size_t n, double p)
{
    size_t lo;
    double frac;
    uint64_t span, step;
    if (quantile_rank(n, p, &lo, &frac) != 0)
        return sorted[n - 1];
    /* The gap of two ascending values always fits a uint64_t, and so does
     * the part of it added: no signed overflow for any span. */
    span = (uint64_t)sorted[lo + 1] - (uint64_t)sorted[lo];
    step = (uint64_t)floor(frac * (double)span + 0.5);
    if (step > span)
        step = span;
    return (int64_t)((uint64_t)sorted[lo] + step);
}
