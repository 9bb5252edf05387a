/* groups: collects request metrics into groups and an overall group. */
#include "groups.h"
#include "group_index.h"
#include "group_view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "log.h"

const struct metric_def metric_defs[M_COUNT] = {
    [M_TTFT] = {"ttft_ms", "TTFT", "ms", false},
    [M_TTFT_CONTENT] = {"ttft_content_ms", "TTFT answer", "ms", false},
    [M_SERVER_TTFT] = {"server_ttft_ms", "server TTFT", "ms", false},
    [M_TPOT] = {"tpot_ms", "TPOT", "ms", false},
    [M_ITL] = {"itl_ms", "ITL", "ms", false},
    [M_LATENCY] = {"latency_ms", "latency", "ms", false},
    [M_STREAM_END] = {"stream_end_ms", "stream end", "ms", false},
    [M_OUTPUT_TOKENS] = {"output_tokens", "output tokens", "tok", false},
    [M_INPUT_TOKENS] = {"input_tokens", "input tokens", "tok", false},
    [M_INPUT_TOKENS_EST] = {"input_tokens_est", "input tokens, est.", "tok",
                            false},
    [M_TPS] = {"tps", "TPS/request", "tok/s", false},
    [M_REASONING_EVENTS] = {"reasoning_tokens", "reasoning chunks", "", false},
    [M_TOKENS_PER_CHUNK] = {"tokens_per_chunk", "tokens/chunk", "", false},
    [M_SEND_LAG] = {"send_lag_ms", "send lag", "ms", true},
    [M_RESPONSE_TTFT] = {"response_ttft_ms", "TTFT from sched", "ms", true},
    [M_RESPONSE_LATENCY] = {"response_latency_ms", "latency from sched", "ms",
                            true},
    [M_SERVER_PROMPT] = {"server_prompt_ms", "server prompt", "ms", false},
    [M_SERVER_TPOT] = {"server_tpot_ms", "server TPOT", "ms", false},
    [M_CLIENT_OVERHEAD] = {"client_overhead_ms", "client overhead", "ms",
                           false},
    [M_CACHED_TOKENS] = {"cached_tokens", "cached tokens", "tok", false},
    [M_FIRST_TOOL] = {"first_tool_ms", "first tool call", "ms", false},
    [M_ASKED_INPUT_TOKENS] = {"asked_input_tokens", "input tokens asked", "tok",
                              false},
    [M_INPUT_ERROR_PCT] = {"input_error_pct", "input tokens error", "%", false},
    [M_WF_CLIENT] = {"ttft_client_ms", "TTFT: client", "ms", false},
    [M_WF_NETWORK] = {"ttft_network_ms", "TTFT: network", "ms", false},
    [M_WF_SERVER] = {"ttft_server_ms", "TTFT: server (reported)", "ms", false},
    [M_WF_GATEWAY] = {"ttft_gateway_ms", "TTFT: gateway/unaccounted", "ms",
                      false},
    [M_WF_AFTER_HEADERS] = {"headers_to_token_ms", "headers -> first token",
                            "ms", false},
    [M_WF_UNACCOUNTED] = {"ttft_unaccounted_ms", "TTFT: unaccounted (all)",
                          "ms", false},
    [M_TCP_RTT] = {"tcp_rtt_ms", "TCP RTT (kernel)", "ms", false},
    [M_WF_PROXY_IN] = {"ttft_proxy_in_ms", "TTFT: proxy, request in", "ms",
                       false},
    [M_WF_PROXY_OUT] = {"ttft_proxy_out_ms", "TTFT: proxy, first token out",
                        "ms", false},
    [M_INPUT_BYTES] = {"input_bytes", "input bytes", "B", false},
};

static void group_init(struct group *g, size_t value_limit)
{
    memset(g, 0, sizeof(*g));
    for (int i = 0; i < M_COUNT; i++)
        stats_vec_init(&g->v[i], value_limit);
}

static void group_free(struct group *g)
{
    for (size_t i = 0; i < g->n_keys; i++)
        free(g->keys[i]);
    for (size_t i = 0; i < g->n_errors; i++) {
        free(g->errors[i].kind);
        free(g->errors[i].message);
    }
    free(g->errors);
    for (int i = 0; i < M_COUNT; i++)
        stats_vec_free(&g->v[i]);
}

