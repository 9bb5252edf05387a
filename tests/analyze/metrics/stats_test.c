/* stats_test: summaries, the capped vector and the bootstrap (the
 * percentile rule and the PRNG are tested in tests/common). */
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* True when got is want up to rounding. */
static int near(double got, double want)
{
    return fabs(got - want) <= 1e-9 * (1 + fabs(want));
}

static void test_summaries(void)
{
    struct stats_summary s;
    double v5[] = {40, 15, 50, 35, 20};
    double v100[100], one[] = {3.5}, nan3[] = {NAN, 3, 1}, none[] = {NAN};
    size_t i;

    /* mean = 160 / 5 = 32; deviations -17 -12 3 8 18, squares 289 144 9 64
     * 324 sum 830; sample variance 830 / 4 = 207.5. */
    CHECK_MSG(stats_summarize(v5, 5, &s) == STATS_OK, "n5");
    CHECK_MSG(s.n == 5 && near(s.mean, 32) && near(s.stddev, sqrt(207.5)) &&
                  s.min == 15 && s.max == 50 && near(s.p50, 35) &&
                  near(s.p90, 46) && near(s.p99, 49.6),
              "n5 summary: mean %g sd %g", s.mean, s.stddev);
    CHECK_MSG(v5[0] == 15 && v5[4] == 50, "summarize sorts in place");
    /* p95 k = 3.8 -> 40 + 0.8 * 10 = 48; p99.9 k = 3.996 -> 49.96. */
    CHECK_MSG(near(s.p95, 48) && near(s.p999, 49.96), "n5 p95 %g p999 %g",
              s.p95, s.p999);

    /* 1..100: mean 50.5; sample variance of 1..n is n(n+1)/12 = 841.67. */
    for (i = 0; i < 100; i++)
        v100[i] = (double)(100 - i);
    stats_summarize(v100, 100, &s);
    CHECK_MSG(near(s.mean, 50.5) && near(s.stddev, sqrt(100.0 * 101 / 12)) &&
                  near(s.p50, 50.5) && near(s.p90, 90.1) &&
                  near(s.p95, 95.05) && near(s.p99, 99.01) &&
                  near(s.p999, 99.901),
              "n100 summary: sd %g p90 %g p95 %g", s.stddev, s.p90, s.p95);

    CHECK_MSG(stats_summarize(one, 1, &s) == STATS_OK && s.stddev == 0 &&
                  s.p50 == 3.5 && s.p999 == 3.5 && s.mean == 3.5,
              "n1 summary");
    CHECK_MSG(stats_summarize(nan3, 3, &s) == STATS_OK && s.n == 2 &&
                  near(s.p50, 2) && s.max == 3,
              "NaN skipped: n %zu p50 %g", s.n, s.p50);
    CHECK_MSG(stats_summarize(none, 1, &s) == STATS_E_EMPTY && s.n == 0 &&
                  isnan(s.p50),
              "all NaN");
    CHECK_MSG(stats_summarize(none, 0, &s) == STATS_E_EMPTY, "empty");
}

static void test_vec(void)
{
    struct stats_vec sv;
    int i, err = 0;
    stats_vec_init(&sv, 1000);
    for (i = 0; i < 1000 && !err; i++)
        err = stats_vec_push(&sv, i);
    CHECK_MSG(err == 0 && sv.n == 1000 && sv.v[999] == 999, "push 1000");
    CHECK_MSG(stats_vec_push(&sv, 1) == STATS_E_LIMIT && sv.n == 1000,
              "cap refuses");
    CHECK_MSG(sv.cap <= 1000, "never allocates past the cap: %zu", sv.cap);
    stats_vec_reset(&sv);
    CHECK_MSG(sv.n == 0 && stats_vec_push(&sv, 5) == 0, "reset");
    stats_vec_free(&sv);
    stats_vec_free(NULL);
    CHECK_MSG(strcmp(stats_strerror(STATS_E_LIMIT), "unknown stats error") != 0,
              "strerror");
}

/* Samples for the bootstrap: uniform in [center - 10, center + 10). */
static void sample(double *v, size_t n, double center, uint64_t seed)
{
    struct rng_xoshiro r;
    size_t i;
    rng_xoshiro_seed(&r, seed);
    for (i = 0; i < n; i++)
        v[i] = center - 10 +
               20.0 * (double)(rng_xoshiro_next(&r) >> 11) / 9007199254740992.0;
}

