/* replay_rng: a small seeded PRNG (splitmix64) so runs are reproducible. */
#ifndef TT_REPLAY_RNG_H
#define TT_REPLAY_RNG_H

#include <stdint.h>

struct replay_rng {
    uint64_t state;
};

/* Seeds the generator; any seed (including 0) is fine. */
void replay_rng_seed(struct replay_rng *r, uint64_t seed);

/* Returns the next 64 random bits. Cannot fail. */
uint64_t replay_rng_next(struct replay_rng *r);

/* Returns a uniform double in [0, 1). */
double replay_rng_unit(struct replay_rng *r);

/* Mixes two values into one seed (for per-stream generators). */
uint64_t replay_rng_mix(uint64_t a, uint64_t b);

#endif
