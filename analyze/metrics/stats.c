/* stats: summaries (type-7 percentiles, common/quantile.h), a capped double
 * vector, seeded bootstrap. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "quantile.h"
#include "rng.h"

const char *stats_strerror(int err)
{
    switch (err) {
    case STATS_OK:
        return "success";
    case STATS_E_NOMEM:
        return "out of memory";
    case STATS_E_LIMIT:
        return "too many values (cap reached)";
    case STATS_E_EMPTY:
        return "no values";
    default:
        return "unknown stats error";
    }
}

/* Sorts v[0..n) by insertion: quick for the short runs introsort leaves. */
static void stats_insertion_sort(double *v, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        double x = v[i];
        size_t j = i;
        for (; j > 0 && x < v[j - 1]; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

/* Restores the max-heap property below root in v[0..n). */
static void stats_sift_down(double *v, size_t root, size_t n)
{
    double x = v[root];
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n)
            break;
        if (child + 1 < n && v[child] < v[child + 1])
            child++;
        if (!(x < v[child]))
            break;
        v[root] = v[child];
        root = child;
    }
    v[root] = x;
}

/* Heapsort: the O(n log n) fallback when quicksort keeps splitting badly. */
static void stats_heap_sort(double *v, size_t n)
{
    for (size_t i = n / 2; i-- > 0;)
        stats_sift_down(v, i, n);
    for (size_t end = n; end-- > 1;) {
        double top = v[0];
        v[0] = v[end];
        v[end] = top;
        stats_sift_down(v, 0, end);
    }
}

static void stats_swap(double *a, double *b)
{
    double t = *a;
    *a = *b;
    *b = t;
}

/* Hoare partition of v[0..n) (n >= 2) around the median of the first,
 * middle and last values; returns k with v[0..k] <= v[k+1..n), both parts
 * non-empty. Runs of equal values split evenly. */
static size_t stats_partition(double *v, size_t n)
{
    size_t mid = n / 2, last = n - 1, i, j;
    double pivot;
    if (v[mid] < v[0])
        stats_swap(&v[mid], &v[0]);
    if (v[last] < v[mid]) {
        stats_swap(&v[last], &v[mid]);
        if (v[mid] < v[0])
            stats_swap(&v[mid], &v[0]);
    }
    pivot = v[mid];
    i = 0;
    j = last;
    for (;;) {
        while (v[i] < pivot)
            i++;
        while (pivot < v[j])
            j--;
        if (i >= j)
            return j;
        stats_swap(&v[i], &v[j]);
        i++;
        j--;
    }
}

/* Introsort of v[0..n) with depth partitions left before heapsort. */
static void stats_introsort(double *v, size_t n, size_t depth)
{
    while (n > 16) {
        size_t k;
        if (depth-- == 0) {
            stats_heap_sort(v, n);
            return;
        }
        k = stats_partition(v, n) + 1;
        /* Recurse into the smaller part, loop on the larger: the stack
         * stays within log2 n frames. */
        if (k < n - k) {
            stats_introsort(v, k, depth);
            v += k;
            n -= k;
        } else {
            stats_introsort(v + k, n - k, depth);
            n = k;
        }
    }
    stats_insertion_sort(v, n);
}

/* Sorts n non-NaN doubles ascending, in place, with no allocation
 * (introsort: quicksort, heapsort past 2 log2 n levels, insertion sort for
 * short runs). The order of -0.0 and +0.0 among themselves is unspecified
 * but the same on every machine. */
static void stats_sort(double *v, size_t n)
{
    size_t depth = 0;
    for (size_t m = n; m > 1; m >>= 1)
        depth += 2;
    stats_introsort(v, n, depth);
}

int stats_summarize(double *v, size_t n, struct stats_summary *out)
{
    size_t i, m = 0;
    double sum = 0, ss = 0, mean;
    /* Move NaN values to the end, keeping the others in front (no write
     * until the first NaN: most vectors have none). */
    for (i = 0; i < n; i++) {
        if (!isnan(v[i])) {
            if (i != m) {
                double x = v[i];
                v[i] = v[m];
                v[m] = x;
            }
            m++;
        }
    }
    out->n = m;
    if (m == 0) {
        out->p50 = out->p90 = out->p95 = out->p99 = out->p999 = NAN;
        out->mean = out->stddev = out->min = out->max = NAN;
        return STATS_E_EMPTY;
    }
    stats_sort(v, m);
    for (i = 0; i < m; i++)
        sum += v[i];
    mean = sum / (double)m;
    for (i = 0; i < m; i++)
        ss += (v[i] - mean) * (v[i] - mean);
    out->mean = mean;
    out->stddev = m > 1 ? sqrt(ss / (double)(m - 1)) : 0.0;
    out->min = v[0];
    out->max = v[m - 1];
    out->p50 = quantile_sorted(v, m, 50);
    out->p90 = quantile_sorted(v, m, 90);
    out->p95 = quantile_sorted(v, m, 95);
    out->p99 = quantile_sorted(v, m, 99);
    out->p999 = quantile_sorted(v, m, 99.9);
    return STATS_OK;
}

