/* proxy_record: request, chunk, handed and result records of proxied
 * exchanges, in the recorder's format and with its secret rules. */
#define _GNU_SOURCE /* memmem */
#include "proxy_record.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error_kinds.h"
#include "log.h"
#include "secret.h"

static const char *const limit_names[PROXY_LIMIT_COUNT] = {
    [PROXY_LIMIT_UNAUTHORIZED] = "unauthorized",
    [PROXY_LIMIT_HEADER] = "request_header_too_large",
    [PROXY_LIMIT_BODY] = "request_body_too_large",
    [PROXY_LIMIT_URL] = "url_too_long",
    [PROXY_LIMIT_MALFORMED] = "unreadable_request",
    [PROXY_LIMIT_CONTENT_LENGTH] = "conflicting_content_length",
    [PROXY_LIMIT_DOT_SEGMENTS] = "dot_segments",
    [PROXY_LIMIT_CONNECTIONS] = "connection_cap",
    [PROXY_LIMIT_EVICTED] = "waiting_connection_closed",
    [PROXY_LIMIT_FDS] = "out_of_file_descriptors",
    [PROXY_LIMIT_HEADER_TIMEOUT] = "header_timeout",
    [PROXY_LIMIT_UPSTREAM_HEADER] = "upstream_header_too_large",
    [PROXY_LIMIT_RESP_HEADERS] = "response_headers_dropped",
    [PROXY_LIMIT_SECRETS] = "credentials_unmasked",
    [PROXY_LIMIT_COMPRESSED] = "compressed_response",
    [PROXY_LIMIT_UNRECORDED] = "unrecorded",
};

const char *proxy_limit_name(enum proxy_limit k)
{
    return (unsigned)k < PROXY_LIMIT_COUNT ? limit_names[k] : "unknown";
}

void proxy_recorder_limit(struct proxy_recorder *r, enum proxy_limit k,
                          uint64_t n, const char *detail)
{
    uint64_t said;
    if ((unsigned)k >= PROXY_LIMIT_COUNT)
        return;
    r->limits[k] += n;
    said = ++r->limit_events[k];
    if (said <= 10 || said % 1000 == 0)
        log_warn("%s (%s, %llu so far; the footer's proxy_limits counts "
                 "them)",
                 detail, limit_names[k], (unsigned long long)r->limits[k]);
}

void proxy_recorder_failed(struct proxy_recorder *r, int err)
{
    if (!err || r->err)
        return;
    r->err = err;
    log_error("cannot write the trace (%s): RECORDING STOPPED; forwarding "
              "goes on, and the requests from now on are not recorded "
              "(counted at the end)",
              trace_io_strerror(err, trace_writer_errno(r->w)));
}

/* The first trace error sticks in the recorder. */
static int note(struct proxy_recorder *r, int err)
{
    proxy_recorder_failed(r, err);
    return err;
}

/* True while the trace takes records: once a write failed (the disk is
 * full), the proxy forwards on and records nothing more. */
static bool writing(const struct proxy_recorder *r)
{
    return r->w && !r->err;
}

/* stream_rx sink: one chunk record. */
static int store(void *ud, int64_t t_ns, const char *p, size_t n)
{
    struct proxy_exchange *x = ud;
    x->rec->chunks++;
    x->rec->bytes += n;
    return writing(x->rec) ? trace_write_chunk(x->rec->w, x->id, t_ns, p, n)
                           : 0;
}

/* True when a cap has stopped the recording (and says so when it first
 * does): this request is forwarded only. */
static bool capped(struct proxy_recorder *r)
{
    if (!r->stopped[0] && r->max_requests && r->next_id >= r->max_requests)
        snprintf(r->stopped, sizeof r->stopped, "--max-requests %llu",
                 (unsigned long long)r->max_requests);
    else if (!r->stopped[0] && r->max_bytes &&
             r->bytes + r->body_bytes >= r->max_bytes)
        snprintf(r->stopped, sizeof r->stopped, "--max-bytes %llu",
                 (unsigned long long)r->max_bytes);
    else if (!r->stopped[0])
        return false;
    if (!r->unrecorded++)
        log_warn("%s reached: recording stopped after %u requests; later "
                 "requests are forwarded but not recorded (the footer "
                 "counts them)",
                 r->stopped + 2, r->next_id);
    return true;
}

