/* trend_calc: collects requests into period x model x class rows. */
#include "trend.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "groups.h"
#include "week.h"

const struct trend_metric_def trend_metrics[TR_COUNT] = {
    [TR_TTFT] = {"ttft_ms", "TTFT"},
    [TR_TPOT] = {"tpot_ms", "TPOT"},
    [TR_LATENCY] = {"latency_ms", "latency"},
};

void trend_init(struct trend_set *set, bool by_week, bool measured_class)
{
    memset(set, 0, sizeof(*set));
    set->by_week = by_week;
    set->measured_class = measured_class;
}

/* The UTC period of a request's start: real_zero_ns + (start_ns -
 * mono_zero_ns) ("unknown" when the trace has no wall-clock zero). */
static void trend_period(const struct request_metrics *m, bool by_week,
                         char *out, size_t size)
{
    const struct trace_info *t = m->trace;
    int64_t wall;
    if (t->real_zero_ns <= 0) {
        snprintf(out, size, "unknown");
        return;
    }
    wall = t->real_zero_ns;
    if (m->start_ns >= 0) {
        int64_t since;
        /* Crafted clock zeros near the int64 limits must not overflow: such
         * a request's period is unknown rather than a wrapped date. */
        if (__builtin_sub_overflow(m->start_ns, t->mono_zero_ns, &since) ||
            __builtin_add_overflow(wall, since, &wall) || wall < 0) {
            snprintf(out, size, "unknown");
            return;
        }
    }
    week_format_period(wall, by_week, out, size);
}

static bool row_is(const struct trend_row *r, const char *period,
                   const char *model, const char *cls, const char *api)
{
    return strcmp(r->period, period) == 0 && strcmp(r->model, model) == 0 &&
           strcmp(r->class_name, cls) == 0 && strcmp(r->api, api) == 0;
}

static void row_free(struct trend_row *r)
{
    if (!r)
        return;
    free(r->period);
    free(r->model);
    free(r->class_name);
    free(r->api);
    free(r->traces);
    for (int i = 0; i < TR_COUNT; i++)
        stats_vec_free(&r->v[i]);
    free(r);
}

static struct trend_row *find_row(struct trend_set *set, const char *period,
                                  const char *model, const char *cls,
                                  const char *api)
{
    struct trend_row *r, **p;
    char key[2048];
    size_t k, len;
    uint64_t hash;
    if (set->last && row_is(set->last, period, model, cls, api))
        return set->last;
    const char *const vals[4] = {period, model, cls, api};
    len = group_index_key(vals, 4, key, sizeof(key));
    hash = group_index_hash(GROUP_INDEX_HASH_INIT, key, len);
    if (group_index_get(&set->index, hash, NULL, key, &k) &&
        row_is(set->rows[k], period, model, cls, api))
        return set->last = set->rows[k];
    r = calloc(1, sizeof(*r));
    p = realloc(set->rows, (set->n_rows + 1) * sizeof(*p));
    if (p)
        set->rows = p;
    if (!r || !p ||
        group_index_put(&set->index, hash, NULL, key, set->n_rows) != 0)
        goto fail;
    r->period = strdup(period);
    r->model = strdup(model);
    r->class_name = strdup(cls);
    r->api = strdup(api);
    if (!r->period || !r->model || !r->class_name || !r->api)
        goto fail;
    for (int i = 0; i < TR_COUNT; i++)
        stats_vec_init(&r->v[i], 0);
    set->rows[set->n_rows++] = r;
    return set->last = r;
fail:
    row_free(r);
    return NULL;
}

static int note_trace(struct trend_row *r, unsigned index)
{
    unsigned *p;
    for (size_t i = 0; i < r->n_traces; i++)
        if (r->traces[i] == index)
            return 0;
    p = realloc(r->traces, (r->n_traces + 1) * sizeof(*p));
    if (!p)
        return -1;
    r->traces = p;
    p[r->n_traces++] = index;
    return 0;
}

uint64_t trend_row_failed(const struct trend_row *r)
{
    return r->requests - r->ok - r->interrupted;
}

/* request_sink: adds a request to its row (warmup requests are left out). */
static int trend_add(void *ctx, const struct request_metrics *m)
{
    struct trend_set *set = ctx;
    struct trend_row *r;
    char period[32];
    const double vals[TR_COUNT] = {m->ttft_ms, m->tpot_ms, m->latency_ms};
    if (m->warmup)
        return 0;
    trend_period(m, set->by_week, period, sizeof(period));
    r = find_row(set, period, m->model,
                 set->measured_class ? m->measured_class : m->class_name,
                 m->trace->api ? m->trace->api : "unknown");
    if (!r || note_trace(r, m->trace->index)) {
        set->nomem = true;
        return -1;
    }
    r->requests++;
    if (metrics_outcome(m) == METRICS_OUTCOME_INTERRUPTED)
        r->interrupted++;
    if (!m->ok)
        return 0;
    r->ok++;
    for (int i = 0; i < TR_COUNT; i++)
        if (!isnan(vals[i]) &&
            stats_vec_push(&r->v[i], vals[i]) == STATS_E_NOMEM) {
            set->nomem = true;
            return -1;
        }
    return 0;
}

