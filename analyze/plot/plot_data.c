/* plot_data: gathers per-request chart data while the traces load. */
#include "plot_data.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

/* Returns the number of name s, adding it when new (NULL: ""). Past
 * PLOT_MAX_NAMES names, new ones share "(other)". UINT32_MAX when out of
 * memory. */
static uint32_t intern(struct plot_names *names, const char *s)
{
    char **p;
    if (!s)
        s = "";
    for (size_t i = names->n; i-- > 0;)
        if (strcmp(names->v[i], s) == 0)
            return (uint32_t)i;
    if (names->n >= PLOT_MAX_NAMES)
        s = "(other)";
    for (size_t i = 0; i < names->n; i++)
        if (strcmp(names->v[i], s) == 0)
            return (uint32_t)i;
    p = realloc(names->v, (names->n + 1) * sizeof(*p));
    if (!p)
        return UINT32_MAX;
    names->v = p;
    if (!(p[names->n] = strdup(s)))
        return UINT32_MAX;
    return (uint32_t)names->n++;
}

/* The run start of the request's trace: its header's monotonic zero, else
 * the first start seen in it. */
static int64_t trace_zero(struct plot_data *d, const struct request_metrics *m)
{
    unsigned t = m->trace->index;
    if (t >= d->n_trace_zero) {
        int64_t *p = realloc(d->trace_zero_ns, (t + 1) * sizeof(*p));
        if (!p)
            return -1;
        for (size_t i = d->n_trace_zero; i <= t; i++)
            p[i] = -1;
        d->trace_zero_ns = p;
        d->n_trace_zero = t + 1;
    }
    if (d->trace_zero_ns[t] < 0)
        d->trace_zero_ns[t] =
            m->trace->mono_zero_ns > 0 ? m->trace->mono_zero_ns : m->start_ns;
    return d->trace_zero_ns[t];
}

/* Seconds from zero to t; NAN when either is unknown. */
static double since(int64_t zero, int64_t t)
{
    if (zero < 0 || t < 0)
        return NAN;
    return (double)(t - zero) / 1e9;
}

/* Adds w output tokens at second sec of model's throughput bins. */
static void add_tokens(struct plot_data *d, uint32_t model, double sec,
                       double w)
{
    struct stats_vec *v;
    size_t i;
    if (!(sec >= 0) || sec >= (double)PLOT_MAX_SECONDS)
        return;
    if (model >= d->n_tok_bins) {
        struct stats_vec *p = realloc(d->tok_bins, (model + 1) * sizeof(*p));
        if (!p)
            return;
        for (size_t k = d->n_tok_bins; k <= model; k++)
            stats_vec_init(&p[k], PLOT_MAX_SECONDS);
        d->tok_bins = p;
        d->n_tok_bins = model + 1;
    }
    v = &d->tok_bins[model];
    i = (size_t)sec;
    while (v->n <= i)
        if (stats_vec_push(v, 0) != STATS_OK)
            return;
    v->v[i] += w;
}

/* Spreads a request's output tokens over its token events, each in the
 * second bin of its own arrival time (usage counts larger than the events
 * are shared evenly). Without token times (out of memory) they all go to
 * the first token's second. */
static void add_throughput(struct plot_data *d, uint32_t model,
                           const struct request_metrics *m, int64_t zero)
{
    double events, total, w;
    if (!m->ok || m->first_token_ns < 0 || zero < 0)
        return;
    events = m->n_token_ns ? (double)m->n_token_ns : 1;
    total = m->output_tokens >= 0 ? (double)m->output_tokens : events;
    w = total / events;
    if (m->n_token_ns == 0)
        add_tokens(d, model, since(zero, m->first_token_ns), w);
    for (size_t i = 0; i < m->n_token_ns; i++)
        add_tokens(d, model, since(zero, m->token_ns[i]), w);
}

static const char *base_name(const char *path);

static bool same_str(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "") == 0;
}

/* The series name of m's model under --by trace: "MODEL (FILE)", with
 * the trace's number when its file name is not unique ("MODEL
 * (2:FILE)": two inputs of one name, or traces concatenated in one). */
static void series_name(const struct plot_data *d,
                        const struct request_metrics *m, char *out, size_t size)
{
    const char *file = base_name(m->trace->file);
    size_t same = 0;
    bool later = false; /* a later trace of one file (concatenated) */
    for (size_t i = 0; i < d->n_paths; i++)
        same += strcmp(base_name(d->paths[i]), file) == 0;
    for (size_t i = 0; i < d->set.n_traces; i++)
        later |= d->set.traces[i]->index < m->trace->index &&
                 same_str(d->set.traces[i]->file, m->trace->file);
    if (same > 1 || later)
        snprintf(out, size, "%s (%u:%s)", m->model, m->trace->index + 1, file);
    else
        snprintf(out, size, "%s (%s)", m->model, file);
}

