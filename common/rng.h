/* rng: splitmix64, the one seeded PRNG of all three programs (open-loop
 * arrivals, retry jitter, replay jitter and fault picks, the analyzer's
 * bootstrap seeding). Pure integer arithmetic: a seed gives the same numbers
 * on every machine and libc.
 *
 * The state is a bare uint64_t owned by the caller; any value (0 too) is a
 * valid seed. */
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

/* What --seed takes, for error messages of every program. */
#define RNG_SEED_WANT "a whole number from 0 to 18446744073709551615"

/* Parses a --seed value: decimal digits only, 0 to 2^64 - 1; no sign, no
 * space, no 0x, so "-1" is refused instead of wrapping to 2^64 - 1. Returns
 * 0, or -1 (and leaves *out alone). */
int rng_seed_parse(const char *s, uint64_t *out);

#endif
