/* load: streams trace files through the SSE/token parser and hands out one
 * request_metrics per request, never holding more than the requests in
 * flight in memory. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error_json.h"
#include "error_kinds.h"
#include "id_map.h"
#include "load.h"
#include "log.h"
#include "metrics.h"
#include "stats.h"
#include "stream_events.h"

/* A request whose result has not been read yet, or whose result said the
 * recorder would send it again (held: kept until the retry's request record
 * shows up, which supersedes it, or the trace ends, which makes it final). */
struct pending {
    struct trace_request req; /* strings below are owned copies */
    char *model, *class_name;
    struct stream_state *stream;
    /* The start of a body that is not an event stream (an error reply's
     * JSON or text), for the server's message; NULL for a stream. */
    char *head;
    size_t head_len;
    bool head_decided; /* the first chunk was looked at */
    bool held;
    struct trace_result saved; /* the held result: no headers, strings
                                  below owned */
    char *saved_kind, *saved_message;
};

struct loader {
    const struct load_options *opt;
    request_sink sink;
    trace_sink tsink;
    void *ctx;
    struct trace_info *info; /* current trace */
    enum api_kind api;
    struct id_map pending;      /* request id -> struct pending */
    struct id_map held;         /* first attempt's id -> held struct pending */
    struct stream_state **pool; /* stream states ready for reuse */
    size_t n_pool, cap_pool;
    struct metrics_buf mbuf; /* token arrays of the request being handed out */
    char server_message[ERROR_JSON_MESSAGE_MAX + 1]; /* of that request */
    uint64_t bad_times; /* requests of the current trace with kind bad_times */
    struct stats_vec proxy_ns; /* handed - recv of the current trace */
    /* Out of memory (never silent: load_trace_file reports both and fails):
     * requests not analyzed at all, requests without their token times. */
    uint64_t lost, partial;
    bool sink_failed; /* the sink refused a request (memory, output) */
    int stop;
};

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

static struct trace_kv *dup_kv(const struct trace_kv *kv, size_t n)
{
    struct trace_kv *out = n ? calloc(n, sizeof(*out)) : NULL;
    for (size_t i = 0; out && i < n; i++) {
        out[i].key = strdup(kv[i].key ? kv[i].key : "");
        out[i].value = strdup(kv[i].value ? kv[i].value : "");
    }
    return out;
}

static void free_kv(struct trace_kv *kv, size_t n)
{
    for (size_t i = 0; kv && i < n; i++) {
        free((char *)kv[i].key);
        free((char *)kv[i].value);
    }
    free(kv);
}

const char *trace_info_option(const struct trace_info *t, const char *key)
{
    for (size_t i = 0; t && i < t->n_options; i++)
        if (strcmp(t->options[i].key, key) == 0)
            return t->options[i].value;
    return NULL;
}

void load_free_infos(struct trace_info **infos, size_t n)
{
    for (size_t i = 0; infos && i < n; i++) {
        struct trace_info *t = infos[i];
        free(t->file);
        free(t->trace_id);
        free(t->api);
        free(t->endpoint);
        free(t->host);
        free(t->tool_version);
        free(t->workload);
        for (size_t k = 0; k < t->n_models; k++)
            free(t->models[k]);
        free(t->models);
        free_kv(t->labels, t->n_labels);
        free_kv(t->options, t->n_options);
        free_kv(t->shared, t->n_shared);
        free(t->footer_reason);
        free(t->keep_awake_end);
        free(t->recording_stopped);
        free(t->damage);
        free(t->stages);
        server_metrics_free(&t->server);
        free(t);
    }
    free(infos);
}

const struct stage_info *trace_info_stage(const struct trace_info *t,
                                          uint32_t id)
{
    for (size_t i = 0; t && i < t->n_stages; i++)
        if (t->stages[i].id == id)
            return &t->stages[i];
    return NULL;
}

void stage_info_name(const struct trace_info *t, uint32_t id, char *out,
                     size_t size)
{
    const struct stage_info *st = trace_info_stage(t, id);
    if (id == 0)
        snprintf(out, size, "(none)");
    else if (!st || !st->mode[0] || !isfinite(st->load))
        snprintf(out, size, "stage %u", (unsigned)id);
    else
        snprintf(out, size, "%s=%g", st->mode, st->load);
}

void stage_info_label(const struct trace_info *t, uint32_t id, char *out,
                      size_t size)
{
    const struct stage_info *st = trace_info_stage(t, id);
    if (id == 0 || !st || !st->mode[0] || !isfinite(st->load))
        stage_info_name(t, id, out, size);
    else
        snprintf(out, size, "%s=%g #%u", st->mode, st->load, (unsigned)id);
}