int proxy_exchange_init(struct proxy_exchange *x, struct proxy_recorder *rec,
                        const char *api, const char *const *secrets, size_t n)
{
    struct stream_rx_setup su;
    size_t i;
    if (api && capped(rec))
        api = NULL;
    memset(x, 0, sizeof *x);
    memset(&su, 0, sizeof su);
    x->rec = rec;
    if (api) /* proxy_route_api's names are all kinds */
        (void)api_kind_from_name(api, &su.api);
    su.kernel_time = rec->kernel_time;
    su.receive_lag = &rec->receive_lag;
    su.sink = api ? store : NULL; /* not recorded: only counted */
    su.sink_ud = x;
    stream_rx_init(&x->rx, &su);
    for (i = 0; i < n; i++) {
        if (!secrets[i])
            continue;
        if (stream_rx_add_secret(&x->rx, secrets[i], strlen(secrets[i])))
            return TRACE_E_NOMEM;
        if (!x->header_secret && secrets[i][0]) {
            x->header_secret = strdup(secrets[i]);
            if (!x->header_secret)
                return TRACE_E_NOMEM;
            resp_headers_set_secret(&x->rx.resp, x->header_secret);
        }
    }
    if (api)
        x->id = ++rec->next_id;
    return 0;
}

/* The value of the top-level "model" member of a JSON body, copied into
 * out (cap bytes); "" when there is none. A plain scan: the first
 * "model" key followed by a string, which in API requests is the
 * top-level one (it comes before the messages). */
