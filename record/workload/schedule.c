/* schedule: interleaved request order and seeded open-loop arrival times. */
#include "schedule.h"

#include <math.h>

uint64_t schedule_total(const struct schedule *s)
{
    if (s->unbounded)
        return UINT64_MAX;
    return (uint64_t)s->n_models * (s->warmup + s->rounds * s->n_classes);
}

bool schedule_slot(const struct schedule *s, uint64_t k,
                   struct schedule_slot *out)
{
    uint64_t n_warm = s->warmup * s->n_models;
    uint64_t per_round = (uint64_t)s->n_models * s->n_classes, j, round;
    if (s->n_models == 0 || s->n_classes == 0)
        return false;
    if (k < n_warm) {
        /* warmup round r uses class r mod n_classes, cycling prompts */
        round = k / s->n_models;
        out->model = (size_t)(k % s->n_models);
        out->cls = (size_t)(round % s->n_classes);
        out->round = round / s->n_classes;
        out->warmup = true;
        return true;
    }
    j = k - n_warm;
    round = j / per_round;
    if (!s->unbounded && round >= s->rounds)
        return false;
    j %= per_round;
    out->cls = (size_t)(j / s->n_models);
    out->model = (size_t)(j % s->n_models);
    out->round = round;
    out->warmup = false;
    return true;
}

uint64_t schedule_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

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
        double u = (double)((schedule_splitmix64(&a->state) >> 11) + 1) *
                   (1.0 / 9007199254740992.0);
        a->next_ns = t + (int64_t)llround(-log(u) / a->rate * 1e9);
    }
    a->count++;
    return t;
}