/* Keeps a stage record in t: the begin record adds the stage, the end
 * record completes it. Out of memory leaves it out (its requests are
 * then named "stage N"). */
static void note_stage(struct trace_info *t, const struct trace_stage *r)
{
    struct stage_info *st = (struct stage_info *)trace_info_stage(t, r->id);
    if (!st) {
        struct stage_info *p;
        if (r->id == 0 || t->n_stages >= 100000)
            return;
        p = realloc(t->stages, (t->n_stages + 1) * sizeof(*p));
        if (!p)
            return;
        t->stages = p;
        st = &p[t->n_stages++];
        memset(st, 0, sizeof(*st));
        st->id = r->id;
    }
    /* only the two known modes: the name goes into every output */
    snprintf(st->mode, sizeof(st->mode), "%s",
             r->mode && (strcmp(r->mode, "concurrency") == 0 ||
                         strcmp(r->mode, "rate") == 0)
                 ? r->mode
                 : "");
    st->load = r->load;
    st->start_ns = r->start_ns;
    st->end_ns = r->end_ns;
    st->sent = r->sent;
    st->loop_lag_p50_ns = r->loop_lag_p50_ns;
    st->loop_lag_p99_ns = r->loop_lag_p99_ns;
    st->loop_lag_max_ns = r->loop_lag_max_ns;
    st->loop_lag_samples = r->loop_lag_samples;
    st->cpu_ns = r->cpu_ns;
    st->ramp_ns = r->ramp_ns;
}

const char *trace_info_label(const struct trace_info *t, const char *key)
{
    for (size_t i = 0; i < t->n_labels; i++)
        if (strcmp(t->labels[i].key, key) == 0)
            return t->labels[i].value;
    return NULL;
}

struct trace_info *load_info_from_header(const struct trace_header *h,
                                         const char *file)
{
    struct trace_info *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    t->file = strdup(file);
    t->trace_id = dup_or_null(h->trace_id);
    t->api = strdup(h->api ? h->api : "openai-chat");
    t->endpoint = dup_or_null(h->endpoint);
    t->host = dup_or_null(h->host);
    t->tool_version = dup_or_null(h->tool_version);
    t->format_version = h->format_version;
    t->workload = dup_or_null(h->workload);
    t->models = h->n_models ? calloc(h->n_models, sizeof(char *)) : NULL;
    for (size_t i = 0; t->models && i < h->n_models; i++)
        t->models[t->n_models++] = strdup(h->models[i]);
    t->labels = dup_kv(h->labels, h->n_labels);
    t->n_labels = t->labels ? h->n_labels : 0;
    t->options = dup_kv(h->options, h->n_options);
    t->n_options = t->options ? h->n_options : 0;
    t->shared = dup_kv(h->shared, h->n_shared);
    t->n_shared = t->shared ? h->n_shared : 0;
    t->mono_zero_ns = h->mono_zero_ns;
    t->real_zero_ns = h->real_zero_ns;
    t->first_start_ns = -1;
    t->last_end_ns = -1;
    t->measured_start_ns = t->measured_end_ns = -1;
    t->loop_lag_p50_ns = t->loop_lag_p99_ns = t->loop_lag_max_ns = -1;
    t->wake_probe_p50_ns = t->wake_probe_p99_ns = t->wake_probe_max_ns = -1;
    t->receive_lag_p50_ns = t->receive_lag_p99_ns = -1;
    t->receive_lag_max_ns = -1;
    t->proxy_p50_ns = t->proxy_p99_ns = t->proxy_max_ns = -1;
    return t;
}

static struct stream_state *stream_take(struct loader *L)
{
    struct stream_state *s;
    if (L->n_pool > 0) {
        s = L->pool[--L->n_pool];
        stream_state_reset(s, L->api);
        return s;
    }
    s = malloc(sizeof(*s));
    if (s)
        stream_state_init(s, L->api, 0);
    return s;
}

static void stream_give_back(struct loader *L, struct stream_state *s)
{
    if (L->n_pool == L->cap_pool) {
        size_t ncap = L->cap_pool ? L->cap_pool * 2 : 16;
        struct stream_state **p = realloc(L->pool, ncap * sizeof(*p));
        if (!p) {
            stream_state_free(s);
            free(s);
            return;
        }
        L->pool = p;
        L->cap_pool = ncap;
    }
    L->pool[L->n_pool++] = s;
}

