/* rng: splitmix64, xoshiro256**, their helpers and the --seed grammar. */
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

void rng_xoshiro_seed(struct rng_xoshiro *r, uint64_t seed)
{
    /* splitmix64 expands one seed into well-mixed state words */
    for (int i = 0; i < 4; i++)
        r->s[i] = rng_next(&seed);
}

static uint64_t rng_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t rng_xoshiro_next(struct rng_xoshiro *r)
{
    uint64_t *s = r->s;
    uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return result;
}

/* High 64 bits of the 128-bit product a * b, in portable C. */
static uint64_t rng_mulhi64(uint64_t a, uint64_t b)
{
    uint64_t a_lo = a & 0xffffffffu, a_hi = a >> 32;
    uint64_t b_lo = b & 0xffffffffu, b_hi = b >> 32;
    uint64_t ll = a_lo * b_lo, lh = a_lo * b_hi, hl = a_hi * b_lo;
    uint64_t hh = a_hi * b_hi;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

uint64_t rng_xoshiro_below(struct rng_xoshiro *r, uint64_t n)
{
    /* Lemire's multiply-shift with rejection: uniform, and a division only
     * in the rare case that needs it (the bootstrap draws millions). */
    uint64_t x = rng_xoshiro_next(r);
    uint64_t lo = x * n;
    if (lo < n) {
        uint64_t threshold = (0 - n) % n;
        while (lo < threshold) {
            x = rng_xoshiro_next(r);
            lo = x * n;
        }
    }
    return rng_mulhi64(x, n);
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
