/* arrival: seeded open-loop arrival times (constant or Poisson). */
#include "arrival.h"

#include <math.h>

#include "rng.h"

void arrival_init(struct arrival *a, bool poisson, double rate, uint64_t seed)
{
    a->poisson = poisson;
    a->rate = rate;
    a->state = seed;
    a->count = 0;
    a->next_ns = 0;
}

int64_t arrival_next(struct arrival *a)
{
    int64_t t;
    if (!a->poisson) {
        /* computed from the index, so no rounding error accumulates */
        t = (int64_t)llround((double)a->count * 1e9 / a->rate);
    } else {
        t = a->next_ns;
        /* u in (0, 1]: 53 random bits, never 0 so the log is finite */
        double u = (double)((rng_next(&a->state) >> 11) + 1) *
                   (1.0 / 9007199254740992.0);
        a->next_ns = t + (int64_t)llround(-log(u) / a->rate * 1e9);
    }
    a->count++;
    return t;
}