/* The id that names every attempt of p's request: its first attempt's. */
static uint32_t first_attempt_id(const struct pending *p)
{
    return p->req.retry_of ? p->req.retry_of : p->req.id;
}

/* Forgets a pending request: out of the maps, memory freed. */
static void pending_clear(struct loader *L, struct pending *p)
{
    id_map_del(&L->pending, p->req.id);
    if (p->held && id_map_get(&L->held, first_attempt_id(p)) == p)
        id_map_del(&L->held, first_attempt_id(p));
    free(p->saved_kind);
    free(p->saved_message);
    free(p->head);
    free(p->model);
    free(p->class_name);
    free((char *)p->req.request_id);
    if (p->stream)
        stream_give_back(L, p->stream);
    free(p);
}

static int cmp_pending_id(const void *a, const void *b)
{
    uint32_t x = (*(struct pending *const *)a)->req.id;
    uint32_t y = (*(struct pending *const *)b)->req.id;
    return (x > y) - (x < y);
}

/* Finishes (unfinished = true) or just frees every pending request, in id
 * order so the output does not depend on hashing. */
static void pending_drain(struct loader *L, bool unfinished);

/* The error kind of a finished request, derived from what the recorder saw
 * and from the bytes themselves; NULL when it succeeded. */
/* True when the request's times contradict each other, as no recorder
 * writes them (CLOCK_MONOTONIC only goes forward): a chunk or first byte
 * before the start, an end before the start or before the last chunk. */
static bool impossible_times(const struct trace_request *q,
                             const struct trace_result *res,
                             const struct stream_state *s)
{
    if (q->start_ns < 0)
        return true;
    if (s->first_byte_ns >= 0 && s->first_byte_ns < q->start_ns)
        return true;
    if (s->first_token_ns >= 0 && s->last_token_ns < s->first_token_ns)
        return true;
    if (s->times_backwards)
        return true;
    if (!res)
        return false;
    if (res->end_ns >= 0 &&
        (res->end_ns < q->start_ns ||
         (s->last_token_ns >= 0 && res->end_ns < s->last_token_ns)))
        return true;
    return res->first_byte_ns >= 0 && res->first_byte_ns < q->start_ns;
}

static const char *derive_error(const struct trace_request *q,
                                const struct trace_result *res,
                                const struct stream_state *s, char *tmp,
                                size_t tmp_size)
{
    if (impossible_times(q, res, s))
        return ERROR_KIND_BAD_TIMES;
    if (!res)
        return "unfinished";
    if (res->error_kind && res->error_kind[0])
        return res->error_kind;
    if (error_kinds_http_failed(res->http_status))
        return error_kinds_http(res->http_status, tmp, tmp_size);
    if (s->stream_errors > 0)
        return "stream_error";
    if (s->oversized)
        return "oversized_event";
    if (s->token_events == 0)
        return "no_tokens";
    return NULL;
}

/* Bytes kept of a body that is not an event stream. */
#define LOAD_HEAD_MAX 2048

/* Keeps the start of p's body when its first bytes are not an event
 * stream's ("data:", "event:", ":" or "id:"): an error reply, whose
 * message the result will want. Streams cost one look at their first
 * chunk. Out of memory: no message, nothing else lost. */
static void keep_head(struct pending *p, const uint8_t *data, size_t len)
{
    size_t n;
    if (!p->head_decided) {
        static const char *const sse[] = {"data:", "event:", ":", "id:"};
        p->head_decided = true;
        for (size_t i = 0; i < sizeof sse / sizeof *sse; i++) {
            size_t k = strlen(sse[i]);
            if (len >= k && memcmp(data, sse[i], k) == 0)
                return;
        }
        p->head = malloc(LOAD_HEAD_MAX);
    }
    if (!p->head || p->head_len == LOAD_HEAD_MAX)
        return;
    n = len < LOAD_HEAD_MAX - p->head_len ? len : LOAD_HEAD_MAX - p->head_len;
    memcpy(p->head + p->head_len, data, n);
    p->head_len += n;
}

/* The server's own words about a failed request (see request_metrics):
 * the error reply's message for an error status (an HTML page has none),
 * else the first in-stream error's; NULL when none. */
