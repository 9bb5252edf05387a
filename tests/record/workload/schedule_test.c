/* schedule_test: request interleaving and seeded open-loop arrivals,
 * table-driven. */
#include <math.h>
#include <string.h>

#include "arrival.h"
#include "check.h"
#include "rng.h"
#include "schedule.h"

/* An expected request: model letter, class digit, round, warmup flag,
 * written as "A0r0" / "B1r2w". */
struct order_case {
    struct schedule s;
    const char *order; /* space-separated slots, in order */
};

static const struct order_case orders[] = {
    /* one model, one class: rounds in order */
    {{1, 1, 0, 3, false}, "A0r0 A0r1 A0r2"},
    /* two models interleave within a class, classes interleave per round */
    {{2, 2, 0, 2, false}, "A0r0 B0r0 A1r0 B1r0 A0r1 B0r1 A1r1 B1r1"},
    /* three classes, two models, one round */
    {{2, 3, 0, 1, false}, "A0r0 B0r0 A1r0 B1r0 A2r0 B2r0"},
    /* warmup first: one per model per round, cycling classes */
    {{2, 2, 2, 1, false}, "A0r0w B0r0w A1r0w B1r0w A0r0 B0r0 A1r0 B1r0"},
    {{1, 2, 3, 1, false}, "A0r0w A1r0w A0r1w A0r0 A1r0"},
    /* three models */
    {{3, 1, 0, 2, false}, "A0r0 B0r0 C0r0 A0r1 B0r1 C0r1"},
};

/* Formats slot k of s as "A0r0[w]" into out; "" past the end. */
static void slot_text(const struct schedule *s, uint64_t k, char *out,
                      size_t len)
{
    struct schedule_slot slot;
    if (!schedule_slot(s, k, &slot)) {
        out[0] = '\0';
        return;
    }
    snprintf(out, len, "%c%zur%llu%s", (char)('A' + slot.model), slot.cls,
             (unsigned long long)slot.round, slot.warmup ? "w" : "");
}

static void test_orders(void)
{
    size_t i;
    for (i = 0; i < sizeof orders / sizeof orders[0]; i++) {
        const struct order_case *c = &orders[i];
        char got[512] = "", one[32];
        uint64_t k, total = schedule_total(&c->s);
        for (k = 0; k < total; k++) {
            slot_text(&c->s, k, one, sizeof one);
            if (k)
                strncat(got, " ", sizeof got - strlen(got) - 1);
            strncat(got, one, sizeof got - strlen(got) - 1);
        }
        CHECK_MSG(strcmp(got, c->order) == 0, "case %zu: got '%s', want '%s'",
                  i, got, c->order);
        slot_text(&c->s, total, one, sizeof one);
        CHECK_MSG(one[0] == '\0', "case %zu: a slot past the end", i);
    }
}

static void test_unbounded(void)
{
    struct schedule s = {2, 1, 1, 0, true};
    struct schedule_slot slot;
    CHECK(schedule_total(&s) == UINT64_MAX);
    CHECK(schedule_slot(&s, 1000001, &slot));
    CHECK(slot.model == 1 && !slot.warmup && slot.round == 499999);
}

/* Constant arrivals: exactly i / rate, no drift. */
static void test_constant(void)
{
    static const struct {
        double rate;
        uint64_t index;
        int64_t want_ns;
    } rows[] = {
        {20, 0, 0},
        {20, 1, 50000000},
        {20, 2, 100000000},
        {3, 1, 333333333},
        {3, 3000, 1000000000000},
        {0.5, 7, 14000000000},
        {1000, 999, 999000000},
    };
    size_t i;
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct arrival a;
        int64_t t = -1;
        uint64_t k;
        arrival_init(&a, false, rows[i].rate, 1);
        for (k = 0; k <= rows[i].index; k++)
            t = arrival_next(&a);
        CHECK_MSG(t == rows[i].want_ns, "rate %g index %llu: %lld, want %lld",
                  rows[i].rate, (unsigned long long)rows[i].index, (long long)t,
                  (long long)rows[i].want_ns);
    }
}

/* splitmix64 reference values (seed 1234567, the published algorithm;
 * checked against an independent Python implementation). */
static void test_splitmix(void)
{
    uint64_t st = 1234567;
    CHECK(rng_next(&st) == 6457827717110365317ULL);
    CHECK(rng_next(&st) == 3203168211198807973ULL);
    CHECK(rng_next(&st) == 9817491932198370423ULL);
}

/* Poisson arrivals: seeded (same seed, same times), increasing, first at 0,
 * mean gap 1 / rate and exponential spread. */
static void test_poisson(void)
{
    struct arrival a, b, c;
    int64_t prev = -1;
    double sum = 0, sumsq = 0, mean, sd, n = 20000;
    int i, differ = 0, short_gaps = 0;
    arrival_init(&a, true, 10, 42);
    arrival_init(&b, true, 10, 42);
    arrival_init(&c, true, 10, 43);
    for (i = 0; i < (int)n; i++) {
        int64_t ta = arrival_next(&a), tb = arrival_next(&b);
        int64_t tc = arrival_next(&c);
        CHECK_MSG(ta == tb, "same seed differs at %d", i);
        if (ta != tc)
            differ++;
        if (i == 0)
            CHECK(ta == 0);
        else {
            double gap = (double)(ta - prev) / 1e9;
            CHECK_MSG(ta >= prev, "time went back at %d", i);
            sum += gap;
            sumsq += gap * gap;
            if (gap < 0.1 * 0.6931) /* below the median of Exp(10) */
                short_gaps++;
        }
        prev = ta;
    }
    mean = sum / (n - 1);
    sd = sqrt(sumsq / (n - 1) - mean * mean);
    CHECK_MSG(differ > (int)n / 2, "seeds 42 and 43 gave the same times");
    CHECK_MSG(fabs(mean - 0.1) < 0.003, "mean gap %g, want 0.1", mean);
    CHECK_MSG(fabs(sd - 0.1) < 0.005, "gap stddev %g, want 0.1", sd);
    CHECK_MSG(fabs(short_gaps / (n - 1) - 0.5) < 0.02,
              "%d of %g gaps below the median", short_gaps, n - 1);
}

/* The first arrivals of seed 1 at 10/s, as computed independently (Python:
 * t += round(-log(u) / rate * 1e9), u = ((x >> 11) + 1) / 2^53): a seed must
 * give these times on every libc and every run. */
static void test_poisson_golden(void)
{
    static const int64_t want[] = {0,        56816951,  86149178,
                                   89091775, 170203975, 251337447};
    struct arrival a;
    size_t i;
    arrival_init(&a, true, 10, 1);
    for (i = 0; i < sizeof want / sizeof want[0]; i++) {
        int64_t t = arrival_next(&a);
        CHECK_MSG(t == want[i], "arrival %zu: %lld, want %lld", i, (long long)t,
                  (long long)want[i]);
    }
}

int main(void)
{
    test_orders();
    test_unbounded();
    test_constant();
    test_splitmix();
    test_poisson();
    test_poisson_golden();
    return CHECK_DONE();
}
