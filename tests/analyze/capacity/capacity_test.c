/* capacity_test: the capacity judgement on hand-made stages: which
 * requests are ramp-up or drain, the window and goodput, a stage the
 * recorder limited, the knee (an unbroken run of passes from the
 * lightest) and its bootstrap interval. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capacity.h"
#include "check.h"

#define MS 1000000LL

/* One request: stage, start and end in ms, ok, TTFT ms. */
struct req {
    uint32_t stage;
    int64_t start_ms, end_ms;
    bool ok;
    double ttft_ms;
};

/* Adds rows as cap_collect would (SLO: TTFT <= 100 ms). */
static void add(struct cap_set *s, const struct req *r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct cap_row *w;
        if (s->n_rows == s->cap_rows) {
            s->cap_rows = s->cap_rows ? 2 * s->cap_rows : 64;
            s->rows = realloc(s->rows, s->cap_rows * sizeof *s->rows);
        }
        w = &s->rows[s->n_rows++];
        memset(w, 0, sizeof *w);
        w->stage = r[i].stage;
        w->start_ns = r[i].start_ms * MS;
        w->end_ns = r[i].end_ms * MS;
        w->ok = r[i].ok;
        w->ttft_ms = r[i].ok ? r[i].ttft_ms : NAN;
        w->tpot_ms = w->latency_ms = NAN;
        w->itl_p50_ms = 10;
        w->client_lag_ms = NAN;
        w->met = r[i].ok && r[i].ttft_ms <= 100;
    }
}

/* One trace whose stages 1..n are concurrency loads[i]. */
static struct trace_info **one_trace(const double *loads, size_t n,
                                     const int64_t *lag_p99_ms)
{
    struct trace_info **t = calloc(1, sizeof *t);
    t[0] = calloc(1, sizeof **t);
    t[0]->stages = calloc(n, sizeof *t[0]->stages);
    t[0]->n_stages = n;
    for (size_t i = 0; i < n; i++) {
        struct stage_info *st = &t[0]->stages[i];
        st->id = (uint32_t)i + 1;
        snprintf(st->mode, sizeof st->mode, "concurrency");
        st->load = loads[i];
        st->start_ns = 0;
        st->end_ns = 1000 * MS;
        st->cpu_ns = 10 * MS;
        st->loop_lag_samples = 20;
        st->loop_lag_p99_ns = lag_p99_ms ? lag_p99_ms[i] * MS : 0;
    }
    return t;
}

static struct cap_options options(void)
{
    struct cap_options o = {.attain = 0.99,
                            .max_send_lag_ms = 10,
                            .max_cpu = 0.9,
                            .loop_lag_share = 0.1,
                            .seed = 1,
                            .resamples = 200};
    slo_parse("ttft=100ms", &o.slo, NULL, 0);
    return o;
}

/* A stage at concurrency 1: one after the other, 100 ms each. The first
 * started before any ended (ramp-up); none ends after the last send's
 * reply, so nothing drains. */
static void test_closed_one(void)
{
    static const struct req r[] = {
        {1, 0, 100, true, 50},   {1, 100, 200, true, 50},
        {1, 200, 300, true, 50}, {1, 300, 400, true, 50},
        {1, 400, 500, true, 50},
    };
    static const double loads[] = {1};
    struct cap_options o = options();
    struct cap_set s;
    cap_set_init(&s, &o);
    add(&s, r, 5);
    s.traces = one_trace(loads, 1, NULL);
    s.n_traces = 1;
    CHECK(cap_set_judge(&s) == 0 && s.n_stages == 1);
    CHECK(s.rows[0].transient && !s.rows[1].transient && !s.rows[4].transient);
    CHECK(s.stages[0].transient == 1 && s.stages[0].steady == 4);
    /* window from the first end (100) to the last send's end (500) */
    CHECK(fabs(s.stages[0].window_s - 0.4) < 1e-9);
    CHECK(fabs(s.stages[0].achieved_rps - 10) < 1e-9);
    CHECK(s.stages[0].pass && s.stages[0].valid);
    CHECK(strcmp(s.stages[0].name, "concurrency=1") == 0);
    cap_set_free(&s);
}

