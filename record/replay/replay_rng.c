/* replay_rng: splitmix64, tiny and good enough for jitter and fault picks. */
#include "replay_rng.h"

void replay_rng_seed(struct replay_rng *r, uint64_t seed)
{
    r->state = seed;
}

uint64_t replay_rng_next(struct replay_rng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

double replay_rng_unit(struct replay_rng *r)
{
    /* 53 random bits into the mantissa: exactly representable, < 1. */
    return (double)(replay_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

uint64_t replay_rng_mix(uint64_t a, uint64_t b)
{
    struct replay_rng r;
    replay_rng_seed(&r, a ^ (b * 0xD1B54A32D192ED03ULL));
    return replay_rng_next(&r);
}