void group_set_init(struct group_set *set, const struct group_by *by,
                    const struct slo *slo)
{
    memset(set, 0, sizeof(*set));
    set->by = *by;
    if (slo)
        set->slo = *slo;
    else
        slo_parse("", &set->slo, NULL, 0);
    group_init(&set->overall, 0);
}

void group_set_limit_values(struct group_set *set, size_t limit)
{
    set->value_limit = limit;
    for (int i = 0; i < M_COUNT; i++)
        stats_vec_init(&set->overall.v[i], limit);
}

void group_set_free(struct group_set *set)
{
    for (size_t i = 0; i < set->n_groups; i++) {
        group_free(set->groups[i]);
        free(set->groups[i]);
    }
    free(set->groups);
    group_free(&set->overall);
    group_index_free(&set->index);
    for (size_t i = 0; i < set->n_trace_itl; i++) {
        stats_vec_free(&set->trace_itl[i].v);
        stats_vec_free(&set->trace_itl[i].lag);
    }
    free(set->trace_itl);
    stage_window_free(set->window);
    free(set->window);
    session_waits_free(&set->sessions);
    for (size_t i = 0; i < GROUP_MAX_DIMS; i++)
        free(set->by.label_keys[i]);
    load_free_infos(set->traces, set->n_traces);
}

/* The key value of dimension i for a request. */
static const char *key_value(const struct group_set *set, size_t i,
                             const struct request_metrics *m, char *tmp,
                             size_t tmp_size)
{
    const char *v;
    switch (set->by.dims[i]) {
    case DIM_MODEL:
        return m->model;
    case DIM_CLASS:
        return set->by.measured_class ? m->measured_class : m->class_name;
    case DIM_LABEL:
        v = trace_info_label(m->trace, set->by.label_keys[i]);
        return v ? v : "(none)";
    case DIM_TRACE:
        snprintf(tmp, tmp_size, "%u:%s", m->trace->index,
                 m->trace->file ? m->trace->file : "");
        return tmp;
    case DIM_STAGE: /* the id keys it: two stages of one load are two */
        stage_info_label(m->trace, m->stage, tmp, tmp_size);
        return tmp;
    case DIM_TURN:
        if (!m->turn)
            return "(none)";
        snprintf(tmp, tmp_size, "%u", m->turn);
        return tmp;
    case DIM_HEADER:
        for (size_t k = 0; k < m->n_headers; k++)
            if (m->headers[k].key && m->headers[k].value &&
                strcasecmp(m->headers[k].key, set->by.label_keys[i]) == 0)
                return m->headers[k].value;
        return "(none)";
    }
    return "";
}

/* The place of a request's stage: by load within a trace, so stages sort
 * from the lightest, then by id (stages of one load in the order run);
 * stage ids when the loads are unknown. */
static int64_t stage_rank(const struct request_metrics *m)
{
    const struct stage_info *st = trace_info_stage(m->trace, m->stage);
    int64_t id = m->stage > 0xfffff ? 0xfffff : m->stage;
    if (st && isfinite(st->load) && st->load >= 0 && st->load < 1e8)
        return ((int64_t)(st->load * 16) << 20) | id;
    return id;
}

const struct group *group_set_find(const struct group_set *set,
                                   const char *const *vals, size_t n)
{
    char joined[GROUP_MAX_DIMS * 540];
    size_t len, k;
    if (n != set->by.n)
        return NULL;
    len = group_index_key(vals, n, joined, sizeof(joined));
    if (!group_index_get(&set->index,
                         group_index_hash(GROUP_INDEX_HASH_INIT, joined, len),
                         NULL, joined, &k))
        return NULL;
    return set->groups[k];
}

const struct group *group_set_group_of(const struct group_set *set,
                                       const struct request_metrics *m)
{
    char tmp[GROUP_MAX_DIMS][512];
    const char *vals[GROUP_MAX_DIMS];
    for (size_t i = 0; i < set->by.n; i++)
        vals[i] = key_value(set, i, m, tmp[i], sizeof(tmp[i]));
    return group_set_find(set, vals, set->by.n);
}