static void test_bootstrap(void)
{
    double a[200], b[200], a_copy[200];
    struct stats_ci ci, ci2, ci3;
    sample(a, 200, 100, 1);
    sample(b, 200, 150, 2);
    memcpy(a_copy, a, sizeof(a));

    CHECK_MSG(stats_bootstrap_median_diff(a, 200, b, 200, 7, 1000, 0.95, &ci) ==
                  STATS_OK,
              "bootstrap runs");
    CHECK_MSG(memcmp(a, a_copy, sizeof(a)) == 0, "inputs untouched");
    CHECK_MSG(ci.excludes_zero && ci.lo > 40 && ci.hi < 60 && ci.lo < ci.hi &&
                  ci.lo <= ci.estimate && ci.estimate <= ci.hi &&
                  near(ci.estimate, ci.estimate) && ci.iterations == 1000,
              "different samples separated: %g [%g, %g]", ci.estimate, ci.lo,
              ci.hi);

    /* Same seed, same interval, to the bit. */
    stats_bootstrap_median_diff(a, 200, b, 200, 7, 1000, 0.95, &ci2);
    CHECK_MSG(ci.lo == ci2.lo && ci.hi == ci2.hi, "deterministic");
    stats_bootstrap_median_diff(a, 200, b, 200, 8, 1000, 0.95, &ci3);
    CHECK_MSG(ci3.lo != ci.lo || ci3.hi != ci.hi, "the seed matters");

    /* A sample against itself: estimate 0 and an interval around 0. */
    stats_bootstrap_median_diff(a, 200, a_copy, 200, 7, 1000, 0.95, &ci);
    CHECK_MSG(ci.estimate == 0 && !ci.excludes_zero && ci.lo <= 0 && ci.hi >= 0,
              "identical samples not separated: [%g, %g]", ci.lo, ci.hi);

    /* Two samples from the same distribution (different draws). */
    sample(b, 200, 100, 3);
    stats_bootstrap_median_diff(a, 200, b, 200, 7, 0, 0, &ci);
    CHECK_MSG(!ci.excludes_zero &&
                  ci.iterations == STATS_BOOTSTRAP_ITERATIONS &&
                  near(ci.level, 0.95),
              "same distribution not separated: [%g, %g]", ci.lo, ci.hi);

    /* Even sizes use the mean of the two middle values: {1,2,3,4} vs
     * {11,12,13,14} differ by exactly 10. */
    {
        double x[] = {4, 1, 3, 2}, y[] = {12, 14, 11, 13};
        stats_bootstrap_median_diff(x, 4, y, 4, 1, 200, 0.9, &ci);
        CHECK_MSG(ci.estimate == 10, "even median estimate %g", ci.estimate);
    }
    CHECK_MSG(stats_bootstrap_median_diff(a, 0, b, 200, 1, 10, 0.95, &ci) ==
                  STATS_E_EMPTY,
              "empty side");
}

/* The bootstrap's selection-based median equals the sorted type-7 median,
 * duplicates included (checked through the estimate against {0}). */
static void test_median_select(void)
{
    struct rng_xoshiro r;
    double zero[] = {0}, v[64], sorted[64];
    struct stats_ci ci;
    size_t n, i;
    int round;
    rng_xoshiro_seed(&r, 99);
    for (round = 0; round < 500; round++) {
        n = 1 + (size_t)rng_xoshiro_below(&r, 64);
        for (i = 0; i < n; i++)
            v[i] = (double)rng_xoshiro_below(&r, round % 2 ? 5 : 1000);
        memcpy(sorted, v, n * sizeof(*v));
        qsort(sorted, n, sizeof(*v), quantile_cmp_double);
        stats_bootstrap_median_diff(zero, 1, v, n, 1, 1, 0.95, &ci);
        CHECK_MSG(ci.estimate == quantile_sorted(sorted, n, 50),
                  "median of %zu values: %g vs %g", n, ci.estimate,
                  quantile_sorted(sorted, n, 50));
    }
}

/* Fills v with n values of one shape (random, sorted, reversed, equal, few
 * distinct, organ pipe, sawtooth, sorted with noise at the end). */
static void sort_shape(double *v, size_t n, int shape, struct rng_xoshiro *r)
{
    for (size_t i = 0; i < n; i++) {
        switch (shape) {
        case 0:
            v[i] = (double)rng_xoshiro_below(r, 1000000) / 7.0;
            break;
        case 1:
            v[i] = (double)i;
            break;
        case 2:
            v[i] = (double)(n - i);
            break;
        case 3:
            v[i] = 50.0;
            break;
        case 4:
            v[i] = (double)rng_xoshiro_below(r, 3);
            break;
        case 5:
            v[i] = (double)(i < n / 2 ? i : n - i);
            break;
        case 6:
            v[i] = (double)(i % 17) - 8.5;
            break;
        default:
            v[i] = i + 10 < n ? (double)i : -(double)i;
            break;
        }
    }
}

/* stats_summarize sorts in place without qsort: the same order as qsort
 * for every shape and size, so percentiles and sums are unchanged. */
static void test_sort(void)
{
    static const size_t sizes[] = {0, 1, 2, 3, 15, 16, 17, 100, 1000, 65537};
    static double v[65537], want[65537];
    struct rng_xoshiro r;
    rng_xoshiro_seed(&r, 11);
    for (size_t k = 0; k < sizeof(sizes) / sizeof(*sizes); k++) {
        for (int shape = 0; shape < 8; shape++) {
            size_t n = sizes[k];
            struct stats_summary sum;
            sort_shape(v, n, shape, &r);
            memcpy(want, v, n * sizeof(*v));
            qsort(want, n, sizeof(*want), quantile_cmp_double);
            stats_summarize(v, n, &sum);
            CHECK_MSG(memcmp(v, want, n * sizeof(*v)) == 0,
                      "sort: n %zu shape %d differs from qsort", n, shape);
        }
    }
}

int main(void)
{
    test_sort();
    test_median_select();
    test_summaries();
    test_vec();
    test_bootstrap();
    if (check_failures) {
        fprintf(stderr, "stats_test: %d check_failures\n", check_failures);
        return 1;
    }
    printf("stats_test: ok\n");
    return 0;
}
