/* run_span_test: the wall span of several runs (analyze/metrics/run_span.c)
 * on hand-computed cases: overlap, nesting, gaps, unknown real clocks and
 * clock zeros at the int64 limits. */
#include "run_span.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "check.h"

#define S 1000000000LL         /* one second in ns */
#define NOW (1764460800LL * S) /* a real zero: 2025-11-30 */

struct span_case {
    const char *name;
    struct run_span_run runs[4]; /* start, end, mono_zero, real_zero */
    size_t n;
    double want_s; /* NAN: undefined */
};

/* clang-format off */
static const struct span_case cases[] = {
    {"none", {{0}}, 0, NAN},
    {"one run", {{5 * S, 9 * S, 0, NOW}}, 1, 4},
    {"the same run twice counts once",
     {{5 * S, 9 * S, 0, NOW}, {5 * S, 9 * S, 0, NOW}}, 2, 4},
    /* two recorders started together: other monotonic zeros, same time */
    {"concurrent, other clock zeros",
     {{5 * S, 9 * S, 0, NOW}, {105 * S, 109 * S, 100 * S, NOW}}, 2, 4},
    {"overlapping by half",
     {{0, 4 * S, 0, NOW}, {2 * S, 6 * S, 0, NOW}}, 2, 6},
    {"nested", {{0, 10 * S, 0, NOW}, {2 * S, 3 * S, 0, NOW}}, 2, 10},
    {"apart: the pause is not counted",
     {{0, 2 * S, 0, NOW}, {0, 3 * S, 0, NOW + 60 * S}}, 2, 5},
    {"touching", {{0, 2 * S, 0, NOW}, {2 * S, 3 * S, 0, NOW}}, 2, 3},
    {"unknown real zero: end to end",
     {{0, 2 * S, 0, 0}, {0, 3 * S, 0, 0}}, 2, 5},
    {"unknown interval left out",
     {{-1, 2 * S, 0, NOW}, {0, 3 * S, 0, NOW}, {4 * S, 4 * S, 0, NOW}}, 3,
     3},
    /* crafted zeros: placing on the real clock would overflow int64 */
    {"real zero near INT64_MAX",
     {{0, 2 * S, -5 * S, INT64_MAX - S}, {0, 3 * S, 0, NOW}}, 2, 5},
    {"mono zero near INT64_MIN",
     {{S, 2 * S, INT64_MIN + 1, NOW}}, 1, 1},
    {"far apart at both ends of the real clock",
     {{0, S, 0, 1}, {0, S, 0, INT64_MAX - S}}, 2, 2},
};
/* clang-format on */

int main(void)
{
    for (size_t c = 0; c < sizeof(cases) / sizeof(*cases); c++) {
        const struct span_case *k = &cases[c];
        struct run_span_run scratch[4];
        double got = run_span_wall_s(k->runs, k->n, scratch);
        if (isnan(k->want_s))
            CHECK_MSG(isnan(got), "%s: got %g", k->name, got);
        else
            CHECK_MSG(fabs(got - k->want_s) < 1e-9, "%s: got %.12g want %g",
                      k->name, got, k->want_s);
    }
    return CHECK_DONE();
}