static struct group *find_group(struct group_set *set,
                                const struct request_metrics *m)
{
    char tmp[GROUP_MAX_DIMS][512];
    const char *vals[GROUP_MAX_DIMS];
    struct group *g, **p;
    char joined[GROUP_MAX_DIMS * 540];
    size_t k;
    uint64_t hash;
    for (size_t i = 0; i < set->by.n; i++)
        vals[i] = key_value(set, i, m, tmp[i], sizeof(tmp[i]));
    hash = group_index_hash(
        GROUP_INDEX_HASH_INIT, joined,
        group_index_key(vals, set->by.n, joined, sizeof(joined)));
    if (group_index_get(&set->index, hash, NULL, joined, &k))
        return set->groups[k];
    g = malloc(sizeof(*g));
    p = realloc(set->groups, (set->n_groups + 1) * sizeof(*p));
    if (!g || !p ||
        group_index_put(&set->index, hash, NULL, joined, set->n_groups)) {
        free(g);
        if (p)
            set->groups = p;
        return NULL;
    }
    set->groups = p;
    group_init(g, set->value_limit);
    for (size_t i = 0; i < set->by.n; i++) {
        g->key_rank[i] = set->by.dims[i] == DIM_CLASS
                             ? group_class_rank(vals[i])
                         : set->by.dims[i] == DIM_STAGE ? stage_rank(m)
                         : set->by.dims[i] == DIM_TURN  ? (int)m->turn
                                                        : 0;
        g->keys[g->n_keys++] = strdup(vals[i]);
    }
    set->groups[set->n_groups++] = g;
    return g;
}

const char *const finish_kind_names[FINISH_COUNT] = {
    [FINISH_STOP] = "stop",
    [FINISH_LENGTH] = "length",
    [FINISH_TOOL_CALLS] = "tool_calls",
    [FINISH_OTHER] = "other",
    [FINISH_NONE] = "none",
    [FINISH_ERROR] = "error",
};

/* The category of a request's end: FINISH_ERROR when it failed, else of
 * its finish reason (NULL: FINISH_NONE). */
static enum finish_kind finish_kind_of(bool ok, const char *r)
{
    static const struct {
        const char *reason;
        enum finish_kind kind;
    } map[] = {
        {"stop", FINISH_STOP},
        {"end_turn", FINISH_STOP},
        {"stop_sequence", FINISH_STOP},
        {"completed", FINISH_STOP}, /* the Responses API's status */
        {"eos", FINISH_STOP},
        {"length", FINISH_LENGTH},
        {"max_tokens", FINISH_LENGTH},
        {"max_output_tokens", FINISH_LENGTH}, /* response.incomplete's */
        {"tool_calls", FINISH_TOOL_CALLS},
        {"tool_use", FINISH_TOOL_CALLS},
        {"function_call", FINISH_TOOL_CALLS},
    };
    if (!ok)
        return FINISH_ERROR;
    if (!r || !r[0])
        return FINISH_NONE;
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (strcmp(r, map[i].reason) == 0)
            return map[i].kind;
    return FINISH_OTHER;
}

/* True when the trace was recorded with --ignore-eos. */
static bool ignore_eos_run(const struct trace_info *t)
{
    const char *v = trace_info_option(t, "ignore_eos");
    return v && strcmp(v, "true") == 0;
}

/* Keeps m's message on a kind that has none yet: the server's words
 * first (a later failure may bring them when the first had none). */
static void note_message(struct error_count *e, const struct request_metrics *m)
{
    const char *msg = m->server_message ? m->server_message : m->error_message;
    if (!msg || !msg[0] || e->server || (e->message && !m->server_message))
        return;
    free(e->message);
    e->message = strdup(msg);
    e->server = e->message && m->server_message;
}

/* Counts one failure of m's kind in g; kinds are found through the set's
 * index (owner g), so many distinct kinds stay linear. */
