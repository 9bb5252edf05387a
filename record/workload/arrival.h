/* arrival: the open-loop pacing, the offsets from the start at which
 * requests are due (constant spacing or seeded, libc-independent Poisson
 * arrivals). The order of requests is schedule.h's. */
#ifndef TT_RECORD_ARRIVAL_H
#define TT_RECORD_ARRIVAL_H

#include <stdbool.h>
#include <stdint.h>

/* Open-loop arrivals: the offsets from the start at which requests are due. */
struct arrival {
    bool poisson;   /* else constant spacing */
    double rate;    /* requests per second, > 0 */
    uint64_t state; /* rng.h state */
    uint64_t count; /* arrivals handed out */
    int64_t next_ns;
};

/* Starts a schedule; the first arrival is at offset 0. */
void arrival_init(struct arrival *a, bool poisson, double rate, uint64_t seed);

/* Returns the offset in ns of the next arrival from the start and advances.
 * Constant: i / rate exactly. Poisson: exponential gaps of mean 1 / rate,
 * rounded to whole ns and summed, so a seed always gives the same times. */
int64_t arrival_next(struct arrival *a);

#endif