/* Concurrency 2: the two first start together (ramp-up); after the last
 * send (at 200) the first reply to end is at 250: a request ending later
 * drains. A failed steady request counts against attainment and
 * goodput. */
static void test_drain_and_failures(void)
{
    static const struct req r[] = {
        {1, 0, 100, true, 50},   {1, 0, 150, true, 50},
        {1, 100, 250, false, 0}, {1, 150, 260, true, 50},
        {1, 200, 300, true, 50},
    };
    static const double loads[] = {2};
    struct cap_options o = options();
    struct cap_set s;
    cap_set_init(&s, &o);
    add(&s, r, 5);
    s.traces = one_trace(loads, 1, NULL);
    s.n_traces = 1;
    CHECK(cap_set_judge(&s) == 0);
    /* sorted by start: 0, 0, 100, 150, 200 */
    CHECK(s.rows[0].transient && s.rows[1].transient);
    CHECK(!s.rows[2].transient); /* ends at 250: the first */
    CHECK(s.rows[3].transient && s.rows[4].transient); /* after 250 */
    CHECK(s.stages[0].steady == 1 && s.stages[0].met == 0);
    CHECK(s.stages[0].attainment == 0 && !s.stages[0].pass);
    /* the window (100, 250] holds two replies: one met, one failed */
    CHECK(fabs(s.stages[0].goodput_rps - 1 / 0.15) < 1e-9);
    CHECK(fabs(s.stages[0].achieved_rps - 1 / 0.15) < 1e-9);
    /* --include-transient keeps them all */
    cap_set_free(&s);
    o.include_transient = true;
    cap_set_init(&s, &o);
    add(&s, r, 5);
    s.traces = one_trace(loads, 1, NULL);
    s.n_traces = 1;
    CHECK(cap_set_judge(&s) == 0);
    CHECK(s.stages[0].steady == 5 && s.stages[0].met == 4);
    CHECK(fabs(s.stages[0].attainment - 0.8) < 1e-9);
    cap_set_free(&s);
}

/* Four stages, loads 1, 2, 4, 8: 1 and 2 pass, 4 breaks, 8 passes again
 * (noise): the knee is 2, never 8. A stage whose event-loop lag is above
 * 10% of its ITL p50 is invalid and skipped: with stage 2 invalid the
 * knee is 1. */
static void stages(struct cap_set *s, const int64_t *lag)
{
    static const double loads[] = {1, 2, 4, 8};
    struct req r[4 * 12];
    size_t n = 0;
    for (uint32_t st = 1; st <= 4; st++)
        for (int i = 0; i < 12; i++) {
            r[n].stage = st;
            r[n].start_ms = i * 10;
            r[n].end_ms = i * 10 + 5;
            r[n].ok = true;
            r[n].ttft_ms = st == 3 ? 500 : 50;
            n++;
        }
    add(s, r, n);
    s->traces = one_trace(loads, 4, lag);
    s->n_traces = 1;
}

static void test_knee(void)
{
    static const int64_t lag[] = {0, 5, 0, 0}; /* 5 ms > 10% of 10 ms */
    struct cap_options o = options();
    struct cap_set s;
    cap_set_init(&s, &o);
    stages(&s, NULL);
    CHECK(cap_set_judge(&s) == 0 && cap_set_knee(&s) == 0);
    CHECK(s.n_stages == 4 && s.knee == 1 && !s.all_pass);
    CHECK(s.stages[3].pass); /* the noisy pass beyond the break */
    /* every resample passes 1 and 2 and breaks 4: the interval is [2, 2] */
    CHECK(s.knee_lo == 2 && s.knee_hi == 2);
    CHECK(s.attain_lo == 1 && s.attain_hi == 1);
    cap_set_free(&s);

    cap_set_init(&s, &o);
    stages(&s, lag);
    CHECK(cap_set_judge(&s) == 0 && cap_set_knee(&s) == 0);
    CHECK(!s.stages[1].valid &&
          strstr(s.stages[1].invalid_reason, "event-loop lag") != NULL);
    /* 2 is left out: 1 passes, 4 breaks */
    CHECK(s.knee == 0);
    cap_set_free(&s);
}

int main(void)
{
    test_closed_one();
    test_drain_and_failures();
    test_knee();
    return CHECK_DONE();
}