static void count_error(struct group_index *ix, struct group *g,
                        const struct request_metrics *m)
{
    const char *kind = m->error_kind;
    struct error_count *p;
    uint64_t hash = group_index_hash(GROUP_INDEX_HASH_INIT, kind, strlen(kind));
    size_t i;
    if (group_index_get(ix, hash, g, kind, &i)) {
        g->errors[i].n++;
        note_message(&g->errors[i], m);
        return;
    }
    p = realloc(g->errors, (g->n_errors + 1) * sizeof(*p));
    if (!p)
        return;
    if (group_index_put(ix, hash, g, kind, g->n_errors)) {
        g->errors = p;
        return;
    }
    g->errors = p;
    p[g->n_errors].kind = strdup(kind);
    p[g->n_errors].n = 1;
    p[g->n_errors].message = NULL;
    p[g->n_errors].server = false;
    note_message(&p[g->n_errors], m);
    g->n_errors++;
}

static bool meets(double value, double limit)
{
    return isnan(limit) || (!isnan(value) && value <= limit);
}

/* True when a request meets every SLO (failed requests never do). */
static bool meets_slo(const struct slo *slo, const struct request_metrics *m)
{
    double worst_itl = 0;
    if (!m->ok)
        return false;
    for (size_t i = 0; i < m->n_itl; i++)
        if (m->itl_ms[i] > worst_itl)
            worst_itl = m->itl_ms[i];
    return meets(m->ttft_ms, slo->ttft_ms) && meets(m->tpot_ms, slo->tpot_ms) &&
           meets(m->latency_ms, slo->latency_ms) &&
           (isnan(slo->itl_ms) || worst_itl <= slo->itl_ms);
}

/* Appends x to g's distribution of metric; counts it dropped if refused. */
static void push_value(struct group *g, int metric, double x)
{
    int st = stats_vec_push(&g->v[metric], x);
    if (st != STATS_OK)
        g->dropped[metric]++;
    if (st == STATS_E_NOMEM)
        g->out_of_memory = true;
}

