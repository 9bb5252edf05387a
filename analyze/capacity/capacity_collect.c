/* capacity_collect: the load sink of `capacity`: one row per request of a
 * stage, with its SLO verdict measured from the intended send. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capacity.h"

void cap_set_init(struct cap_set *s, const struct cap_options *opt)
{
    memset(s, 0, sizeof *s);
    s->opt = *opt;
    s->knee = -1;
    s->knee_lo = s->knee_hi = s->attain_lo = s->attain_hi = NAN;
}

/* value within limit; no limit always passes, an undefined value never. */
static bool within(double value, double limit)
{
    return isnan(limit) || (!isnan(value) && value <= limit);
}

int cap_collect(void *ctx, const struct request_metrics *m)
{
    struct cap_set *s = ctx;
    struct cap_row *r;
    const struct slo *slo = &s->opt.slo;
    if (m->warmup || m->superseded)
        return 0;
    if (m->stage == 0) {
        s->no_stage++;
        return 0;
    }
    if (s->n_rows == s->cap_rows) {
        size_t cap = s->cap_rows ? s->cap_rows * 2 : 1024;
        struct cap_row *p;
        if (s->n_rows >= CAP_MAX_ROWS) {
            s->rows_dropped = true;
            return 0;
        }
        if (cap > CAP_MAX_ROWS)
            cap = CAP_MAX_ROWS;
        p = realloc(s->rows, cap * sizeof *p);
        if (!p) {
            s->rows_dropped = true;
            return 0;
        }
        s->rows = p;
        s->cap_rows = cap;
    }
    r = &s->rows[s->n_rows++];
    memset(r, 0, sizeof *r);
    r->trace = m->trace ? m->trace->index : 0;
    r->stage = m->stage;
    r->ok = m->ok;
    r->start_ns = m->start_ns;
    r->end_ns = m->end_ns;
    /* from the intended send: a queue in the client or at the cap counts */
    r->ttft_ms = m->open_loop ? m->response_ttft_ms : m->ttft_ms;
    r->latency_ms = m->open_loop ? m->response_latency_ms : m->latency_ms;
    r->tpot_ms = m->tpot_ms;
    r->itl_p50_ms = m->itl_p50_ms;
    r->client_lag_ms = m->open_loop ? m->client_lag_ms : NAN;
    if (!m->ok) {
        r->ttft_ms = r->latency_ms = r->tpot_ms = NAN;
        return 0;
    }
    r->met = within(r->ttft_ms, slo->ttft_ms) &&
             within(r->tpot_ms, slo->tpot_ms) &&
             within(r->latency_ms, slo->latency_ms) &&
             (isnan(m->itl_max_ms) || within(m->itl_max_ms, slo->itl_ms));
    return 0;
}

void cap_set_free(struct cap_set *s)
{
    if (!s)
        return;
    free(s->rows);
    free(s->stages);
    load_free_infos(s->traces, s->n_traces);
    memset(s, 0, sizeof *s);
}
