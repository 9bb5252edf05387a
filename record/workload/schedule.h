/* schedule: which request comes next (models and classes interleaved) and,
 * in an open loop, when it is due (seeded, libc-independent arrivals). */
#ifndef TT_RECORD_SCHEDULE_H
#define TT_RECORD_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The request order. Warmup requests come first: per round, one per model.
 * Then measured rounds: in round k, for each class, one request per model,
 * all using the class's k-th prompt (A, B, A, B...). */
struct schedule {
    size_t n_models;
    size_t n_classes;
    uint64_t warmup; /* warmup requests per model */
    uint64_t rounds; /* measured requests per model x class */
    bool unbounded;  /* rounds never end (--duration without -n) */
};

struct schedule_slot {
    size_t model;
    size_t cls;
    uint64_t round; /* the prompt to use is round modulo the class's count */
    bool warmup;
};

/* Total number of requests; UINT64_MAX when unbounded. */
uint64_t schedule_total(const struct schedule *s);

/* Fills *out with request k (from 0). Returns true, or false when the
 * schedule has fewer than k + 1 requests. */
bool schedule_slot(const struct schedule *s, uint64_t k,
                   struct schedule_slot *out);

/* splitmix64: a small PRNG that gives the same numbers on every libc. */
uint64_t schedule_splitmix64(uint64_t *state);

/* Open-loop arrivals: the offsets from the start at which requests are due. */
struct arrival {
    bool poisson;   /* else constant spacing */
    double rate;    /* requests per second, > 0 */
    uint64_t state; /* PRNG state */
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
