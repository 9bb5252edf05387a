/* arrival: the open-loop pacing, the offsets from the start at which
 * requests are due (constant spacing or seeded, libc-independent Poisson
 * arrivals). The order of requests is schedule.h's. */
#ifndef TT_RECORD_ARRIVAL_H
#define TT_RECORD_ARRIVAL_H

#include <stdbool.h>
#include <stdint.h>

/* Open-loop arrivals: the offsets from the start at which requests are due. */
struct arrival {
    bool poisson;        /* else constant spacing */
    double rate;         /* requests per second, > 0 */
    double burstiness;   /* poisson: gamma gaps of shape B (1: exponential) */
    int64_t ramp_ns;     /* the rate climbs from 0 over this long, 0: none */
    const int64_t *list; /* --arrivals: the offsets themselves (borrowed) */
    uint64_t n_list;
    uint64_t state; /* rng.h state */
    uint64_t count; /* arrivals handed out */
    int64_t next_ns;
};

/* Starts a schedule; the first arrival is at offset 0. */
void arrival_init(struct arrival *a, bool poisson, double rate, uint64_t seed);

/* Bursty arrivals (--burstiness B > 0, poisson only): gaps drawn from a
 * gamma distribution of shape B and mean 1 / rate, so their coefficient of
 * variation is 1 / sqrt(B): B = 1 is Poisson (the same times as without
 * it), B < 1 burstier, B > 1 more regular. Call after arrival_init. */
void arrival_set_burstiness(struct arrival *a, double burstiness);

/* A ramp (--ramp D): the rate rises linearly from 0 to its value over
 * ramp_ns, then stays. Call after arrival_init. */
void arrival_set_ramp(struct arrival *a, int64_t ramp_ns);

/* Arrivals at the given offsets (ns from the start, ascending; borrowed,
 * n > 0) instead of drawn ones: --arrivals FILE. Past the last one the
 * last is repeated. Call after arrival_init. */
void arrival_set_list(struct arrival *a, const int64_t *at_ns, uint64_t n);

/* Returns the offset in ns of the next arrival from the start and advances.
 * Constant: i / rate exactly. Poisson: exponential (or gamma) gaps of mean
 * 1 / rate, rounded to whole ns and summed, so a seed always gives the
 * same times. A ramp maps those times through arrival_ramp_ns. */
int64_t arrival_next(struct arrival *a);

/* The time change of a linear ramp of ramp_ns: an arrival at t_ns of the
 * steady schedule comes at sqrt(2 x ramp x t) while t < ramp / 2 (the
 * rate climbing from 0, the same count of arrivals as the steady rate
 * would give by then, half as dense on average), and at t + ramp / 2
 * after. Pure. */
int64_t arrival_ramp_ns(int64_t t_ns, int64_t ramp_ns);

/* A gamma-distributed value of shape k > 0 and scale 1 (Marsaglia and
 * Tsang 2000; k < 1 by boosting), from the rng.h state. Pure but for the
 * state. */
double arrival_gamma(uint64_t *state, double k);

#endif