static const char *server_message(struct loader *L, const struct pending *p,
                                  const struct trace_result *res,
                                  const struct stream_state *s)
{
    char type[64];
    char *msg = L->server_message;
    msg[0] = '\0';
    if (res && error_kinds_http_failed(res->http_status) && p->head &&
        p->head_len && p->head[0] != '<')
        error_json_text(p->head, p->head_len, ERROR_JSON_BARE, type,
                        sizeof type, msg, sizeof L->server_message);
    if (!msg[0] && s->stream_errors)
        error_json_one_line(msg, sizeof L->server_message, s->error_message,
                            strlen(s->error_message), ERROR_JSON_MESSAGE_MAX);
    return msg[0] ? msg : NULL;
}

/* The facts of one request for metrics_compute: its request record, its
 * result (NULL when the trace never finished it) and its stream. */
static void request_facts(const struct trace_request *q,
                          const struct trace_result *res,
                          const struct stream_state *s, bool ok,
                          enum token_mode tokens, struct metrics_facts *f)
{
    f->ok = ok;
    f->token_mode = tokens;
    f->scheduled_ns = q->scheduled_ns;
    f->start_ns = q->start_ns;
    f->input_tokens_est = q->input_tokens_est;
    f->asked_input_tokens = q->asked_input_tokens;
    f->asked_output_tokens = q->asked_output_tokens;
    f->input_bytes = q->body_bytes > 0 ? q->body_bytes : -1;
    f->cap_released_ns = q->cap_released_ns;
    f->has_result = res != NULL;
    f->end_ns = res ? res->end_ns : -1;
    f->posttransfer_ns = res ? res->phases.posttransfer_ns : -1;
    f->pretransfer_ns = res ? res->phases.pretransfer_ns : -1;
    f->tokens = s->tokens;
    f->n_tokens = s->n_tokens;
    f->token_events = s->token_events;
    f->reasoning_events = s->reasoning_events;
    f->text_bytes = s->text_bytes;
    f->first_token_ns = s->first_token_ns;
    f->first_content_ns = s->first_content_ns;
    f->last_token_ns = s->last_token_ns;
    f->done_seen = s->done_seen;
    f->done_ns = s->done_ns;
    f->last_feed_ns = s->last_feed_ns;
    f->usage_output_tokens = s->usage_output_tokens;
    f->usage_input_tokens = s->usage_input_tokens;
    f->cached_tokens = s->usage_cached_tokens >= 0 ? s->usage_cached_tokens
                                                   : s->server_timings.cache_n;
    /* no cached count, but every prompt token (usage) and those processed
     * (llama.cpp's timings.prompt_n): the rest came from the cache */
    f->cached_derived = f->cached_tokens < 0 && s->usage_input_tokens >= 0 &&
                        s->server_timings.prompt_n >= 0 &&
                        s->server_timings.prompt_n <= s->usage_input_tokens;
    if (f->cached_derived)
        f->cached_tokens = s->usage_input_tokens - s->server_timings.prompt_n;
    /* Anthropic's input_tokens leaves out what the cache read and wrote */
    if (s->api == API_ANTHROPIC && f->usage_input_tokens >= 0)
        f->usage_input_tokens +=
            (s->usage_cached_tokens > 0 ? s->usage_cached_tokens : 0) +
            (s->usage_cache_write_tokens > 0 ? s->usage_cache_write_tokens : 0);
    f->server = s->server_timings;
    f->comments = s->comments;
}

/* Computes the metrics of one request and hands them to the sink. res is
 * NULL for a request the trace never finished; superseded marks an attempt
 * a retry replaced (counted, handed out only with_superseded). */
