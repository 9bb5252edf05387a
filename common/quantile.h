/* quantile: the one percentile rule of every program (Hyndman-Fan type 7,
 * numpy's default "linear": interpolation between the closest ranks) for
 * doubles and int64, and the one ascending order of each for qsort. */
#ifndef TT_COMMON_QUANTILE_H
#define TT_COMMON_QUANTILE_H

#include <stddef.h>
#include <stdint.h>

/* qsort comparator of doubles, ascending (no NaN: NaN compares equal to
 * everything). */
int quantile_cmp_double(const void *a, const void *b);

/* qsort comparator of int64_t, ascending. */
int quantile_cmp_i64(const void *a, const void *b);

/* The p-th percentile (0 <= p <= 100) of n ascending values:
 * k = p / 100 * (n - 1), v[floor k] interpolated towards v[floor k + 1] by
 * frac(k), the same bits as numpy.percentile. NAN when n is 0; p is
 * clamped to [0, 100] (a NaN p counts as 0). */
double quantile_sorted(const double *sorted, size_t n, double p);

/* The same percentile of n ascending values that at(ctx, i) reads, for
 * stores that are not an array (a histogram's ranks); at is called for at
 * most two ranks. NAN when n is 0. */
double quantile_at(size_t n, double p, double (*at)(const void *ctx, size_t i),
                   const void *ctx);

/* The same percentile of n > 0 ascending int64 values, the interpolated
 * part rounded to the nearest integer (halves up); exact for any span. */
int64_t quantile_sorted_i64(const int64_t *sorted, size_t n, double p);

#endif