static void body_model(const char *body, size_t len, char *out, size_t cap)
{
    const char *p = body, *end = body + len;
    out[0] = '\0';
    while (p && p < end) {
        const char *k = memmem(p, (size_t)(end - p), "\"model\"", 7);
        const char *v;
        size_t n = 0;
        if (!k)
            return;
        v = k + 7;
        while (v < end && (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r'))
            v++;
        if (v < end && *v == ':') {
            v++;
            while (v < end && (*v == ' ' || *v == '\t' || *v == '\n'))
                v++;
            if (v < end && *v == '"') {
                v++;
                while (v + n < end && v[n] != '"' && v[n] != '\\' &&
                       n + 1 < cap)
                    n++;
                memcpy(out, v, n);
                out[n] = '\0';
                return;
            }
        }
        p = k + 7;
    }
}

/* The output cap the client asked for: the body's top-level
 * max_completion_tokens (OpenAI's newer name, which wins), else
 * max_tokens (OpenAI, Anthropic), else max_output_tokens (Responses); -1
 * when none is a whole number >= 0. SGLang's benchmark falls back to it
 * when a stream has no usage (docs/definitions.md). */
static int64_t body_max_tokens(const char *body, size_t len)
{
    static const char *const keys[] = {"max_completion_tokens", "max_tokens",
                                       "max_output_tokens"};
    cJSON *root = body ? cJSON_ParseWithLength(body, len) : NULL;
    int64_t out = -1;
    for (size_t i = 0; root && out < 0 && i < 3; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, keys[i]);
        if (cJSON_IsNumber(v) && isfinite(v->valuedouble) &&
            v->valuedouble >= 0 && v->valuedouble < 9e15 &&
            v->valuedouble == floor(v->valuedouble))
            out = (int64_t)v->valuedouble;
    }
    cJSON_Delete(root);
    return out;
}

int proxy_exchange_request(struct proxy_exchange *x, const char *api,
                           const char *body, size_t len, bool no_content,
                           const char *session_header)
{
    struct trace_request q;
    char model[256];
    char *copy = NULL;
    int err;
    if (x->id && x->rec->w && x->rec->err)
        x->rec->limits[PROXY_LIMIT_UNRECORDED]++;
    if (!x->id || !writing(x->rec))
        return 0;
    proxy_sessions_place(x->rec->sessions, api, session_header, body,
                         body ? len : 0, x->start_ns, &x->turn);
    body_model(body ? body : "", body ? len : 0, model, sizeof model);
    stream_rx_mask(&x->rx, model);
    if (body && !no_content) {
        copy = malloc(len + 1);
        if (!copy)
            return note(x->rec, TRACE_E_NOMEM);
        memcpy(copy, body, len);
        copy[len] = '\0';
        x->rec->body_bytes += len;
        body_scrub_mask(&x->rx.scrub, copy, len);
    }
    memset(&q, 0, sizeof q);
    q.id = x->id;
    q.model = model;
    q.class_name = "proxy";
    q.prompt_index = -1;
    q.input_tokens_est = body ? (int64_t)(len / 4) : -1;
    q.max_tokens = body_max_tokens(body, body ? len : 0);
    q.scheduled_ns = -1;
    q.start_ns = x->start_ns;
    q.received_ns = x->received_ns;
    q.body = copy;
    q.body_len = copy ? len : 0;
    q.api = api;
    q.session = x->turn.session;
    q.turn = x->turn.turn;
    q.think_ns = x->turn.think_ns;
    q.compaction = x->turn.compaction;
    x->rec->requests++;
    err = note(x->rec, trace_write_request(x->rec->w, &q));
    free(copy);
    return err;
}

void proxy_exchange_header(struct proxy_exchange *x, const char *line, size_t n)
{
    stream_rx_header(&x->rx, line, n);
}

int proxy_exchange_body(struct proxy_exchange *x, int64_t t_ns, const char *p,
                        size_t n)
{
    return note(x->rec, stream_rx_body(&x->rx, t_ns, p, n));
}

int proxy_exchange_handed(struct proxy_exchange *x, uint64_t chunk,
                          int64_t recv_ns, int64_t handed_ns)
{
    struct trace_handed h = {x->id, chunk, recv_ns, handed_ns};
    if (!x->id || !writing(x->rec))
        return 0;
    return note(x->rec, trace_write_handed(x->rec->w, &h));
}

int proxy_exchange_finish(struct proxy_exchange *x, CURL *easy, CURLcode code,
                          int64_t end_ns, char *kind_out, size_t kind_len)
{
    struct trace_result r;
    struct stream_rx_end e;
    char kind_buf[32], msg[512];
    int err;
    memset(&e, 0, sizeof e);
    e.easy = easy;
    e.code = code;
    e.curl_error = x->errbuf;
    e.forced = x->forced_kind;
    e.timeout_s = x->rec->timeout_s;
    e.end_ns = end_ns;
    err = note(x->rec, stream_rx_result(&x->rx, &e, &r, kind_buf,
                                        sizeof kind_buf, msg, sizeof msg));
    r.id = x->id;
    r.attempt = 1;
    snprintf(kind_out, kind_len, "%s", r.error_kind);
    if (!x->id)
        return err;
    proxy_sessions_ended(x->rec->sessions, x->turn.session, x->turn.turn,
                         end_ns);
    if (r.error_kind[0])
        x->rec->failed++;
    else
        x->rec->ok++;
    if (writing(x->rec) && !err)
        err = note(x->rec, trace_write_result(x->rec->w, &r));
    return err;
}

/* True when code is libcurl failing on a response header line over
 * CURL_MAX_HTTP_HEADER, before any body. */
static bool header_too_large(const struct proxy_exchange *x, CURLcode code,
                             bool reply_started)
{
#if LIBCURL_VERSION_NUM >= 0x080600
    if (code == CURLE_TOO_LARGE)
        return true;
#endif
    return code == CURLE_OUT_OF_MEMORY && !reply_started && x->rx.bytes == 0;
}

int proxy_exchange_limits(struct proxy_exchange *x, CURLcode code,
                          bool reply_started, size_t dropped_hdr, bool encoded,
                          bool out_of_fds)
{
    struct proxy_recorder *rec = x->rec;
    int refused = 0;
    char what[300];
    if (out_of_fds && code != CURLE_OK && !reply_started) {
        refused = 503;
        x->forced_kind = ERROR_KIND_PROXY_REFUSED;
        snprintf(x->errbuf, sizeof x->errbuf,
                 "no file descriptor for the upstream socket (the open-file "
                 "limit)");
        snprintf(what, sizeof what, "#%u: %s: answered 503", (unsigned)x->id,
                 x->errbuf);
        proxy_recorder_limit(rec, PROXY_LIMIT_FDS, 1, what);
    } else if (header_too_large(x, code, reply_started)) {
        refused = 502;
        x->forced_kind = ERROR_KIND_PROXY_REFUSED;
        snprintf(x->errbuf, sizeof x->errbuf,
                 "an upstream response header line is over libcurl's %d "
                 "bytes",
                 CURL_MAX_HTTP_HEADER);
        snprintf(what, sizeof what, "#%u: %.200s: answered 502",
                 (unsigned)x->id, x->errbuf);
        proxy_recorder_limit(rec, PROXY_LIMIT_UPSTREAM_HEADER, 1, what);
    }
    if (dropped_hdr) {
        snprintf(what, sizeof what,
                 "#%u: %zu upstream response header(s) not passed to the "
                 "client (over %d headers or %d bytes a line)",
                 (unsigned)x->id, dropped_hdr, PROXY_MAX_RESP_HEADERS,
                 CURL_MAX_HTTP_HEADER);
        proxy_recorder_limit(rec, PROXY_LIMIT_RESP_HEADERS, dropped_hdr, what);
    }
    if (encoded && x->id) {
        snprintf(what, sizeof what,
                 "#%u: the upstream sent its response encoded "
                 "(Content-Encoding) though the proxy asks for none: passed "
                 "and recorded as sent, not decoded (its tokens are not "
                 "read)",
                 (unsigned)x->id);
        proxy_recorder_limit(rec, PROXY_LIMIT_COMPRESSED, 1, what);
    }
    return refused;
}

void proxy_exchange_unmasked(struct proxy_exchange *x, size_t n)
{
    char what[160];
    if (n == 0)
        return;
    snprintf(what, sizeof what,
             "request #%u carries %zu credential(s) more than the proxy "
             "masks: they may be stored as sent",
             (unsigned)x->id, n);
    proxy_recorder_limit(x->rec, PROXY_LIMIT_SECRETS, n, what);
}

int proxy_exchange_refused(struct proxy_exchange *x, const char *api,
                           const char *body, size_t len, bool no_content,
                           int status, const char *why)
{
    struct trace_result r;
    int err;
    if (!x->id || !writing(x->rec))
        return 0;
    err = proxy_exchange_request(x, api, body, len, no_content, NULL);
    memset(&r, 0, sizeof r);
    r.id = x->id;
    r.attempt = 1;
    r.end_ns = x->start_ns;
    r.http_status = status;
    r.error_kind = ERROR_KIND_PROXY_REFUSED;
    r.error_message = why;
    r.first_byte_ns = -1;
    r.phases.namelookup_ns = r.phases.connect_ns = r.phases.tls_ns = -1;
    r.phases.pretransfer_ns = r.phases.posttransfer_ns = -1;
    r.phases.starttransfer_ns = r.phases.total_ns = -1;
    x->rec->failed++;
    if (!err)
        err = note(x->rec, trace_write_result(x->rec->w, &r));
    return err;
}

void proxy_exchange_free(struct proxy_exchange *x)
{
    secret_free(x->header_secret);
    x->header_secret = NULL;
    stream_rx_free(&x->rx);
}
