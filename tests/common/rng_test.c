/* rng_test: common/rng.c against splitmix64 reference values (the published
 * algorithm, computed independently in Python), so every seeded run of the
 * three programs keeps its numbers; and the --seed grammar they share. */
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

int main(void)
{
    test_next();
    test_mix();
    test_unit();
    test_seed_parse();
    return CHECK_DONE();
}
