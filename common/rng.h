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

#endif