static void add_to(struct group_index *ix, struct group *g,
                   const struct slo *slo, const struct request_metrics *m)
{
    const struct waterfall *wf = &m->waterfall;
    double vals[M_COUNT] = {
        [M_TTFT] = m->ttft_ms,
        [M_TTFT_CONTENT] = m->ttft_content_ms,
        [M_SERVER_TTFT] = m->server_ttft_ms,
        [M_TPOT] = m->tpot_ms,
        [M_ITL] = NAN,
        [M_LATENCY] = m->latency_ms,
        [M_STREAM_END] = m->ok ? m->stream_end_ms : NAN,
        [M_OUTPUT_TOKENS] =
            m->ok && m->output_tokens >= 0 ? (double)m->output_tokens : NAN,
        [M_INPUT_TOKENS] =
            m->ok && m->input_tokens >= 0 ? (double)m->input_tokens : NAN,
        [M_INPUT_TOKENS_EST] =
            m->ok && m->input_tokens < 0 && m->input_tokens_est >= 0
                ? (double)m->input_tokens_est
                : NAN,
        [M_TPS] = m->tps,
        [M_REASONING_EVENTS] = m->ok && m->reasoning_events > 0
                                   ? (double)m->reasoning_events
                                   : NAN,
        [M_TOKENS_PER_CHUNK] = m->ok ? m->tokens_per_chunk : NAN,
        [M_SEND_LAG] = m->send_lag_ms,
        [M_RESPONSE_TTFT] = m->response_ttft_ms,
        [M_RESPONSE_LATENCY] = m->response_latency_ms,
        [M_SERVER_PROMPT] = m->ok ? m->server_prompt_ms : NAN,
        [M_SERVER_TPOT] = m->ok ? m->server_tpot_ms : NAN,
        [M_CLIENT_OVERHEAD] = m->client_overhead_ms,
        [M_CACHED_TOKENS] =
            m->ok && m->cached_tokens >= 0 ? (double)m->cached_tokens : NAN,
        [M_FIRST_TOOL] = m->ok ? m->first_tool_ms : NAN,
        [M_ASKED_INPUT_TOKENS] = m->ok && m->asked_input_tokens > 0
                                     ? (double)m->asked_input_tokens
                                     : NAN,
        [M_INPUT_ERROR_PCT] = m->ok ? m->input_error_pct : NAN,
        [M_WF_CLIENT] = wf->measured ? wf->client_ms : NAN,
        [M_WF_NETWORK] = wf->measured ? wf->network_ms : NAN,
        [M_WF_SERVER] = wf->measured ? wf->server_ms : NAN,
        [M_WF_GATEWAY] = wf->measured ? wf->gateway_ms : NAN,
        [M_WF_AFTER_HEADERS] = wf->measured ? wf->after_headers_ms : NAN,
        [M_WF_UNACCOUNTED] = wf->measured ? wf->unaccounted_ms : NAN,
        [M_TCP_RTT] = wf->measured ? wf->rtt_ms : NAN,
        [M_WF_PROXY_IN] = m->ok ? wf->proxy_in_ms : NAN,
        [M_WF_PROXY_OUT] = wf->proxy_out_ms,
        [M_INPUT_BYTES] =
            m->ok && m->input_bytes >= 0 ? (double)m->input_bytes : NAN,
    };
    if (m->superseded) { /* the request is its last attempt, not this */
        if (!m->warmup)
            g->retried++;
        return;
    }
    if (m->warmup) {
        g->warmup++;
        return;
    }
    g->requests++;
    if (m->open_loop)
        g->open_loop = true;
    if (!m->ok) {
        if (metrics_outcome(m) == METRICS_OUTCOME_INTERRUPTED)
            g->interrupted++; /* the client stopped it: not a failure */
        else {
            count_error(ix, g, m);
            g->finish[FINISH_ERROR]++;
        }
        /* Open loop: send lag is the client's, known even for failures. */
        if (!isnan(m->send_lag_ms))
            push_value(g, M_SEND_LAG, m->send_lag_ms);
        return;
    }
    g->ok++;
    if (strcmp(m->token_source, "usage") == 0)
        g->src_usage++;
    else
        g->src_chunks++;
    g->usage_disagree += m->usage_disagrees;
    if (m->usage_disagrees) {
        g->disagree_usage_tokens += (uint64_t)m->usage_output_tokens;
        g->disagree_events += (uint64_t)m->token_events;
    }
    g->finish[finish_kind_of(true, m->finish_reason)]++;
    if (ignore_eos_run(m->trace) && m->max_tokens > 0) {
        g->ignore_eos_ok++;
        g->ignore_eos_early +=
            m->output_tokens >= 0 && m->output_tokens < m->max_tokens;
    }
    g->buffered += m->buffered;
    g->cached_derived += m->cached_derived && m->cached_tokens >= 0;
    if (m->ok && m->usage_output_tokens < 0 && m->token_events > 0 &&
        m->text_bytes_per_event >= METRICS_PACKED_BYTES_PER_EVENT) {
        g->packed_no_usage++;
        g->packed_text_bytes += (uint64_t)m->text_bytes;
    }
    if (m->output_tokens > 0)
        g->output_tokens_total += (uint64_t)m->output_tokens;
    if (slo->any && meets_slo(slo, m))
        g->slo_met++;
    for (int i = 0; i < M_COUNT; i++)
        if (!isnan(vals[i]))
            push_value(g, i, vals[i]);
    for (size_t i = 0; i < m->n_itl; i++)
        push_value(g, M_ITL, m->itl_ms[i]);
}

/* Keeps an ok request's ITL median for its trace's own ITL. Out of
 * memory: that trace's value describes fewer requests, nothing else. */
static void add_trace_itl(struct group_set *set,
                          const struct request_metrics *m)
{
    unsigned i = m->trace ? m->trace->index : 0;
    struct trace_itl *own;
    if (m->warmup || m->superseded)
        return;
    if (i >= set->n_trace_itl) {
        size_t n = (size_t)i + 1;
        struct trace_itl *p = realloc(set->trace_itl, n * sizeof(*p));
        if (!p)
            return;
        for (size_t k = set->n_trace_itl; k < n; k++) {
            memset(&p[k], 0, sizeof(p[k]));
            stats_vec_init(&p[k].v, 0);
            stats_vec_init(&p[k].lag, 0);
            p[k].p50 = p[k].lag_p50 = p[k].lag_p99 = NAN;
        }
        set->trace_itl = p;
        set->n_trace_itl = n;
    }
    own = &set->trace_itl[i];
    own->requests++;
    if (metrics_outcome(m) == METRICS_OUTCOME_FAILED)
        own->failed++;
    if (!isnan(m->send_lag_ms))
        stats_vec_push(&own->lag, m->send_lag_ms);
    if (m->ok && !isnan(m->itl_p50_ms))
        stats_vec_push(&own->v, m->itl_p50_ms);
}

