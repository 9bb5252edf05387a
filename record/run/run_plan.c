/* run_plan: the run's schedule shape, in-flight cap (--ramp too) and
 * planned counts. */
#include "run_plan.h"

#include <math.h>
#include <unistd.h>

#include "arrival.h"
#include "run_session.h"

double run_plan_schedule(const struct run_setup *s, struct schedule *sched)
{
    const struct config *c = s->cfg;
    double rate = c->rate;
    sched->n_models = c->n_models;
    sched->n_classes = s->wl->n_classes;
    sched->warmup = c->warmup;
    sched->rounds = c->n;
    sched->unbounded = c->duration_s > 0 && !c->n_given;
    if (s->arrivals) {
        /* an open loop whose times come from the file; the rate is only
         * its mean (for the paths that ask "open loop?") */
        const struct arrivals_file *a = s->arrivals;
        int64_t span = a->n ? a->at_ns[a->n - 1] : 0;
        rate = span > 0 ? (double)a->n / ((double)span / 1e9) : 1;
        sched->rounds = a->n;
        sched->unbounded = false;
    }
    return rate;
}

uint64_t run_plan_max_inflight(const struct run_setup *s, double rate,
                               uint64_t inflight_cap)
{
    const struct config *c = s->cfg;
    /* open loop: at most -c in flight when given with -r, else what the
     * open-file limit allows */
    uint64_t n = c->rate > 0 || c->sweep.mode == SWEEP_RATE || s->arrivals
                     ? (c->concurrency_given ? c->concurrency : inflight_cap)
                     : c->concurrency;
    /* --shard: this shard's part of the concurrency, so the shares sum
     * to -c */
    if (c->shard.count > 1 && (c->concurrency_given || rate <= 0))
        n = cli_shard_share(&c->shard, n);
    return n;
}

uint64_t run_plan_lanes(const struct run_setup *s, uint64_t c)
{
    const struct config *cfg = s->cfg;
    bool open = cfg->rate > 0 || cfg->sweep.mode == SWEEP_RATE || s->arrivals;
    return open ? 0 : c;
}

/* Of the n first requests of the global schedule, how many are this
 * shard's (open loop: k % N == I); UINT64_MAX stays unknown. */
static uint64_t run_plan_shard_part(const struct config *c, uint64_t n)
{
    return cli_shard_part(&c->shard, 0, n);
}

/* Whether the progress line is drawn: not with -q; with --progress always,
 * or on a terminal by default. */
static bool run_plan_progress_shown(const struct config *c)
{
    return !c->quiet && (c->progress == PROGRESS_ALWAYS ||
                         (c->progress == PROGRESS_AUTO && isatty(2)));
}

/* True when the workload has a session item. */
static bool run_plan_has_sessions(const struct workload *wl)
{
    for (size_t i = 0; i < wl->n_classes; i++)
        for (size_t j = 0; j < wl->classes[i].n_items; j++)
            if (wl->classes[i].items[j].session)
                return true;
    return false;
}

bool run_plan_precise_timers(const struct run_setup *s)
{
    const struct config *c = s->cfg;
    return c->rate > 0 || c->sweep.mode == SWEEP_RATE || s->arrivals ||
           run_plan_has_sessions(s->wl);
}

/* The sends an open loop bounded by --duration plans: its own seeded
 * arrivals counted up to the end (a Poisson schedule is not rate x
 * duration), or rate x duration when that would take too long to count. */
static uint64_t count_sends(const struct config *c)
{
    struct arrival a;
    int64_t end_ns = (int64_t)(c->duration_s * 1e9);
    uint64_t n = 0;
    if (c->rate * c->duration_s > 1e7)
        return run_plan_shard_part(c,
                                   (uint64_t)(c->rate * c->duration_s + 0.5));
    arrival_init(&a, c->arrival == ARRIVAL_POISSON, c->rate, c->seed);
    if (c->burstiness > 0)
        arrival_set_burstiness(&a, c->burstiness);
    arrival_set_ramp(&a, (int64_t)(c->ramp_s * 1e9));
    while (arrival_next(&a) < end_ns)
        n++;
    return run_plan_shard_part(c, n);
}

