/* rng: splitmix64, its helpers and the --seed grammar. */
#include "rng.h"

uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

double rng_unit(uint64_t *state)
{
    /* 53 random bits into the mantissa: exactly representable, < 1. */
    return (double)(rng_next(state) >> 11) * (1.0 / 9007199254740992.0);
}

uint64_t rng_mix(uint64_t a, uint64_t b)
{
    uint64_t state = a ^ (b * 0xD1B54A32D192ED03ULL);
    return rng_next(&state);
}

int rng_seed_parse(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    if (!s || !*s)
        return -1;
    for (; *s; s++) {
        unsigned d = (unsigned)(*s - '0');
        if (d > 9 || v > (UINT64_MAX - d) / 10)
            return -1; /* not a digit, or past 2^64 - 1 */
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}
