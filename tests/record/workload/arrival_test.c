/* arrival_test: the open-loop schedules as tested statistics. Seeded, so
 * every check is exact from run to run: constant spacing; Poisson gaps;
 * gamma gaps (--burstiness) whose mean is 1 / rate and whose coefficient
 * of variation is 1 / sqrt(B); B = 1 gives the Poisson times unchanged;
 * the ramp's time change (--ramp). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "arrival.h"
#include "check.h"

#define N 200000

/* Mean and coefficient of variation of N gaps of a schedule. */
static void gap_stats(struct arrival *a, double *mean, double *cv)
{
    double sum = 0, sq = 0, m;
    int64_t prev = arrival_next(a);
    for (int i = 0; i < N; i++) {
        int64_t t = arrival_next(a);
        double g = (double)(t - prev) / 1e9;
        sum += g;
        sq += g * g;
        prev = t;
    }
    m = sum / N;
    *mean = m;
    *cv = sqrt(sq / N - m * m) / m;
}

int main(void)
{
    struct arrival a, b;
    double mean, cv;
    static const double shapes[] = {0.25, 0.5, 1, 2, 4};

    /* constant: i / rate exactly */
    arrival_init(&a, false, 20, 1);
    for (int i = 0; i < 100; i++)
        CHECK(arrival_next(&a) == (int64_t)i * 50000000);

    /* Poisson and gamma: mean 1/rate, CV 1/sqrt(B) (1% and 3% at N) */
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        arrival_init(&a, true, 100, 7);
        arrival_set_burstiness(&a, shapes[k]);
        gap_stats(&a, &mean, &cv);
        CHECK_MSG(fabs(mean - 0.01) < 0.0001, "B %g: mean gap %g s", shapes[k],
                  mean);
        CHECK_MSG(fabs(cv - 1 / sqrt(shapes[k])) < 0.03 / sqrt(shapes[k]),
                  "B %g: CV %g, want %g", shapes[k], cv, 1 / sqrt(shapes[k]));
    }

    /* B = 1 is the plain Poisson schedule, time for time; seeds repeat */
    arrival_init(&a, true, 50, 3);
    arrival_init(&b, true, 50, 3);
    arrival_set_burstiness(&b, 1);
    for (int i = 0; i < 1000; i++)
        CHECK(arrival_next(&a) == arrival_next(&b));
    arrival_init(&a, true, 50, 3);
    arrival_init(&b, true, 50, 3);
    arrival_set_burstiness(&a, 0.3);
    arrival_set_burstiness(&b, 0.3);
    for (int i = 0; i < 1000; i++)
        CHECK(arrival_next(&a) == arrival_next(&b));

    /* gamma itself: mean k, variance k */
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        uint64_t st = 11;
        double sum = 0, sq = 0, x, m, var;
        for (int i = 0; i < N; i++) {
            x = arrival_gamma(&st, shapes[k]);
            CHECK(x > 0);
            sum += x;
            sq += x * x;
        }
        m = sum / N;
        var = sq / N - m * m;
        CHECK_MSG(fabs(m - shapes[k]) < 0.02 * shapes[k] + 0.005,
                  "gamma %g: mean %g", shapes[k], m);
        CHECK_MSG(fabs(var - shapes[k]) < 0.05 * shapes[k] + 0.01,
                  "gamma %g: variance %g", shapes[k], var);
    }

    /* the ramp: 10/s constant over a 2 s ramp. Arrival i of the steady
     * schedule (i / 10 s) comes at sqrt(2 x 2 x i / 10) while i / 10 < 1,
     * then at i / 10 + 1; the rate reaches 10/s at 2 s */
    arrival_init(&a, false, 10, 1);
    arrival_set_ramp(&a, 2000000000);
    for (int i = 0; i < 40; i++) {
        double t0 = i / 10.0;
        double want = t0 < 1 ? sqrt(4 * t0) : t0 + 1;
        int64_t got = arrival_next(&a);
        CHECK_MSG(llabs(got - (int64_t)llround(want * 1e9)) <= 1,
                  "ramp arrival %d at %lld ns, want %.0f", i, (long long)got,
                  want * 1e9);
    }
    /* a Poisson ramp: the count by time t follows R t^2 / (2 D) */
    arrival_init(&a, true, 1000, 5);
    arrival_set_ramp(&a, 10000000000LL);
    {
        int n1 = 0, n2 = 0;
        for (;;) {
            int64_t t = arrival_next(&a);
            if (t >= 10000000000LL)
                break;
            n1 += t < 5000000000LL;
            n2++;
        }
        /* by 5 s: 1000 x 25 / 20 = 1250; by 10 s: 5000 (3 sigma ~ 4%) */
        CHECK_MSG(abs(n1 - 1250) < 110, "ramp: %d arrivals by 5 s", n1);
        CHECK_MSG(abs(n2 - 5000) < 220, "ramp: %d arrivals by 10 s", n2);
    }
    CHECK(arrival_ramp_ns(123, 0) == 123);
    return CHECK_DONE();
}