uint64_t run_plan_planned_sends(const struct config *c,
                                const struct schedule *sched)
{
    /* only for a line that is drawn */
    if (run_plan_progress_shown(c) && c->rate > 0 && c->duration_s > 0 &&
        !c->sweep.n && schedule_total(sched) == UINT64_MAX)
        return count_sends(c);
    return UINT64_MAX;
}

/* The requests of this shard's part (per_stage slots of total): with a
 * session workload, every slot's turns; per_stage when the count is
 * unknown or too long to add up. */
static uint64_t session_requests(const struct schedule *sched,
                                 const struct workload *wl,
                                 const struct cli_shard *sh, uint64_t lanes,
                                 uint64_t total, uint64_t per_stage)
{
    struct schedule_slot slot;
    uint64_t n = 0;
    if (!run_plan_has_sessions(wl) || total == UINT64_MAX || total > 10000000)
        return per_stage;
    for (uint64_t k = cli_shard_first(sh, lanes); k < total;
         k = cli_shard_next(sh, lanes, k)) {
        const struct workload_session *ws;
        if (!schedule_slot(sched, k, &slot))
            break;
        ws = run_session_of_slot(wl, &slot);
        n += ws ? ws->n_turns : 1;
    }
    return n;
}

void run_plan_progress(struct progress *p, const struct config *c,
                       const struct schedule *sched, const struct workload *wl,
                       uint64_t lanes, uint64_t planned, int64_t mono_zero)
{
    bool show = run_plan_progress_shown(c);
    uint64_t total = schedule_total(sched);
    uint64_t per_stage = cli_shard_part(&c->shard, lanes, total);
    int64_t end_ns = -1;
    if (c->sweep.n) {
        /* every stage runs the schedule; stages end by count or time */
        if (c->search.mode != SWEEP_NONE)
            total = UINT64_MAX; /* the search picks its probes */
        if (total != UINT64_MAX)
            total =
                total * c->sweep.n - c->warmup * c->n_models * (c->sweep.n - 1);
        progress_init(p, show, run_plan_shard_part(c, total), mono_zero);
        if (c->duration_s > 0)
            end_ns =
                mono_zero + (int64_t)(c->duration_s * 1e9 * (double)c->sweep.n);
        progress_set_plan(p, UINT64_MAX, end_ns);
        return;
    }
    /* a shard counts its own requests; the ETA is the global schedule's */
    progress_init(
        p, show,
        session_requests(sched, wl, &c->shard, lanes, total, per_stage),
        mono_zero);
    /* the ETA: open loop ends with its schedule (total / rate, or the
     * duration), a closed loop when its count is done or the duration */
    if (c->duration_s > 0)
        end_ns = mono_zero + (int64_t)(c->duration_s * 1e9);
    if (c->rate > 0 && total != UINT64_MAX) {
        int64_t sched_end =
            mono_zero + (int64_t)((double)total / c->rate * 1e9);
        if (end_ns < 0 || sched_end < end_ns)
            end_ns = sched_end;
    }
    progress_set_plan(p, planned, end_ns);
}

uint64_t run_plan_ramp_allowed(uint64_t n, int64_t ramp_ns, int64_t zero_ns,
                               int64_t now_ns, int64_t *next_ns)
{
    int64_t since;
    uint64_t k;
    *next_ns = -1;
    if (ramp_ns <= 0 || n == 0)
        return n;
    since = now_ns - zero_ns;
    if (since >= ramp_ns)
        return n;
    k = 1 + (uint64_t)((double)n * (double)since / (double)ramp_ns);
    if (k >= n)
        return n;
    *next_ns = zero_ns + (int64_t)ceil((double)k * (double)ramp_ns / (double)n);
    return k;
}
