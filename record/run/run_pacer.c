/* run_pacer: the open-loop pacer, the timer arithmetic that carries it, the
 * idle check. */
#include "run_pacer.h"

#include "clock.h"

void run_pacer_init(struct run_pacer *p, const struct config *cfg,
                    int64_t zero_ns)
{
    run_pacer_start(p, cfg, cfg->rate, cfg->seed, zero_ns);
}

void run_pacer_start(struct run_pacer *p, const struct config *cfg, double rate,
                     uint64_t seed, int64_t zero_ns)
{
    arrival_init(&p->arrival, cfg->arrival == ARRIVAL_POISSON, rate, seed);
    if (cfg->burstiness > 0)
        arrival_set_burstiness(&p->arrival, cfg->burstiness);
    arrival_set_ramp(&p->arrival, (int64_t)(cfg->ramp_s * 1e9));
    p->zero_ns = zero_ns;
    p->step = 1;
    p->next_due_ns = zero_ns + arrival_next(&p->arrival);
}

void run_pacer_start_list(struct run_pacer *p, const int64_t *at_ns, uint64_t n,
                          int64_t zero_ns)
{
    arrival_init(&p->arrival, false, 1, 0);
    arrival_set_list(&p->arrival, at_ns, n);
    p->zero_ns = zero_ns;
    p->step = 1;
    p->next_due_ns = zero_ns + arrival_next(&p->arrival);
}

bool run_pacer_due(const struct run_pacer *p, int64_t now_ns)
{
    return p->next_due_ns <= now_ns;
}

void run_pacer_keep_shard(struct run_pacer *p, uint32_t i, uint32_t n)
{
    if (n <= 1)
        return;
    for (uint32_t k = 0; k < i; k++)
        p->next_due_ns = p->zero_ns + arrival_next(&p->arrival);
    p->step = n;
}

void run_pacer_advance(struct run_pacer *p)
{
    /* every arrival is drawn, so a shard's times are the global ones */
    for (uint32_t k = 0; k < (p->step ? p->step : 1); k++)
        p->next_due_ns = p->zero_ns + arrival_next(&p->arrival);
}

int64_t run_pacer_wait_ns(const struct run_pacer *p, int64_t now_ns,
                          bool at_cap)
{
    int64_t wait_ns = at_cap ? RUN_PACER_CAP_WAIT_NS : p->next_due_ns - now_ns;
    return wait_ns < 0 ? 0 : wait_ns;
}

int run_timer_after(struct event *ev, int64_t wait_ns)
{
    struct timeval tv;
    if (wait_ns < 0)
        wait_ns = 0;
    tv.tv_sec = (time_t)(wait_ns / 1000000000);
    tv.tv_usec = (suseconds_t)((wait_ns % 1000000000) / 1000);
    return evtimer_add(ev, &tv);
}

int run_timer_at(struct event *ev, int64_t due_ns)
{
    int64_t wait_ns = due_ns - clock_mono_ns();
    if (wait_ns < 0)
        wait_ns = 0;
    return run_timer_after(ev, wait_ns + 999);
}

bool run_timer_idle(const struct transfer *t, int64_t now_ns, int64_t idle_ns)
{
    int64_t last =
        t->last_activity_ns > t->start_ns ? t->last_activity_ns : t->start_ns;
    return now_ns - last >= idle_ns;
}
