/* schedule: the interleaved request order. */
#include "schedule.h"

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
