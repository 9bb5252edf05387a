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
#include "load_info.h"
#include "load_order.h"
#include "load_request.h"
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
    /* tokentrace-proxy: the first token's chunk reached the client's
     * socket (its handed record), -1 not yet; the chunks so far, the one
     * with the first token (-1 not yet) and the latest handed record (the
     * proxy writes a chunk's handed record before the chunk itself) */
    int64_t first_handed_ns;
    int64_t chunks, token_chunk;
    struct trace_handed last_handed;
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
    /* a request without "model" (a proxied client may send none): named,
     * as other missing keys are, not an empty name (issue 32) */
    m.model = p->model && *p->model ? p->model : "(none)";
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
    m.error_kind =
        load_request_error_kind(q, res, s, kind_buf, sizeof(kind_buf));
    if (m.error_kind && strcmp(m.error_kind, ERROR_KIND_BAD_TIMES) == 0)
        L->bad_times++;
    m.error_message = res ? res->error_message : NULL;
    if (!m.error_message && s->stream_errors)
        m.error_message = s->error_message;
    m.server_message =
        m.error_kind ? load_request_server_message(res, p->head, p->head_len, s,
                                                   L->server_message,
                                                   sizeof L->server_message)
                     : NULL;
    m.finish_reason = s->finish_reason[0] ? s->finish_reason : NULL;
    load_request_facts(q, res, s, m.error_kind == NULL, L->opt->tokens, &f);
    /* out of memory: no token arrays (n_itl 0), the rest is there */
    if (metrics_compute(&f, &L->mbuf, &m) != METRICS_OK ||
        s->err == STREAM_E_NOMEM)
        L->partial++;
    wf.ok = m.ok;
    wf.start_ns = q->start_ns;
    wf.res = res;
    wf.stream = s;
    wf.received_ns = q->received_ns;
    wf.first_handed_ns = p->first_handed_ns;
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
    p->saved_kind = load_info_dup(res->error_kind);
    p->saved_message = load_info_dup(res->error_message);
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
/* A chunk of p at t_ns was fed: when it brought the first token, which
 * chunk that is, and its hand-over to the client if that came first. */
static void note_token_chunk(struct pending *p, int64_t t_ns)
{
    int64_t k = p->chunks++;
    if (p->token_chunk >= 0 || p->stream->first_token_ns < 0)
        return;
    p->token_chunk = k;
    if ((int64_t)p->last_handed.chunk == k && p->last_handed.recv_ns == t_ns)
        p->first_handed_ns = p->last_handed.handed_ns;
}

/* A handed record: one more chunk's time inside the proxy, and, for the
 * chunk that carried its request's first token (the request not yet
 * ended), when the client got it; kept as the latest otherwise (the
 * chunk record usually follows). A negative one (a damaged or crafted
 * record) is left out. */
static void note_handed(struct loader *L, const struct trace_handed *h)
{
    int64_t d = h->handed_ns - h->recv_ns;
    struct pending *p;
    if (!L->info || h->recv_ns < 0 || d < 0)
        return;
    p = id_map_get(&L->pending, h->request_id);
    if (p && p->first_handed_ns < 0 && p->token_chunk >= 0 &&
        (int64_t)h->chunk == p->token_chunk)
        p->first_handed_ns = h->handed_ns;
    else if (p)
        p->last_handed = *h;
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
    p->req.request_id = load_info_dup(q->request_id);
    p->model = load_info_dup(q->model);
    p->class_name = load_info_dup(q->class_name);
    p->first_handed_ns = p->token_chunk = -1;
    p->last_handed.recv_ns = -1;
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
            load_info_report_damage(L.info, r, st);
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
            skipping = load_info_seen_before(seen, &rec.u.header,
                                             trace_reader_name(r));
            any_header = true;
        }
        if (skipping) /* a repeated trace: up to the next header */
            continue;
        switch (rec.kind) {
        case TRACE_HEADER:
            L.info = load_info_from_header(&rec.u.header, trace_reader_name(r));
            if (!L.info || load_info_push(L.info, infos, n_infos)) {
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
                note_token_chunk(p, rec.u.chunk.t_ns);
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
            load_info_note_footer(L.info, &rec.u.footer);
            break;
        case TRACE_STAGE:
            if (L.info)
                load_info_note_stage(L.info, &rec.u.stage);
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
    size_t *order = malloc((n_paths ? n_paths : 1) * sizeof(*order));
    int rc = 0;
    if (!order) {
        log_error("out of memory");
        return 1;
    }
    /* copies of one trace: the fullest is the one read, the rest skipped */
    if (opt->keep_repeated || load_order_copies(paths, n_paths, order))
        for (size_t i = 0; i < n_paths; i++)
            order[i] = i;
    for (size_t i = 0; i < n_paths; i++)
        rc |= load_one_file(paths[order[i]], opt,
                            opt->keep_repeated ? NULL : &seen, sink, tsink, ctx,
                            infos, n_infos);
    free(order);
    load_info_seen_free(&seen);
    return rc;
}

int load_trace_file(const char *path, const struct load_options *opt,
                    request_sink sink, trace_sink tsink, void *ctx,
                    struct trace_info ***infos, size_t *n_infos)
{
    char *paths[] = {(char *)path};
    return load_trace_files(paths, 1, opt, sink, tsink, ctx, infos, n_infos);
}
