/* run_search: double, then bisect, within a budget of probes. */
#include "run_search.h"

#include <math.h>

void run_search_init(struct run_search *s, const struct cli_search *cfg)
{
    s->cfg = *cfg;
    s->lo = s->hi = NAN;
    s->probes = 0;
}

/* The midpoint of lo and hi (a whole number for concurrency). */
static double midpoint(const struct run_search *s)
{
    double m = (s->lo + s->hi) / 2;
    return s->cfg.mode == SWEEP_CONCURRENCY ? floor(m) : m;
}

/* True when lo and hi are close enough to stop. */
static bool narrow(const struct run_search *s)
{
    if (s->cfg.mode == SWEEP_CONCURRENCY)
        return s->hi - s->lo <= 1;
    return s->hi - s->lo <= s->cfg.precision * s->lo;
}

bool run_search_next(struct run_search *s, double load, bool pass, double *next)
{
    double max = s->cfg.mode == SWEEP_CONCURRENCY ? 100000 : 1e6;
    double min = s->cfg.mode == SWEEP_CONCURRENCY ? 1 : s->cfg.start / 1024;
    s->probes++;
    if (pass && (isnan(s->lo) || load > s->lo))
        s->lo = load;
    if (!pass && (isnan(s->hi) || load < s->hi))
        s->hi = load;
    if (s->probes >= s->cfg.max_stages)
        return false;
    if (isnan(s->hi)) /* nothing broke yet: double */
        *next = load * 2;
    else if (isnan(s->lo)) /* everything broke so far: halve */
        *next = s->cfg.mode == SWEEP_CONCURRENCY ? floor(load / 2) : load / 2;
    else if (narrow(s))
        return false;
    else
        *next = midpoint(s);
    return *next >= min && *next <= max && *next != load;
}

bool run_search_passed(const struct cli_search *cfg, uint64_t met,
                       uint64_t judged)
{
    return judged > 0 && (double)met >= cfg->attain * (double)judged;
}

void run_search_count(const struct cli_search *cfg, const struct transfer *t,
                      const struct trace_result *res, uint64_t *judged,
                      uint64_t *met)
{
    int64_t from = t->scheduled_ns >= 0 ? t->scheduled_ns : t->start_ns;
    bool ok = !res->error_kind || !res->error_kind[0];
    if (cfg->mode == SWEEP_NONE || t->warmup)
        return;
    (*judged)++;
    if (ok && t->rx.stream.first_token_ns >= 0 &&
        (double)(t->rx.stream.first_token_ns - from) <= cfg->ttft_ms * 1e6)
        (*met)++;
}