static void finish_request(struct loader *L, struct pending *p,
                           const struct trace_result *res, bool superseded)
{
    struct request_metrics m;
    struct metrics_facts f;
    struct waterfall_facts wf;
    struct stream_state *s = p->stream;
    const struct trace_request *q = &p->req;
    char kind_buf[32];

    stream_finish(s);
    memset(&m, 0, sizeof(m));
    m.trace = L->info;
    m.id = q->id;
    m.x_request_id = q->request_id;
    m.model = p->model ? p->model : "";
    m.class_name = p->class_name ? p->class_name : "";
    m.prompt_index = q->prompt_index;
    m.warmup = q->warmup;
    m.attempt = q->attempt ? q->attempt : 1;
    m.retry_of = q->retry_of;
    m.stage = q->stage;
    m.session = q->session;
    m.turn = q->turn;
    m.superseded = superseded;
    m.http_status = res ? res->http_status : 0;
    m.max_tokens = q->max_tokens;
    m.headers = res ? res->headers : NULL;
    m.n_headers = res ? res->n_headers : 0;
    m.stream = s;
    m.error_kind = derive_error(q, res, s, kind_buf, sizeof(kind_buf));
    if (m.error_kind && strcmp(m.error_kind, ERROR_KIND_BAD_TIMES) == 0)
        L->bad_times++;
    m.error_message = res ? res->error_message : NULL;
    if (!m.error_message && s->stream_errors)
        m.error_message = s->error_message;
    m.server_message = m.error_kind ? server_message(L, p, res, s) : NULL;
    m.finish_reason = s->finish_reason[0] ? s->finish_reason : NULL;
    request_facts(q, res, s, m.error_kind == NULL, L->opt->tokens, &f);
    /* out of memory: no token arrays (n_itl 0), the rest is there */
    if (metrics_compute(&f, &L->mbuf, &m) != METRICS_OK ||
        s->err == STREAM_E_NOMEM)
        L->partial++;
    wf.ok = m.ok;
    wf.start_ns = q->start_ns;
    wf.res = res;
    wf.stream = s;
    waterfall_compute(&wf, &m.waterfall);
    if (L->info->first_start_ns < 0 ||
        (q->start_ns >= 0 && q->start_ns < L->info->first_start_ns))
        L->info->first_start_ns = q->start_ns;
    if (m.end_ns > L->info->last_end_ns)
        L->info->last_end_ns = m.end_ns;
    if (!q->warmup && q->start_ns >= 0 &&
        (L->info->measured_start_ns < 0 ||
         q->start_ns < L->info->measured_start_ns))
        L->info->measured_start_ns = q->start_ns;
    if (!q->warmup && m.end_ns > L->info->measured_end_ns)
        L->info->measured_end_ns = m.end_ns;
    if (superseded)
        L->info->retried++;
    if (!L->stop && (!superseded || L->opt->with_superseded) &&
        L->sink(L->ctx, &m) != 0) {
        L->stop = 1;
        L->sink_failed = true;
    }
    pending_clear(L, p);
}

/* The result of p's latest attempt: its held one, else none. */
static const struct trace_result *held_result(const struct pending *p)
{
    return p->held ? &p->saved : NULL;
}

/* A result that announces a retry: keeps p until the retry's request
 * record (or the trace's end) decides what this attempt was. */
static void hold_request(struct loader *L, struct pending *p,
                         const struct trace_result *res)
{
    uint32_t first = first_attempt_id(p);
    struct pending *old = id_map_get(&L->held, first);
    if (old) /* two attempts waiting for one retry: the older was final */
        finish_request(L, old, held_result(old), false);
    p->saved = *res;
    p->saved.headers = NULL;
    p->saved.n_headers = 0;
    p->saved_kind = dup_or_null(res->error_kind);
    p->saved_message = dup_or_null(res->error_message);
    p->saved.error_kind = p->saved_kind;
    p->saved.error_message = p->saved_message;
    p->held = true;
    if (id_map_put(&L->held, first, p) != 0) {
        finish_request(L, p, held_result(p), false); /* out of memory */
        return;
    }
}

/* A retry's request record: the attempt it replaces is superseded. */
static void supersede_attempt(struct loader *L, const struct trace_request *q)
{
    struct pending *p;
    if (q->retry_of == 0)
        return;
    p = id_map_get(&L->held, q->retry_of);
    if (p)
        finish_request(L, p, held_result(p), true);
}

static void pending_drain(struct loader *L, bool unfinished)
{
    size_t n = L->pending.n;
    struct pending **all;
    if (n == 0) {
        id_map_free(&L->pending);
        id_map_free(&L->held);
        return;
    }
    all = malloc(n * sizeof(*all));
    if (!all) {
        if (unfinished)
            L->lost += n;
        id_map_free(&L->pending); /* out of memory: lose them, not crash */
        id_map_free(&L->held);
        return;
    }
    n = id_map_values(&L->pending, (void **)all);
    qsort(all, n, sizeof(*all), cmp_pending_id);
    for (size_t i = 0; i < n; i++) {
        /* a held attempt whose retry never came is the request's last */
        if (unfinished)
            finish_request(L, all[i], held_result(all[i]), false);
        else
            pending_clear(L, all[i]);
    }
    free(all);
    id_map_free(&L->pending); /* ids restart with the next trace */
    id_map_free(&L->held);
}

/* Ends the current trace: unfinished requests first, then the trace sink. */
/* A handed record: one more chunk's time inside the proxy. A negative
 * one (a damaged or crafted record) is left out. */
