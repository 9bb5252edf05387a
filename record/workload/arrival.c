/* arrival: seeded open-loop arrival times (constant, Poisson or gamma),
 * with an optional linear ramp. */
#include "arrival.h"

#include <math.h>
#include <stddef.h>

#include "rng.h"

void arrival_init(struct arrival *a, bool poisson, double rate, uint64_t seed)
{
    a->poisson = poisson;
    a->rate = rate;
    a->burstiness = 1;
    a->ramp_ns = 0;
    a->list = NULL;
    a->n_list = 0;
    a->state = seed;
    a->count = 0;
    a->next_ns = 0;
}

void arrival_set_burstiness(struct arrival *a, double burstiness)
{
    a->burstiness = burstiness > 0 ? burstiness : 1;
}

void arrival_set_ramp(struct arrival *a, int64_t ramp_ns)
{
    a->ramp_ns = ramp_ns > 0 ? ramp_ns : 0;
}

/* u in (0, 1]: 53 random bits, never 0 so a log is finite. */
static double unit_open0(uint64_t *state)
{
    return (double)((rng_next(state) >> 11) + 1) * (1.0 / 9007199254740992.0);
}

/* A standard normal value (Box-Muller, one of the pair). */
static double normal(uint64_t *state)
{
    double u1 = unit_open0(state), u2 = unit_open0(state);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

double arrival_gamma(uint64_t *state, double k)
{
    double d, c, x, v, u;
    if (k < 1) /* G(k) = G(k + 1) x U^(1/k) */
        return arrival_gamma(state, k + 1) * pow(unit_open0(state), 1.0 / k);
    d = k - 1.0 / 3.0;
    c = 1.0 / sqrt(9.0 * d);
    for (;;) {
        do {
            x = normal(state);
            v = 1.0 + c * x;
        } while (v <= 0);
        v = v * v * v;
        u = unit_open0(state);
        if (log(u) < 0.5 * x * x + d - d * v + d * log(v))
            return d * v;
    }
}

int64_t arrival_ramp_ns(int64_t t_ns, int64_t ramp_ns)
{
    if (ramp_ns <= 0)
        return t_ns;
    if (t_ns < ramp_ns / 2)
        return (int64_t)llround(sqrt(2.0 * (double)ramp_ns * (double)t_ns));
    return t_ns + ramp_ns / 2;
}

void arrival_set_list(struct arrival *a, const int64_t *at_ns, uint64_t n)
{
    a->list = n ? at_ns : NULL;
    a->n_list = n;
}

int64_t arrival_next(struct arrival *a)
{
    int64_t t;
    if (a->list) {
        t = a->list[a->count < a->n_list ? a->count : a->n_list - 1];
        a->count++;
        return t;
    }
    if (!a->poisson) {
        /* computed from the index, so no rounding error accumulates */
        t = (int64_t)llround((double)a->count * 1e9 / a->rate);
    } else {
        double gap;
        t = a->next_ns;
        if (a->burstiness == 1) /* exponential: the times of older runs */
            gap = -log(unit_open0(&a->state)) / a->rate;
        else
            gap = arrival_gamma(&a->state, a->burstiness) /
                  (a->burstiness * a->rate);
        a->next_ns = t + (int64_t)llround(gap * 1e9);
    }
    a->count++;
    return arrival_ramp_ns(t, a->ramp_ns);
}