/* request_sink: feeds the groups and keeps the request's chart record. */
static int plot_data_add(void *ctx, const struct request_metrics *m_in)
{
    struct plot_data *d = ctx;
    struct plot_req *r;
    uint32_t model, cls;
    int64_t zero;
    struct request_metrics relabelled;
    const struct request_metrics *m = m_in;
    char series[700];
    if (d->by_trace) { /* the model's name carries its trace */
        relabelled = *m_in;
        series_name(d, m_in, series, sizeof series);
        relabelled.model = series;
        m = &relabelled;
    }
    if (group_set_add(&d->set, m))
        return -1;
    if (m->warmup)
        return 0;
    model = intern(&d->models, m->model);
    cls = intern(&d->classes,
                 d->set.by.measured_class ? m->measured_class : m->class_name);
    zero = trace_zero(d, m);
    if (model == UINT32_MAX || cls == UINT32_MAX)
        return -1;
    add_throughput(d, model, m, zero);
    if (d->n_reqs == d->cap_reqs) {
        size_t cap = d->cap_reqs ? d->cap_reqs * 2 : 1024;
        if (d->n_reqs >= PLOT_MAX_REQS ||
            !(r = realloc(d->reqs, cap * sizeof(*r)))) {
            d->reqs_dropped++;
            return 0;
        }
        d->reqs = r;
        d->cap_reqs = cap;
    }
    r = &d->reqs[d->n_reqs++];
    r->model = model;
    r->cls = cls;
    r->trace = m->trace->index;
    r->id = m->id;
    r->ok = m->ok;
    r->interrupted = metrics_outcome(m) == METRICS_OUTCOME_INTERRUPTED;
    r->ttft_ms = m->ttft_ms;
    r->tpot_ms = m->tpot_ms;
    r->latency_ms = m->latency_ms;
    r->out_tokens =
        m->ok && m->output_tokens >= 0 ? (double)m->output_tokens : NAN;
    r->start_s = since(zero, m->start_ns);
    /* an interrupted request streamed until it was stopped: its bar */
    r->first_s = m->ok || r->interrupted ? since(zero, m->first_token_ns) : NAN;
    r->end_s = since(zero, m->end_ns);
    r->in_tokens = m->ok && m->input_tokens >= 0 ? (double)m->input_tokens
                   : m->ok && m->input_tokens_est >= 0
                       ? (double)m->input_tokens_est
                       : NAN;
    r->cached_tokens =
        m->ok && m->cached_tokens >= 0 ? (double)m->cached_tokens : NAN;
    r->turn = m->turn;
    if (m->turn)
        d->sessions = true;
    return 0;
}