void stats_vec_init(struct stats_vec *sv, size_t limit)
{
    sv->v = NULL;
    sv->n = sv->cap = 0;
    sv->limit = limit ? limit : STATS_VEC_DEFAULT_LIMIT;
}

int stats_vec_push(struct stats_vec *sv, double x)
{
    if (sv->n >= sv->limit)
        return STATS_E_LIMIT;
    if (sv->n == sv->cap) {
        size_t ncap = sv->cap ? sv->cap * 2 : 256;
        double *nv;
        if (ncap > sv->limit)
            ncap = sv->limit;
        nv = realloc(sv->v, ncap * sizeof(*nv));
        if (!nv)
            return STATS_E_NOMEM;
        sv->v = nv;
        sv->cap = ncap;
    }
    sv->v[sv->n++] = x;
    return STATS_OK;
}

void stats_vec_reset(struct stats_vec *sv)
{
    sv->n = 0;
}

void stats_vec_free(struct stats_vec *sv)
{
    if (!sv)
        return;
    free(sv->v);
    sv->v = NULL;
    sv->n = sv->cap = 0;
}

/* Rearranges v so that v[k] is the k-th smallest value (Wirth's selection);
 * returns it. Everything before k is <= it, everything after is >= it. */
static double stats_select(double *v, size_t n, size_t k)
{
    ptrdiff_t l = 0, m = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;
    while (l < m) {
        double x = v[kk], tmp;
        ptrdiff_t i = l, j = m;
        do {
            while (v[i] < x)
                i++;
            while (x < v[j])
                j--;
            if (i <= j) {
                tmp = v[i];
                v[i] = v[j];
                v[j] = tmp;
                i++;
                j--;
            }
        } while (i <= j);
        if (j < kk)
            l = i;
        if (kk < i)
            m = j;
    }
    return v[k];
}

/* Type-7 percentile q (0..100) of n values (n > 0), reordering v: the
 * order statistic below its position, and the next one above when the
 * position falls between two (q = 50 is the median). */
static double stats_quantile_inplace(double *v, size_t n, double q)
{
    double h = (double)(n - 1) * q / 100, frac, a, b;
    size_t lo = (size_t)h, i;
    if (lo >= n - 1)
        return stats_select(v, n, n - 1);
    frac = h - (double)lo;
    a = stats_select(v, n, lo);
    if (frac == 0)
        return a;
    b = v[lo + 1]; /* the smallest value above position lo */
    for (i = lo + 2; i < n; i++)
        if (v[i] < b)
            b = v[i];
    return a + frac * (b - a);
}

/* Fills dst with n draws (with replacement) from src, returns their
 * percentile q. */
static double stats_resample_quantile(struct rng_xoshiro *r, const double *src,
                                      size_t n, double *dst, double q)
{
    size_t i;
    for (i = 0; i < n; i++)
        dst[i] = src[rng_xoshiro_below(r, n)];
    return stats_quantile_inplace(dst, n, q);
}

int stats_bootstrap_median_diff(const double *a, size_t na, const double *b,
                                size_t nb, uint64_t seed, unsigned iterations,
                                double level, struct stats_ci *out)
{
    return stats_bootstrap_quantile_diff(a, na, b, nb, 50, seed, iterations,
                                         level, out);
}

int stats_bootstrap_quantile_diff(const double *a, size_t na, const double *b,
                                  size_t nb, double q, uint64_t seed,
                                  unsigned iterations, double level,
                                  struct stats_ci *out)
{
    struct rng_xoshiro rng;
    double *ra = NULL, *rb = NULL, *diffs = NULL;
    unsigned it;
    int err = STATS_OK;
    memset(out, 0, sizeof(*out));
    if (na == 0 || nb == 0)
        return STATS_E_EMPTY;
    if (iterations == 0)
        iterations = STATS_BOOTSTRAP_ITERATIONS;
    if (!(level > 0 && level < 1))
        level = 0.95;
    ra = malloc(na * sizeof(*ra));
    rb = malloc(nb * sizeof(*rb));
    diffs = malloc(iterations * sizeof(*diffs));
    if (!ra || !rb || !diffs) {
        err = STATS_E_NOMEM;
        goto out;
    }
    memcpy(ra, a, na * sizeof(*ra));
    memcpy(rb, b, nb * sizeof(*rb));
    out->estimate =
        stats_quantile_inplace(rb, nb, q) - stats_quantile_inplace(ra, na, q);
    rng_xoshiro_seed(&rng, seed);
    for (it = 0; it < iterations; it++) {
        double ma = stats_resample_quantile(&rng, a, na, ra, q);
        double mb = stats_resample_quantile(&rng, b, nb, rb, q);
        diffs[it] = mb - ma;
    }
    stats_sort(diffs, iterations);
    out->lo = quantile_sorted(diffs, iterations, 50 * (1 - level));
    out->hi = quantile_sorted(diffs, iterations, 50 * (1 + level));
    out->level = level;
    out->iterations = iterations;
    out->excludes_zero = out->lo > 0 || out->hi < 0;
out:
    free(ra);
    free(rb);
    free(diffs);
    return err;
}
