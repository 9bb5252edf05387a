/* capacity_calc: each stage's steady-state window, its numbers, whether
 * the recorder limited it, and whether it meets the SLO. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capacity.h"
#include "stage_window.h"
#include "summary_output.h"

static int cmp_rows(const void *a, const void *b)
{
    const struct cap_row *x = a, *y = b;
    if (x->trace != y->trace)
        return x->trace < y->trace ? -1 : 1;
    if (x->stage != y->stage)
        return x->stage < y->stage ? -1 : 1;
    return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

/* Marks the transient requests of rows[0..n) (one stage) by the shared
 * rule (analyze/load/stage_window.h) and returns the steady window in
 * *from / *to. Returns 0 or STATS_E_NOMEM. */
static int mark_transient(struct cap_row *rows, size_t n, int64_t ramp_end,
                          int64_t *from, int64_t *to)
{
    struct stage_span *spans = malloc((n ? n : 1) * sizeof *spans);
    size_t i;
    if (!spans)
        return STATS_E_NOMEM;
    for (i = 0; i < n; i++) {
        spans[i].start_ns = rows[i].start_ns;
        spans[i].end_ns = rows[i].end_ns;
    }
    stage_window_mark(spans, n, ramp_end, from, to);
    for (i = 0; i < n; i++)
        rows[i].transient = spans[i].transient;
    free(spans);
    return STATS_OK;
}

enum row_field { F_TTFT, F_TPOT, F_LATENCY, F_ITL_P50 };

static double row_value(const struct cap_row *r, enum row_field f)
{
    switch (f) {
    case F_TTFT:
        return r->ttft_ms;
    case F_TPOT:
        return r->tpot_ms;
    case F_LATENCY:
        return r->latency_ms;
    case F_ITL_P50:
        return r->itl_p50_ms;
    }
    return NAN;
}

/* Summarizes field f of the ok rows st uses. */
static int summarize(const struct cap_set *s, const struct cap_stage *st,
                     enum row_field f, struct stats_summary *out)
{
    double *v = malloc((st->n ? st->n : 1) * sizeof *v);
    size_t k = 0, i;
    if (!v)
        return STATS_E_NOMEM;
    for (i = 0; i < st->n; i++) {
        const struct cap_row *r = &s->rows[st->first + i];
        if (r->ok && (s->opt.include_transient || !r->transient))
            v[k++] = row_value(r, f);
    }
    stats_summarize(v, k, out);
    free(v);
    return STATS_OK;
}

/* The stage's name, mode and load from its trace's stage records. */
static void describe(const struct cap_set *s, struct cap_stage *st)
{
    const struct trace_info *t =
        st->trace < s->n_traces ? s->traces[st->trace] : NULL;
    const struct stage_info *si = trace_info_stage(t, st->id);
    stage_info_name(t, st->id, st->name, sizeof st->name);
    st->load = NAN;
    st->loop_lag_p99_ms = st->cpu_share = NAN;
    st->ramp_end_ns = -1;
    if (!si)
        return;
    if (si->ramp_ns > 0 && si->start_ns >= 0)
        st->ramp_end_ns = si->start_ns + si->ramp_ns;
    snprintf(st->mode, sizeof st->mode, "%s", si->mode);
    st->load = si->load;
    if (si->loop_lag_samples > 0 && si->loop_lag_p99_ns >= 0)
        st->loop_lag_p99_ms = (double)si->loop_lag_p99_ns / 1e6;
    if (si->cpu_ns >= 0 && si->end_ns > si->start_ns)
        st->cpu_share =
            (double)si->cpu_ns / (double)(si->end_ns - si->start_ns);
}

/* Whether the recorder, not the server, limited the stage: says why in
 * invalid_reason. */
static void judge_client(const struct cap_set *s, struct cap_stage *st)
{
    const struct cap_options *o = &s->opt;
    const struct trace_info *t =
        st->trace < s->n_traces ? s->traces[st->trace] : NULL;
    st->valid = true;
    st->invalid_reason[0] = '\0';
    st->kernel_times = t && summary_kernel_times(t);
    if (st->steady == 0) {
        st->valid = false;
        snprintf(st->invalid_reason, sizeof st->invalid_reason,
                 "no steady-state request (give the stage more requests: "
                 "about 4x its concurrency or more)");
    } else if (!isnan(st->client_lag_p99_ms) &&
               st->client_lag_p99_ms > o->max_send_lag_ms) {
        st->valid = false;
        snprintf(st->invalid_reason, sizeof st->invalid_reason,
                 "recorder send lag p99 %.3g ms is above %.3g ms: the client "
                 "could not keep the schedule",
                 st->client_lag_p99_ms, o->max_send_lag_ms);
    } else if (!isnan(st->cpu_share) && st->cpu_share > o->max_cpu) {
        st->valid = false;
        snprintf(st->invalid_reason, sizeof st->invalid_reason,
                 "recorder CPU %.0f%% of a core is above %.0f%%: the client "
                 "was saturated",
                 st->cpu_share * 100, o->max_cpu * 100);
    } else if (st->kernel_times) {
        /* kernel chunk times: the loop's lag is not in them (the
         * summary's self-check rule); only reads merged late are. The
         * receive lag is the trace's: a stage is charged with it when
         * its own loop lag is over --max-loop-lag-share of its ITL p50
         * too, as libcurl hands chunks over only when the loop runs */
        if (summary_reads_merged_at(t, st->itl_p50_ms) &&
            !isnan(st->loop_lag_p99_ms) && !isnan(st->itl_p50_ms) &&
            st->loop_lag_p99_ms > o->loop_lag_share * st->itl_p50_ms) {
            st->valid = false;
            snprintf(st->invalid_reason, sizeof st->invalid_reason,
                     "reads merged: chunks handed over %.3g ms late (the "
                     "trace's receive lag p99), loop lag p99 %.3g ms here, "
                     "ITL p50 %.3g ms",
                     (double)t->receive_lag_p99_ns / 1e6, st->loop_lag_p99_ms,
                     st->itl_p50_ms);
        }
    } else if (!isnan(st->loop_lag_p99_ms) && !isnan(st->itl_p50_ms) &&
               st->loop_lag_p99_ms > o->loop_lag_share * st->itl_p50_ms) {
        st->valid = false;
        snprintf(st->invalid_reason, sizeof st->invalid_reason,
                 "recorder event-loop lag p99 %.3g ms is above %.0f%% of the "
                 "ITL p50 %.3g ms: its timestamps describe the client",
                 st->loop_lag_p99_ms, o->loop_lag_share * 100, st->itl_p50_ms);
    }
}

