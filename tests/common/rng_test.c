/* rng_test: common/rng.c against splitmix64 and xoshiro256** reference
 * values (the published algorithms, computed independently in Python), so
 * every seeded run of the programs keeps its numbers; and the --seed
 * grammar they share. */
#include <inttypes.h>
#include <stdint.h>

#include "check.h"
#include "rng.h"

/* The first three outputs of a seed. */
static const struct {
    uint64_t seed;
    uint64_t want[3];
} next_cases[] = {
    {0, {16294208416658607535u, 7960286522194355700u, 487617019471545679u}},
    {1, {10451216379200822465u, 13757245211066428519u, 17911839290282890590u}},
    {1234567,
     {6457827717110365317u, 3203168211198807973u, 9817491932198370423u}},
    {UINT64_MAX,
     {16490336266968443936u, 16834447057089888969u, 4048727598324417001u}},
};

/* rng_mix(a, b): a per-stream seed from a run seed and a stream number. */
static const struct {
    uint64_t a, b, want;
} mix_cases[] = {
    {1, 0, 10451216379200822465u}, /* b = 0: the first output of seed a */
    {1, 1, 5206558337466748783u},
    {42, 7, 17332858517210727362u},
    {UINT64_MAX, UINT64_MAX, 5206558337466748783u},
};

static void test_next(void)
{
    for (size_t i = 0; i < sizeof(next_cases) / sizeof(*next_cases); i++) {
        uint64_t st = next_cases[i].seed;
        for (int k = 0; k < 3; k++) {
            uint64_t got = rng_next(&st);
            CHECK_MSG(got == next_cases[i].want[k],
                      "seed %" PRIu64 " output %d: %" PRIu64,
                      next_cases[i].seed, k, got);
        }
    }
}

static void test_mix(void)
{
    for (size_t i = 0; i < sizeof(mix_cases) / sizeof(*mix_cases); i++) {
        uint64_t got = rng_mix(mix_cases[i].a, mix_cases[i].b);
        CHECK_MSG(got == mix_cases[i].want, "mix %" PRIu64 " %" PRIu64,
                  mix_cases[i].a, mix_cases[i].b);
    }
}

/* rng_unit is the top 53 bits of rng_next: in [0, 1), and the same
 * sequence from the same seed. */
static void test_unit(void)
{
    uint64_t a = 1, b = 1, c = 1;
    CHECK(rng_unit(&a) == 0.5665615751722809);
    b = a;
    for (int i = 0; i < 100000; i++) {
        double u = rng_unit(&a);
        CHECK(u >= 0.0 && u < 1.0);
        CHECK(u == rng_unit(&b));
    }
    CHECK(rng_unit(&c) ==
          (double)(rng_next(&(uint64_t){1}) >> 11) / 9007199254740992.0);
}

/* --seed: decimal 0 to 2^64 - 1, nothing else (-1 must not wrap). */
static const struct {
    const char *text;
    int rc;
    uint64_t want;
} seed_cases[] = {
    {"0", 0, 0},
    {"1", 0, 1},
    {"42", 0, 42},
    {"007", 0, 7},
    {"18446744073709551615", 0, UINT64_MAX},
    {"18446744073709551616", -1, 0},
    {"99999999999999999999", -1, 0},
    {"-1", -1, 0},
    {"-0", -1, 0},
    {"+1", -1, 0},
    {" 1", -1, 0},
    {"1 ", -1, 0},
    {"0x10", -1, 0},
    {"1e3", -1, 0},
    {"1.0", -1, 0},
    {"", -1, 0},
    {"x", -1, 0},
};

static void test_seed_parse(void)
{
    for (size_t i = 0; i < sizeof(seed_cases) / sizeof(*seed_cases); i++) {
        uint64_t got = 12345;
        int rc = rng_seed_parse(seed_cases[i].text, &got);
        CHECK_MSG(rc == seed_cases[i].rc, "'%s': rc %d", seed_cases[i].text,
                  rc);
        CHECK_MSG(got == (rc == 0 ? seed_cases[i].want : 12345),
                  "'%s': %" PRIu64, seed_cases[i].text, got);
    }
    CHECK(rng_seed_parse(NULL, &(uint64_t){0}) == -1);
}

/* The sequence is pinned: an independent Python implementation of
 * splitmix64 + xoshiro256** gives these values. */
static void test_rng(void)
{
    struct rng_xoshiro r;
    uint64_t hist[7] = {0};
    int i;
    rng_xoshiro_seed(&r, 0);
    CHECK_MSG(rng_xoshiro_next(&r) == UINT64_C(0x99ec5f36cb75f2b4),
              "seed 0 #1");
    CHECK_MSG(rng_xoshiro_next(&r) == UINT64_C(0xbf6e1f784956452a),
              "seed 0 #2");
    CHECK_MSG(rng_xoshiro_next(&r) == UINT64_C(0x1a5f849d4933e6e0),
              "seed 0 #3");
    rng_xoshiro_seed(&r, 42);
    CHECK_MSG(rng_xoshiro_next(&r) == UINT64_C(0x15780b2e0c2ec716),
              "seed 42 #1");
    for (i = 0; i < 70000; i++)
        hist[rng_xoshiro_below(&r, 7)]++;
    for (i = 0; i < 7; i++)
        CHECK_MSG(hist[i] > 9000 && hist[i] < 11000, "below(7) bucket %d: %llu",
                  i, (unsigned long long)hist[i]);
    CHECK_MSG(rng_xoshiro_below(&r, 1) == 0, "below(1)");
    /* below() is pinned too (multiply-shift, the same in Python). */
    rng_xoshiro_seed(&r, 5);
    CHECK_MSG(rng_xoshiro_below(&r, 1000) == 288 &&
                  rng_xoshiro_below(&r, 1000) == 602 &&
                  rng_xoshiro_below(&r, 1000) == 649 &&
                  rng_xoshiro_below(&r, 1000) == 821 &&
                  rng_xoshiro_below(&r, 1000) == 516,
              "below(1000) sequence");
    CHECK_MSG(rng_xoshiro_below(&r, (UINT64_C(1) << 63) + 12345) ==
                      UINT64_C(7458586743318766530) &&
                  rng_xoshiro_below(&r, (UINT64_C(1) << 63) + 12345) ==
                      UINT64_C(3513578934305420439),
              "below(2^63 + 12345) sequence");
}

int main(void)
{
    test_next();
    test_mix();
    test_unit();
    test_seed_parse();
    test_rng();
    return CHECK_DONE();
}
