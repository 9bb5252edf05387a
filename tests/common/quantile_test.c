/* quantile_test: the type-7 percentile against hand computations, for
 * doubles, int64 and a reader (quantile_at), and the comparators. */
#include "quantile.h"

#include <math.h>
#include <stdlib.h>

#include "check.h"

/* True when got is want up to rounding. */
static int near(double got, double want)
{
    return fabs(got - want) <= 1e-9 * (1 + fabs(want));
}

struct pct_case {
    const char *name;
    double v[8]; /* ignored when n > 8: see fill() */
    size_t n;
    double p, want;
};

/* Hand computations, k = (n - 1) * p / 100, value = v[floor k] + frac(k) *
 * (v[floor k + 1] - v[floor k]) on the sorted values:
 *
 * n = 1, {7}: k = 0 for every p, so 7.
 * n = 2, {20, 10} sorted {10, 20}: p0 k = 0 -> 10; p50 k = 0.5 -> 10 + 0.5
 *   * 10 = 15; p99 k = 0.99 -> 10 + 0.99 * 10 = 19.9; p100 k = 1 -> 20.
 * n = 5, {40, 15, 50, 35, 20} sorted {15, 20, 35, 40, 50}: p0 -> 15;
 *   p50 k = 2 -> 35; p90 k = 3.6 -> 40 + 0.6 * 10 = 46; p99 k = 3.96 ->
 *   40 + 0.96 * 10 = 49.6; p100 k = 4 -> 50; p25 k = 1 -> 20.
 * n = 100, v[i] = i + 1 (1..100), filled in reverse: p0 -> 1; p50 k = 49.5
 *   -> 50 + 0.5 = 50.5; p99 k = 98.01 -> 99 + 0.01 = 99.01; p99.9 k =
 *   98.901 -> 99.901; p100 k = 99 -> 100.
 */
/* clang-format off */
static const struct pct_case pct_cases[] = {
    {"n1 p0", {7}, 1, 0, 7},
    {"n1 p50", {7}, 1, 50, 7},
    {"n1 p99", {7}, 1, 99, 7},
    {"n1 p100", {7}, 1, 100, 7},
    {"n2 p0", {20, 10}, 2, 0, 10},
    {"n2 p50", {20, 10}, 2, 50, 15},
    {"n2 p99", {20, 10}, 2, 99, 19.9},
    {"n2 p100", {20, 10}, 2, 100, 20},
    {"n5 p0", {40, 15, 50, 35, 20}, 5, 0, 15},
    {"n5 p25", {40, 15, 50, 35, 20}, 5, 25, 20},
    {"n5 p50", {40, 15, 50, 35, 20}, 5, 50, 35},
    {"n5 p90", {40, 15, 50, 35, 20}, 5, 90, 46},
    {"n5 p99", {40, 15, 50, 35, 20}, 5, 99, 49.6},
    {"n5 p100", {40, 15, 50, 35, 20}, 5, 100, 50},
    {"n100 p0", {0}, 100, 0, 1},
    {"n100 p50", {0}, 100, 50, 50.5},
    {"n100 p99", {0}, 100, 99, 99.01},
    {"n100 p99.9", {0}, 100, 99.9, 99.901},
    {"n100 p100", {0}, 100, 100, 100},
    {"p clamped below", {20, 10}, 2, -5, 10},
    {"p clamped above", {20, 10}, 2, 250, 20},
};

/* clang-format on */

/* Copies a case's values into v (n = 100: 100, 99, ..., 1). */
static void fill(const struct pct_case *c, double *v)
{
    size_t i;
    for (i = 0; i < c->n; i++)
        v[i] = c->n > 8 ? (double)(c->n - i) : c->v[i];
}

static void test_percentiles(void)
{
    size_t i;
    double v[100];
    for (i = 0; i < sizeof(pct_cases) / sizeof(*pct_cases); i++) {
        const struct pct_case *c = &pct_cases[i];
        double got;
        fill(c, v);
        qsort(v, c->n, sizeof(*v), quantile_cmp_double);
        got = quantile_sorted(v, c->n, c->p);
        CHECK_MSG(near(got, c->want), "%s: got %.17g want %.17g", c->name, got,
                  c->want);
    }
    CHECK_MSG(isnan(quantile_sorted(v, 0, 50)), "n = 0 gives NaN");
}

/* at() of an array, for quantile_at against quantile_sorted. */
static double array_at(const void *ctx, size_t i)
{
    return ((const double *)ctx)[i];
}

/* The same cases through quantile_at: the same bits. */
static void test_reader(void)
{
    double v[100];
    for (size_t i = 0; i < sizeof(pct_cases) / sizeof(*pct_cases); i++) {
        const struct pct_case *c = &pct_cases[i];
        fill(c, v);
        qsort(v, c->n, sizeof(*v), quantile_cmp_double);
        CHECK_MSG(quantile_at(c->n, c->p, array_at, v) ==
                      quantile_sorted(v, c->n, c->p),
                  "%s: quantile_at differs", c->name);
    }
    CHECK_MSG(isnan(quantile_at(0, 50, array_at, v)), "n = 0 gives NaN");
}

/* int64: the interpolated part rounded half up, exact at any span. */
static void test_i64(void)
{
    int64_t v[] = {40, 15, 50, 35, 20}, two[] = {10, 11};
    int64_t wide[] = {INT64_MIN, INT64_MAX};
    qsort(v, 5, sizeof *v, quantile_cmp_i64);
    CHECK(v[0] == 15 && v[4] == 50);
    CHECK(quantile_sorted_i64(v, 5, 0) == 15);
    CHECK(quantile_sorted_i64(v, 5, 50) == 35);
    CHECK(quantile_sorted_i64(v, 5, 90) == 46);
    CHECK(quantile_sorted_i64(v, 5, 99) == 50); /* 49.6 rounds up */
    CHECK(quantile_sorted_i64(v, 5, 100) == 50);
    CHECK(quantile_sorted_i64(v, 1, 99) == 15);
    CHECK(quantile_sorted_i64(two, 2, 50) == 11);   /* 10.5: half up */
    CHECK(quantile_sorted_i64(two, 2, 49.9) == 10); /* 10.499 */
    CHECK_MSG(quantile_sorted_i64(wide, 2, 50) == 0 ||
                  quantile_sorted_i64(wide, 2, 50) == -1,
              "the full int64 span: %lld",
              (long long)quantile_sorted_i64(wide, 2, 50));
    CHECK(quantile_sorted_i64(wide, 2, 100) == INT64_MAX);
}

/* The comparators order ascending and call equal values equal. */
static void test_cmp(void)
{
    double a = 1, b = 2;
    int64_t x = INT64_MIN, y = INT64_MAX;
    CHECK(quantile_cmp_double(&a, &b) < 0 && quantile_cmp_double(&b, &a) > 0);
    CHECK(quantile_cmp_double(&a, &a) == 0);
    CHECK(quantile_cmp_i64(&x, &y) < 0 && quantile_cmp_i64(&y, &x) > 0);
    CHECK(quantile_cmp_i64(&x, &x) == 0);
}

int main(void)
{
    test_percentiles();
    test_reader();
    test_i64();
    test_cmp();
    return CHECK_DONE();
}