int trend_load(struct trend_set *set, char **paths, size_t n_paths,
               const struct load_options *opt)
{
    int rc = load_trace_files(paths, n_paths, opt, trend_add, NULL, set,
                              &set->traces, &set->n_traces);
    return set->nomem ? -1 : rc;
}

static int cmp_rows(const void *a, const void *b)
{
    const struct trend_row *x = *(struct trend_row *const *)a;
    const struct trend_row *y = *(struct trend_row *const *)b;
    int c = strcmp(x->period, y->period);
    if (!c)
        c = strcmp(x->model, y->model);
    if (!c)
        c = class_name_cmp(x->class_name, y->class_name);
    if (!c)
        c = strcmp(x->api, y->api);
    return c;
}

/* Recording time first; the reading order breaks ties. */
static int cmp_traces(const void *a, const void *b)
{
    const struct trace_info *x = *(struct trace_info *const *)a;
    const struct trace_info *y = *(struct trace_info *const *)b;
    if (x->real_zero_ns != y->real_zero_ns)
        return x->real_zero_ns < y->real_zero_ns ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

static int cmp_unsigned(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

int trend_finish(struct trend_set *set)
{
    if (set->n_rows > 1)
        qsort(set->rows, set->n_rows, sizeof(*set->rows), cmp_rows);
    for (size_t i = 0; i < set->n_rows; i++) {
        struct trend_row *r = set->rows[i];
        if (r->n_traces > 1)
            qsort(r->traces, r->n_traces, sizeof(*r->traces), cmp_unsigned);
        for (int k = 0; k < TR_COUNT; k++)
            stats_summarize(r->v[k].v, r->v[k].n, &r->sum[k]);
        set->mixed_api |= strcmp(r->api, set->rows[0]->api) != 0;
    }
    if (set->n_traces == 0)
        return 0;
    set->by_time = malloc(set->n_traces * sizeof(*set->by_time));
    if (!set->by_time)
        return -1;
    memcpy(set->by_time, set->traces, set->n_traces * sizeof(*set->by_time));
    qsort(set->by_time, set->n_traces, sizeof(*set->by_time), cmp_traces);
    return 0;
}

void trend_free(struct trend_set *set)
{
    for (size_t i = 0; i < set->n_rows; i++)
        row_free(set->rows[i]);
    free(set->rows);
    free(set->by_time);
    group_index_free(&set->index);
    load_free_infos(set->traces, set->n_traces);
    memset(set, 0, sizeof(*set));
}

int trend_series_cmp(const struct trend_row *a, const struct trend_row *b)
{
    int c = strcmp(a->model, b->model);
    if (!c)
        c = strcmp(a->class_name, b->class_name);
    if (!c)
        c = strcmp(a->api ? a->api : "", b->api ? b->api : "");
    return c;
}

/* A row and its place in the set. */
struct row_at {
    const struct trend_row *r;
    size_t at;
};

/* qsort order: by series (model, class, API kind), then by place. */
static int by_series_at(const void *pa, const void *pb)
{
    const struct row_at *a = pa, *b = pb;
    int c = trend_series_cmp(a->r, b->r);
    return c ? c : (a->at < b->at ? -1 : a->at > b->at);
}

const struct trend_row **trend_previous_all(const struct trend_set *set)
{
    size_t n = set->n_rows;
    struct row_at *v = malloc((n + 1) * sizeof(*v));
    const struct trend_row **prev = calloc(n + 1, sizeof(*prev));
    if (!v || !prev) {
        free(v);
        free(prev);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        v[i] = (struct row_at){set->rows[i], i};
    qsort(v, n, sizeof(*v), by_series_at);
    for (size_t i = 1; i < n; i++)
        if (trend_series_cmp(v[i - 1].r, v[i].r) == 0)
            prev[v[i].at] = v[i - 1].r;
    free(v);
    return prev;
}

double trend_change_pct(const struct trend_row *r, const struct trend_row *prev,
                        int m, int q)
{
    double now, before;
    if (!prev || !r->sum[m].n || !prev->sum[m].n)
        return NAN;
    now = q == 99 ? r->sum[m].p99 : r->sum[m].p50;
    before = q == 99 ? prev->sum[m].p99 : prev->sum[m].p50;
    return before > 0 ? (now - before) / before * 100 : NAN;
}