static void note_handed(struct loader *L, const struct trace_handed *h)
{
    int64_t d = h->handed_ns - h->recv_ns;
    if (!L->info || h->recv_ns < 0 || d < 0)
        return;
    L->info->proxy_chunks++;
    if (d > L->info->proxy_max_ns)
        L->info->proxy_max_ns = d;
    stats_vec_push(&L->proxy_ns, (double)d); /* past the cap: max only */
}

/* The current trace's proxy percentiles from the samples, then forgets
 * them. */
static void proxy_percentiles(struct loader *L)
{
    struct stats_summary sum;
    if (L->proxy_ns.n &&
        stats_summarize(L->proxy_ns.v, L->proxy_ns.n, &sum) == STATS_OK) {
        L->info->proxy_p50_ns = (int64_t)llround(sum.p50);
        L->info->proxy_p99_ns = (int64_t)llround(sum.p99);
    }
    stats_vec_reset(&L->proxy_ns);
}

static void end_trace(struct loader *L)
{
    if (!L->info)
        return;
    pending_drain(L, true);
    if (L->bad_times)
        log_warn("%s: %llu request%s with times that cannot be (a chunk before "
                 "the start, an end before the start, times going back): "
                 "counted as failed with kind bad_times, their timings left "
                 "out",
                 L->info->file ? L->info->file : "trace",
                 (unsigned long long)L->bad_times,
                 L->bad_times == 1 ? "" : "s");
    L->bad_times = 0;
    proxy_percentiles(L);
    if (L->tsink)
        L->tsink(L->ctx, L->info);
    L->info = NULL;
}

static void on_request(struct loader *L, const struct trace_request *q)
{
    struct pending *p = id_map_get(&L->pending, q->id);
    if (p) /* a repeated id: finish the old one as unfinished */
        finish_request(L, p, held_result(p), false);
    supersede_attempt(L, q);
    p = calloc(1, sizeof(*p));
    if (!p || id_map_put(&L->pending, q->id, p)) {
        free(p);
        L->lost++;
        return;
    }
    p->req = *q;
    p->req.body = NULL; /* not kept: its size is (input bytes) */
    if (q->body)
        p->req.body_bytes = (int64_t)q->body_len;
    p->req.request_id = dup_or_null(q->request_id);
    p->model = dup_or_null(q->model);
    p->class_name = dup_or_null(q->class_name);
    p->stream = stream_take(L);
    if (p->stream && q->api) { /* a proxy saw this request's own API */
        enum api_kind k;
        if (api_kind_from_name(q->api, &k) == 0 && k != L->api)
            stream_state_reset(p->stream, k);
    }
    L->info->requests++;
    if (!p->stream) {
        L->lost++;
        pending_clear(L, p);
    }
}

/* Says what trace_reader_next's error st means for the trace being read
 * (kept in its trace_info as its damage). */
static void report_damage(struct loader *L, struct trace_reader *r, int st)
{
    if (st == -TRACE_E_VERSION) {
        /* Not damage: a newer format this reader must not guess at. */
        log_error("%s; this trace is not analyzed", trace_reader_error(r));
    } else if (!L->info) {
        /* Not a trace at all (no header before the damage): nothing of it
         * is analyzed, so it is no warning (issue 32). */
        log_error("%s: not a tokentrace trace, nothing of it is analyzed",
                  trace_reader_error(r));
    } else {
        log_warn("%s; analyzing the complete records before it",
                 trace_reader_error(r));
        if (L->info && !L->info->damage)
            L->info->damage = strdup(trace_reader_error(r));
    }
}

/* The traces read so far, by identity (trace id and both clock zeros: a
 * copy of the same trace has all three equal). Zero it to start. */
struct load_seen {
    struct load_seen_entry *v;
    size_t n, cap;
};
struct load_seen_entry {
    char *trace_id; /* owned */
    int64_t mono_zero_ns, real_zero_ns;
    char *file; /* where it was first read (owned) */
};

/* Frees seen's entries and zeroes it. */
static void load_seen_free(struct load_seen *seen)
{
    if (!seen)
        return;
    for (size_t i = 0; i < seen->n; i++) {
        free(seen->v[i].trace_id);
        free(seen->v[i].file);
    }
    free(seen->v);
    memset(seen, 0, sizeof(*seen));
}

/* True when h is a trace already read (a warning names both places); else
 * remembers it and returns false. A header without a trace id is never a
 * repeat (nothing to tell copies apart by). */
