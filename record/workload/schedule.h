/* schedule: which request comes next (models and classes interleaved). In
 * an open loop, when it is due is arrival.h's. */
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

#endif
