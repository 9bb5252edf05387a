/* rng: the seeded PRNGs of every program, pure integer arithmetic, so a
 * seed gives the same numbers on every machine and libc:
 *  - splitmix64 (rng_next): open-loop arrivals, retry jitter, replay jitter
 *    and fault picks, and the seeding of the other;
 *  - xoshiro256** (rng_xoshiro_*): the analyzer's resampling (compare's and
 *    capacity's bootstrap, plot's intervals), whose --seed N intervals are
 *    pinned by tests and golden outputs, hence kept bit for bit.
 *
 * splitmix64's state is a bare uint64_t owned by the caller; any value (0
 * too) is a valid seed. */
#ifndef TT_COMMON_RNG_H
#define TT_COMMON_RNG_H

#include <stdint.h>

/* Advances *state and returns the next 64 random bits (splitmix64, Steele,
 * Lea and Flood 2014). Cannot fail. */
uint64_t rng_next(uint64_t *state);

/* Returns a uniform double in [0, 1): the next value's top 53 bits. */
double rng_unit(uint64_t *state);

/* Mixes two values into one well-spread seed (a per-stream generator from
 * a run seed and a stream number). */
uint64_t rng_mix(uint64_t a, uint64_t b);

/* xoshiro256** (Blackman and Vigna 2018), its four state words expanded
 * from one seed by splitmix64. */
struct rng_xoshiro {
    uint64_t s[4];
};

/* Seeds the generator (any seed). Cannot fail. */
void rng_xoshiro_seed(struct rng_xoshiro *r, uint64_t seed);

/* Next 64 random bits. */
uint64_t rng_xoshiro_next(struct rng_xoshiro *r);

/* A uniform integer in [0, n), without modulo bias. n must be > 0. */
uint64_t rng_xoshiro_below(struct rng_xoshiro *r, uint64_t n);

/* What --seed takes, for error messages of every program. */
#define RNG_SEED_WANT "a whole number from 0 to 18446744073709551615"

/* Parses a --seed value: decimal digits only, 0 to 2^64 - 1; no sign, no
 * space, no 0x, so "-1" is refused instead of wrapping to 2^64 - 1. Returns
 * 0, or -1 (and leaves *out alone). */
int rng_seed_parse(const char *s, uint64_t *out);

#endif