static bool seen_before(struct load_seen *seen, const struct trace_header *h,
                        const char *file)
{
    struct load_seen_entry *e;
    if (!seen || !h->trace_id || !h->trace_id[0])
        return false;
    for (size_t i = 0; i < seen->n; i++) {
        e = &seen->v[i];
        if (e->mono_zero_ns == h->mono_zero_ns &&
            e->real_zero_ns == h->real_zero_ns &&
            strcmp(e->trace_id, h->trace_id) == 0) {
            log_warn("%s: trace %s was already read (from %s): a repeated "
                     "trace is counted once",
                     file, h->trace_id, e->file);
            return true;
        }
    }
    if (seen->n == seen->cap) {
        size_t ncap = seen->cap ? seen->cap * 2 : 8;
        e = realloc(seen->v, ncap * sizeof(*e));
        if (!e)
            return false; /* out of memory: read it, as without seen */
        seen->v = e;
        seen->cap = ncap;
    }
    e = &seen->v[seen->n];
    e->trace_id = strdup(h->trace_id);
    e->file = strdup(file);
    if (!e->trace_id || !e->file) {
        free(e->trace_id);
        free(e->file);
        return false;
    }
    e->mono_zero_ns = h->mono_zero_ns;
    e->real_zero_ns = h->real_zero_ns;
    seen->n++;
    return false;
}

static int push_info(struct trace_info *t, struct trace_info ***infos,
                     size_t *n)
{
    struct trace_info **p = realloc(*infos, (*n + 1) * sizeof(*p));
    if (!p)
        return -1;
    *infos = p;
    p[(*n)++] = t;
    return 0;
}

/* load_trace_file with the traces already read in seen (NULL: none
 * skipped). */