const struct trace_itl *group_set_trace_own(const struct group_set *set,
                                            unsigned i)
{
    return i < set->n_trace_itl ? &set->trace_itl[i] : NULL;
}

double group_set_trace_itl_p50(const struct group_set *set, unsigned i)
{
    return i < set->n_trace_itl ? set->trace_itl[i].p50 : NAN;
}

int group_set_add(void *ctx, const struct request_metrics *m)
{
    struct group_set *set = ctx;
    struct group *g = find_group(set, m);
    if (!g)
        return -1;
    if (set->window && m->stage && !m->warmup && !m->superseded &&
        stage_window_transient(set->window, m->trace->index, m->id)) {
        g->transient++;
        set->overall.transient++;
        if (!set->keep_transient) {
            set->left_out_requests++;
            if (m->output_tokens > 0)
                set->left_out_output_tokens += (uint64_t)m->output_tokens;
            return 0;
        }
    }
    add_trace_itl(set, m);
    add_to(&set->index, g, &set->slo, m);
    add_to(&set->index, &set->overall, &set->slo, m);
    session_waits_add(&set->sessions, m);
    return 0;
}

/* Summarizes g; name is how the warning of a dropped value calls g. */
static void group_summarize(struct group *g, const char *name)
{
    for (int i = 0; i < M_COUNT; i++) {
        const struct stats_vec *v = &g->v[i];
        stats_summarize(v->v, v->n, &g->sum[i]);
        if (!g->dropped[i])
            continue;
        if (v->n >= v->limit)
            log_warn("%s: %llu %s values dropped beyond the cap of %zu: its "
                     "%s statistics describe the first %zu only",
                     name, (unsigned long long)g->dropped[i],
                     metric_defs[i].title, v->limit, metric_defs[i].title,
                     v->n);
        else
            log_warn("%s: %llu %s values dropped (out of memory): its %s "
                     "statistics describe %zu only",
                     name, (unsigned long long)g->dropped[i],
                     metric_defs[i].title, metric_defs[i].title, v->n);
    }
}

void group_set_summarize(struct group_set *set)
{
    char keys[512], name[sizeof(keys) + 16];
    for (size_t i = 0; i < set->n_groups; i++) {
        group_describe(set->groups[i], keys, sizeof(keys));
        snprintf(name, sizeof(name), "group '%s'", keys);
        group_summarize(set->groups[i], name);
    }
    group_summarize(&set->overall, "all requests");
    session_waits_summarize(&set->sessions);
    for (size_t i = 0; i < set->n_trace_itl; i++) {
        struct stats_summary sum;
        struct stats_vec *v = &set->trace_itl[i].v;
        set->trace_itl[i].p50 =
            v->n && stats_summarize(v->v, v->n, &sum) == 0 ? sum.p50 : NAN;
        v = &set->trace_itl[i].lag;
        if (v->n && stats_summarize(v->v, v->n, &sum) == 0) {
            set->trace_itl[i].lag_p50 = sum.p50;
            set->trace_itl[i].lag_p99 = sum.p99;
        }
    }
}

int group_set_load(struct group_set *set, char **paths, size_t n_paths,
                   const struct load_options *opt)
{
    struct load_options o = *opt;
    int rc;
    o.with_superseded = true;
    rc = load_trace_files(paths, n_paths, &o, group_set_add, NULL, set,
                          &set->traces, &set->n_traces);
    group_set_sort(set);
    /* Values refused for lack of memory make every statistic describe
     * less than the trace: an error, not only the warnings. */
    for (size_t i = 0; i <= set->n_groups; i++) {
        const struct group *g =
            i < set->n_groups ? set->groups[i] : &set->overall;
        if (g->out_of_memory) {
            log_error("out of memory while collecting the values of the "
                      "traces: the statistics describe fewer requests than "
                      "were read (free memory, or analyze fewer traces at "
                      "once)");
            rc |= 1;
            break;
        }
    }
    return rc;
}