/* Orders strings (qsort of char *). */
static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Orders prompt class names canonically (qsort of char *). */
static int cmp_class(const void *a, const void *b)
{
    return class_name_cmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts names by cmp and returns old number -> new number (NULL out of
 * memory). */
static uint32_t *sort_names(struct plot_names *names,
                            int (*cmp)(const void *, const void *))
{
    char **old = malloc((names->n + 1) * sizeof(*old));
    uint32_t *map = malloc((names->n + 1) * sizeof(*map));
    if (!old || !map) {
        free(old);
        free(map);
        return NULL;
    }
    if (names->n)
        memcpy(old, names->v, names->n * sizeof(*old));
    qsort(names->v, names->n, sizeof(*names->v), cmp);
    for (size_t i = 0; i < names->n; i++)
        for (size_t j = 0; j < names->n; j++)
            if (old[i] == names->v[j])
                map[i] = (uint32_t)j;
    free(old);
    return map;
}

/* Renumbers models (alphabetically) and classes (canonically) in sorted
 * order. */
static int finish(struct plot_data *d)
{
    uint32_t *mm = sort_names(&d->models, cmp_str);
    uint32_t *cm = sort_names(&d->classes, cmp_class);
    int rc = -1;
    if (!mm || !cm)
        goto done;
    for (size_t i = 0; i < d->n_reqs; i++) {
        d->reqs[i].model = mm[d->reqs[i].model];
        d->reqs[i].cls = cm[d->reqs[i].cls];
    }
    if (d->n_tok_bins) {
        struct stats_vec *bins = calloc(d->models.n, sizeof(*bins));
        if (!bins)
            goto done;
        for (size_t i = 0; i < d->models.n; i++)
            stats_vec_init(&bins[i], PLOT_MAX_SECONDS);
        for (size_t i = 0; i < d->n_tok_bins; i++)
            bins[mm[i]] = d->tok_bins[i];
        free(d->tok_bins);
        d->tok_bins = bins;
        d->n_tok_bins = d->models.n;
    }
    rc = 0;
done:
    free(mm);
    free(cm);
    return rc;
}

int plot_data_load(struct plot_data *d, char **paths, size_t n_paths,
                   const struct load_options *opt, const char *by_spec,
                   bool by_trace)
{
    struct group_by by;
    char err[256];
    int rc;
    memset(d, 0, sizeof(*d));
    d->by_trace = by_trace;
    d->paths = paths;
    d->n_paths = n_paths;
    if (group_by_parse(by_spec, &by, err, sizeof(err))) {
        log_error("%s", err);
        return 2;
    }
    by.measured_class = opt->classify_measured;
    group_set_init(&d->set, &by, NULL);
    rc = load_trace_files(paths, n_paths, opt, plot_data_add, NULL, d,
                          &d->set.traces, &d->set.n_traces);
    group_set_sort(&d->set);
    group_set_summarize(&d->set);
    if (finish(d))
        return -1;
    if (d->reqs_dropped)
        log_warn("plot: %llu requests left out of the per-request charts "
                 "(more than %zu); the statistics use all of them",
                 (unsigned long long)d->reqs_dropped, PLOT_MAX_REQS);
    return rc;
}

/* Header options that state what the machine was like during the run,
 * not what was asked: keep-awake's outcome (the CPU it picked, "the
 * machine is busy (load 8.3 ...)") and the clock's error estimate vary
 * between two runs of the same command. */
static const char *const run_facts[] = {
    "keep_awake",     "keep_awake_cpu",    "keep_awake_off",
    "keep_awake_why", "cpu_quota",         "wake_probe",
    "clock_sync",     "clock_maxerror_us", "clock_esterror_us",
    "start_late_us",
};

static bool is_run_fact(const char *key)
{
    for (size_t i = 0; i < sizeof run_facts / sizeof run_facts[0]; i++)
        if (strcmp(key, run_facts[i]) == 0)
            return true;
    return false;
}

/* True when every key of a that is not a run fact is in b with the same
 * value. */
static bool kv_within(const struct trace_kv *a, size_t na,
                      const struct trace_kv *b, size_t nb)
{
    for (size_t i = 0; i < na; i++) {
        bool found = is_run_fact(a[i].key);
        for (size_t j = 0; j < nb && !found; j++)
            found = strcmp(a[i].key, b[j].key) == 0 &&
                    strcmp(a[i].value ? a[i].value : "",
                           b[j].value ? b[j].value : "") == 0;
        if (!found)
            return false;
    }
    return true;
}

/* True when a and b hold the same settings: the same keys with the same
 * values, run facts aside. */
static bool same_kv(const struct trace_kv *a, size_t na,
                    const struct trace_kv *b, size_t nb)
{
    return kv_within(a, na, b, nb) && kv_within(b, nb, a, na);
}

bool plot_data_traces_differ(const struct plot_data *d)
{
    for (size_t i = 1; i < d->set.n_traces; i++) {
        const struct trace_info *a = d->set.traces[0], *b = d->set.traces[i];
        if (!same_str(a->api, b->api) || !same_str(a->endpoint, b->endpoint) ||
            !same_str(a->workload, b->workload) ||
            !same_kv(a->options, a->n_options, b->options, b->n_options))
            return true;
    }
    return false;
}

void plot_data_free(struct plot_data *d)
{
    if (!d)
        return;
    group_set_free(&d->set);
    for (size_t i = 0; i < d->models.n; i++)
        free(d->models.v[i]);
    free(d->models.v);
    for (size_t i = 0; i < d->classes.n; i++)
        free(d->classes.v[i]);
    free(d->classes.v);
    free(d->reqs);
    for (size_t i = 0; i < d->n_tok_bins; i++)
        stats_vec_free(&d->tok_bins[i]);
    free(d->tok_bins);
    free(d->trace_zero_ns);
    memset(d, 0, sizeof(*d));
}

double plot_data_tokens_at(const struct plot_data *d, size_t model, size_t i)
{
    if (model >= d->n_tok_bins || i >= d->tok_bins[model].n)
        return 0;
    return d->tok_bins[model].v[i];
}

/* The file name part of a path. */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path ? path : "", '/');
    return slash ? slash + 1 : (path ? path : "");
}

void plot_data_trace_name(const struct plot_data *d, size_t t, char *out,
                          size_t size)
{
    const char *name =
        t < d->set.n_traces ? base_name(d->set.traces[t]->file) : "?";
    bool shared = false;
    for (size_t i = 0; i < d->set.n_traces; i++)
        if (i != t && strcmp(base_name(d->set.traces[i]->file), name) == 0)
            shared = true;
    if (shared)
        snprintf(out, size, "%zu:%s", t + 1, name);
    else
        snprintf(out, size, "%s", name);
}

const struct group *plot_data_group(const struct plot_data *d, const char *k0,
                                    const char *k1)
{
    for (size_t i = 0; i < d->set.n_groups; i++) {
        const struct group *g = d->set.groups[i];
        if (g->n_keys >= 2 && strcmp(g->keys[0], k0) == 0 &&
            strcmp(g->keys[1], k1) == 0)
            return g;
    }
    return NULL;
}