/* Every number of one stage (its rows sorted by start). */
static int judge_stage(struct cap_set *s, struct cap_stage *st)
{
    struct cap_row *rows = s->rows + st->first;
    struct stats_summary tmp;
    int64_t from, to;
    size_t i;
    int rc;
    describe(s, st);
    if ((rc = mark_transient(rows, st->n, st->ramp_end_ns, &from, &to)))
        return rc;
    for (i = 0; i < st->n; i++) {
        bool used = s->opt.include_transient || !rows[i].transient;
        st->requests++;
        st->ok += rows[i].ok;
        st->transient += rows[i].transient;
        if (!used)
            continue;
        st->steady++;
        st->met += rows[i].met;
    }
    st->failed = st->requests - st->ok;
    if (s->opt.include_transient) {
        /* the whole stage: first start to last end */
        from = st->n ? rows[0].start_ns : -1;
        to = -1;
        for (i = 0; i < st->n; i++)
            if (rows[i].end_ns > to)
                to = rows[i].end_ns;
    }
    st->window_start_ns = from;
    st->window_end_ns = to;
    st->window_s = from >= 0 && to > from ? (double)(to - from) / 1e9 : NAN;
    st->attainment = st->steady ? (double)st->met / (double)st->steady : NAN;
    {
        /* the rates count every reply that ended inside the window, a
         * ramp-up request's too: the server delivered it at that load */
        uint64_t ok_in = 0, met_in = 0;
        for (i = 0; i < st->n; i++)
            if (rows[i].end_ns > from && rows[i].end_ns <= to) {
                ok_in += rows[i].ok;
                met_in += rows[i].met;
            }
        st->achieved_rps =
            st->window_s > 0 ? (double)ok_in / st->window_s : NAN;
        st->goodput_rps =
            st->window_s > 0 ? (double)met_in / st->window_s : NAN;
    }
    if ((rc = summarize(s, st, F_TTFT, &st->ttft)) ||
        (rc = summarize(s, st, F_TPOT, &st->tpot)) ||
        (rc = summarize(s, st, F_LATENCY, &st->latency)) ||
        (rc = summarize(s, st, F_ITL_P50, &tmp)))
        return rc;
    st->itl_p50_ms = tmp.p50;
    /* the client's lateness counts over every request it sent */
    {
        double *v = malloc((st->n ? st->n : 1) * sizeof *v);
        size_t k = 0;
        if (!v)
            return STATS_E_NOMEM;
        for (i = 0; i < st->n; i++)
            if (!isnan(rows[i].client_lag_ms))
                v[k++] = rows[i].client_lag_ms;
        stats_summarize(v, k, &tmp);
        st->client_lag_p99_ms = tmp.p99;
        free(v);
    }
    judge_client(s, st);
    st->pass = st->steady > 0 && st->attainment >= s->opt.attain;
    return STATS_OK;
}

/* Stages by trace, then load (unknown last), then id. */
static int cmp_stages(const void *a, const void *b)
{
    const struct cap_stage *x = a, *y = b;
    if (x->trace != y->trace)
        return x->trace < y->trace ? -1 : 1;
    if (isnan(x->load) != isnan(y->load))
        return isnan(x->load) ? 1 : -1;
    if (!isnan(x->load) && x->load != y->load)
        return x->load < y->load ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

int cap_set_judge(struct cap_set *s)
{
    size_t i, n = 0;
    if (s->n_rows > 1)
        qsort(s->rows, s->n_rows, sizeof *s->rows, cmp_rows);
    for (i = 0; i < s->n_rows; i++)
        if (i == 0 || s->rows[i].trace != s->rows[i - 1].trace ||
            s->rows[i].stage != s->rows[i - 1].stage)
            n++;
    free(s->stages);
    s->stages = calloc(n ? n : 1, sizeof *s->stages);
    if (!s->stages)
        return STATS_E_NOMEM;
    s->n_stages = 0;
    for (i = 0; i < s->n_rows; i++) {
        struct cap_stage *st;
        if (i && s->rows[i].trace == s->rows[i - 1].trace &&
            s->rows[i].stage == s->rows[i - 1].stage) {
            s->stages[s->n_stages - 1].n++;
            continue;
        }
        st = &s->stages[s->n_stages++];
        st->trace = s->rows[i].trace;
        st->id = s->rows[i].stage;
        st->first = i;
        st->n = 1;
    }
    for (i = 0; i < s->n_stages; i++) {
        int rc = judge_stage(s, &s->stages[i]);
        if (rc)
            return rc;
    }
    if (s->n_stages > 1)
        qsort(s->stages, s->n_stages, sizeof *s->stages, cmp_stages);
    for (i = 1; i < s->n_stages; i++)
        if (s->stages[i].mode[0] && s->stages[0].mode[0] &&
            strcmp(s->stages[i].mode, s->stages[0].mode) != 0)
            s->mixed_modes = true;
    return STATS_OK;
}