static int load_one_file(const char *path, const struct load_options *opt,
                         struct load_seen *seen, request_sink sink,
                         trace_sink tsink, void *ctx,
                         struct trace_info ***infos, size_t *n_infos)
{
    struct loader L;
    struct trace_reader *r;
    struct trace_record rec;
    int st = 0, rc = 0;
    bool skipping = false, any_header = false;
    memset(&L, 0, sizeof(L));
    L.opt = opt;
    L.sink = sink;
    L.tsink = tsink;
    L.ctx = ctx;
    stats_vec_init(&L.proxy_ns, LOAD_PROXY_SAMPLES);
    if (trace_reader_open(path, &r) != TRACE_OK) {
        log_error("%s: cannot open: %m", path);
        return 1;
    }
    for (;;) {
        struct pending *p;
        if (L.stop)
            break;
        st = trace_reader_next(r, &rec);
        if (st < 0) {
            report_damage(&L, r, st);
            rc = 1;
            if (trace_reader_resync(r) != 1)
                break;
            /* cat a b c with a damaged: b and c are still read */
            log_warn("%s", trace_reader_resync_note(r));
            continue;
        }
        if (st <= 0)
            break;
        if (rec.kind == TRACE_HEADER) {
            end_trace(&L);
            skipping = seen_before(seen, &rec.u.header, trace_reader_name(r));
            any_header = true;
        }
        if (skipping) /* a repeated trace: up to the next header */
            continue;
        switch (rec.kind) {
        case TRACE_HEADER:
            L.info = load_info_from_header(&rec.u.header, trace_reader_name(r));
            if (!L.info || push_info(L.info, infos, n_infos)) {
                log_error("out of memory");
                rc = 1;
                goto done;
            }
            L.info->index = (unsigned)(*n_infos - 1);
            if (api_kind_from_name(L.info->api, &L.api) != 0) {
                log_warn("%s: unknown API kind '%s', parsing as openai-chat",
                         trace_reader_name(r), L.info->api);
                L.api = API_OPENAI_CHAT;
            }
            break;
        case TRACE_REQUEST:
            on_request(&L, &rec.u.request);
            break;
        case TRACE_CHUNK:
            p = id_map_get(&L.pending, rec.u.chunk.request_id);
            if (p) {
                stream_feed(p->stream, rec.u.chunk.t_ns, rec.u.chunk.data,
                            rec.u.chunk.len);
                if (!p->head_decided || p->head)
                    keep_head(p, rec.u.chunk.data, rec.u.chunk.len);
                L.info->chunks++;
                L.info->bytes += rec.u.chunk.len;
                phase_runs_add(&L.info->phase, rec.u.chunk.t_ns,
                               rec.u.chunk.request_id);
            }
            break;
        case TRACE_RESULT:
            p = id_map_get(&L.pending, rec.u.result.id);
            if (p && p->held) /* a second result: the first one stands */
                break;
            if (p && rec.u.result.will_retry)
                hold_request(&L, p, &rec.u.result);
            else if (p)
                finish_request(&L, p, &rec.u.result, false);
            break;
        case TRACE_FOOTER:
            L.info->has_footer = true;
            L.info->interrupted = rec.u.footer.interrupted;
            free(L.info->footer_reason);
            L.info->footer_reason = dup_or_null(rec.u.footer.reason);
            free(L.info->recording_stopped);
            L.info->recording_stopped =
                dup_or_null(rec.u.footer.recording_stopped);
            L.info->unrecorded = rec.u.footer.unrecorded;
            L.info->loop_lag_samples = rec.u.footer.loop_lag_samples;
            L.info->loop_lag_p50_ns = rec.u.footer.loop_lag_p50_ns;
            L.info->loop_lag_p99_ns = rec.u.footer.loop_lag_p99_ns;
            L.info->loop_lag_max_ns = rec.u.footer.loop_lag_max_ns;
            L.info->wake_probe_samples = rec.u.footer.wake_probe_samples;
            L.info->wake_probe_p50_ns = rec.u.footer.wake_probe_p50_ns;
            L.info->wake_probe_p99_ns = rec.u.footer.wake_probe_p99_ns;
            L.info->wake_probe_max_ns = rec.u.footer.wake_probe_max_ns;
            L.info->receive_lag_samples = rec.u.footer.receive_lag_samples;
            L.info->receive_lag_p50_ns = rec.u.footer.receive_lag_p50_ns;
            L.info->receive_lag_p99_ns = rec.u.footer.receive_lag_p99_ns;
            L.info->receive_lag_max_ns = rec.u.footer.receive_lag_max_ns;
            free(L.info->keep_awake_end);
            L.info->keep_awake_end = dup_or_null(rec.u.footer.keep_awake_end);
            L.info->keep_awake_changes = rec.u.footer.keep_awake_changes;
            break;
        case TRACE_STAGE:
            if (L.info)
                note_stage(L.info, &rec.u.stage);
            break;
        case TRACE_SERVER_METRICS:
            if (L.info &&
                server_metrics_add(&L.info->server, &rec.u.server_metrics))
                L.info->server_lost++;
            break;
        case TRACE_HANDED:
            note_handed(&L, &rec.u.handed);
            break;
        default:
            break;
        }
    }
    if (st >= 0 && !any_header && !L.stop) {
        /* Read whole, yet no trace in it: damage too (as `check` says). */
        log_warn("%s: empty file, no trace header", trace_reader_name(r));
        rc = 1;
    }
    end_trace(&L);
done:
    pending_drain(&L, false);
    for (size_t i = 0; i < L.n_pool; i++) {
        stream_state_free(L.pool[i]);
        free(L.pool[i]);
    }
    free(L.pool);
    metrics_buf_free(&L.mbuf);
    stats_vec_free(&L.proxy_ns);
    if (L.lost || L.partial) {
        log_error("%s: out of memory: %llu request%s not analyzed and %llu "
                  "without token times; the numbers would describe less than "
                  "the trace, so this is an error (free memory, or analyze "
                  "fewer traces at once)",
                  trace_reader_name(r), (unsigned long long)L.lost,
                  L.lost == 1 ? "" : "s", (unsigned long long)L.partial);
        rc = 1;
    } else if (L.sink_failed) {
        log_error("%s: reading stopped before the end of the trace (out of "
                  "memory, or the output could not be written)",
                  trace_reader_name(r));
        rc = 1;
    }
    trace_reader_close(r);
    return rc;
}

int load_trace_files(char *const *paths, size_t n_paths,
                     const struct load_options *opt, request_sink sink,
                     trace_sink tsink, void *ctx, struct trace_info ***infos,
                     size_t *n_infos)
{
    struct load_seen seen = {0};
    int rc = 0;
    for (size_t i = 0; i < n_paths; i++)
        rc |= load_one_file(paths[i], opt, opt->keep_repeated ? NULL : &seen,
                            sink, tsink, ctx, infos, n_infos);
    load_seen_free(&seen);
    return rc;
}

int load_trace_file(const char *path, const struct load_options *opt,
                    request_sink sink, trace_sink tsink, void *ctx,
                    struct trace_info ***infos, size_t *n_infos)
{
    char *paths[] = {(char *)path};
    return load_trace_files(paths, 1, opt, sink, tsink, ctx, infos, n_infos);
}
