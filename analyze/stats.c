/* stats: percentiles, summaries, a capped double vector, seeded bootstrap. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* numpy's _lerp: a + (b - a) * t, computed from the nearer end so that
 * t = 1 gives b exactly (matches numpy bit for bit). */
static double stats_lerp(double a, double b, double t)
{
    double d = b - a;
    return t >= 0.5 ? b - d * (1.0 - t) : a + d * t;
}

double stats_percentile_sorted(const double *sorted, size_t n, double p)
{
    double k, frac;
    size_t lo;
    if (n == 0)
        return NAN;
    if (!(p > 0)) /* also NaN p */
        p = 0;
    if (p > 100)
        p = 100;
    /* numpy divides p by 100 first; the same order gives the same bits. */
    k = (p / 100.0) * (double)(n - 1);
    lo = (size_t)floor(k);
    if (lo >= n - 1)
        return sorted[n - 1];
    frac = k - (double)lo;
    return stats_lerp(sorted[lo], sorted[lo + 1], frac);
}

/* qsort order for doubles (no NaN here). */
static int stats_cmp(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

int stats_summarize(double *v, size_t n, struct stats_summary *out)
{
    size_t i, m = 0;
    double sum = 0, ss = 0, mean;
    /* Move NaN values to the end, keeping the others in front. */
    for (i = 0; i < n; i++) {
        if (!isnan(v[i])) {
            double x = v[i];
            v[i] = v[m];
            v[m++] = x;
        }
    }
    out->n = m;
    if (m == 0) {
        out->p50 = out->p90 = out->p95 = out->p99 = out->p999 = NAN;
        out->mean = out->stddev = out->min = out->max = NAN;
        return STATS_E_EMPTY;
    }
    qsort(v, m, sizeof(*v), stats_cmp);
    for (i = 0; i < m; i++)
        sum += v[i];
    mean = sum / (double)m;
    for (i = 0; i < m; i++)
        ss += (v[i] - mean) * (v[i] - mean);
    out->mean = mean;
    out->stddev = m > 1 ? sqrt(ss / (double)(m - 1)) : 0.0;
    out->min = v[0];
    out->max = v[m - 1];
    out->p50 = stats_percentile_sorted(v, m, 50);
    out->p90 = stats_percentile_sorted(v, m, 90);
    out->p95 = stats_percentile_sorted(v, m, 95);
    out->p99 = stats_percentile_sorted(v, m, 99);
    out->p999 = stats_percentile_sorted(v, m, 99.9);
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

/* splitmix64 step: expands one seed into well-mixed state words. */
static uint64_t stats_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

void stats_rng_seed(struct stats_rng *r, uint64_t seed)
{
    int i;
    for (i = 0; i < 4; i++)
        r->s[i] = stats_splitmix64(&seed);
}

static uint64_t stats_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t stats_rng_next(struct stats_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = stats_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = stats_rotl(s[3], 45);
    return result;
}

/* High 64 bits of the 128-bit product a * b, in portable C. */
static uint64_t stats_mulhi64(uint64_t a, uint64_t b)
{
    uint64_t a_lo = a & 0xffffffffu, a_hi = a >> 32;
    uint64_t b_lo = b & 0xffffffffu, b_hi = b >> 32;
    uint64_t ll = a_lo * b_lo, lh = a_lo * b_hi, hl = a_hi * b_lo;
    uint64_t hh = a_hi * b_hi;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

uint64_t stats_rng_below(struct stats_rng *r, uint64_t n)
{
    /* Lemire's multiply-shift with rejection: uniform, and a division only
     * in the rare case that needs it (the bootstrap draws millions). */
    uint64_t x = stats_rng_next(r);
    uint64_t lo = x * n;
    if (lo < n) {
        uint64_t threshold = (0 - n) % n;
        while (lo < threshold) {
            x = stats_rng_next(r);
            lo = x * n;
        }
    }
    return stats_mulhi64(x, n);
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

/* Type-7 median of n values (n > 0), reordering v. */
static double stats_median_inplace(double *v, size_t n)
{
    size_t lo = (n - 1) / 2, i;
    double a = stats_select(v, n, lo), b;
    if (n % 2 == 1)
        return a;
    b = v[lo + 1]; /* the smallest value above position lo */
    for (i = lo + 2; i < n; i++)
        if (v[i] < b)
            b = v[i];
    return stats_lerp(a, b, 0.5);
}

/* Fills dst with n draws (with replacement) from src, returns the median. */
static double stats_resample_median(struct stats_rng *r, const double *src,
                                    size_t n, double *dst)
{
    size_t i;
    for (i = 0; i < n; i++)
        dst[i] = src[stats_rng_below(r, n)];
    return stats_median_inplace(dst, n);
}

int stats_bootstrap_median_diff(const double *a, size_t na, const double *b,
                                size_t nb, uint64_t seed, unsigned iterations,
                                double level, struct stats_ci *out)
{
    struct stats_rng rng;
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
    out->estimate = stats_median_inplace(rb, nb) - stats_median_inplace(ra, na);
    stats_rng_seed(&rng, seed);
    for (it = 0; it < iterations; it++) {
        double ma = stats_resample_median(&rng, a, na, ra);
        double mb = stats_resample_median(&rng, b, nb, rb);
        diffs[it] = mb - ma;
    }
    qsort(diffs, iterations, sizeof(*diffs), stats_cmp);
    out->lo = stats_percentile_sorted(diffs, iterations, 50 * (1 - level));
    out->hi = stats_percentile_sorted(diffs, iterations, 50 * (1 + level));
    out->level = level;
    out->iterations = iterations;
    out->excludes_zero = out->lo > 0 || out->hi < 0;
out:
    free(ra);
    free(rb);
    free(diffs);
    return err;
}
