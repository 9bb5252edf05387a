/* proxy_record: request, chunk, handed and result records of proxied
 * exchanges, in the recorder's format and with its secret rules. */
#define _GNU_SOURCE /* memmem */
#include "proxy_record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error_kind.h"
#include "secret.h"

/* The first trace error sticks in the recorder. */
static int note(struct proxy_recorder *r, int err)
{
    if (err == BODY_SCRUB_E_NOMEM)
        err = TRACE_E_NOMEM;
    if (err && !r->err)
        r->err = err;
    return err;
}

int proxy_exchange_init(struct proxy_exchange *x, struct proxy_recorder *rec,
                        bool recorded, const char *const *secrets, size_t n)
{
    size_t i;
    memset(x, 0, sizeof *x);
    x->rec = rec;
    x->first_byte_ns = -1;
    resp_headers_init(&x->resp);
    token_scan_init(&x->scan);
    body_scrub_init(&x->scrub);
    for (i = 0; i < n; i++) {
        if (!secrets[i])
            continue;
        if (body_scrub_add_json(&x->scrub, secrets[i], strlen(secrets[i])))
            return TRACE_E_NOMEM;
        if (!x->header_secret && secrets[i][0]) {
            x->header_secret = strdup(secrets[i]);
            if (!x->header_secret)
                return TRACE_E_NOMEM;
            resp_headers_set_secret(&x->resp, x->header_secret);
        }
    }
    if (recorded)
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

int proxy_exchange_request(struct proxy_exchange *x, const char *api,
                           const char *body, size_t len, bool no_content,
                           const char *session_header)
{
    struct trace_request q;
    char model[256];
    char *copy = NULL;
    int err;
    if (!x->id || !x->rec->w)
        return 0;
    proxy_sessions_place(x->rec->sessions, api, session_header, body,
                         body ? len : 0, x->start_ns, &x->turn);
    body_model(body ? body : "", body ? len : 0, model, sizeof model);
    body_scrub_mask(&x->scrub, model, strlen(model));
    if (body && !no_content) {
        copy = malloc(len + 1);
        if (!copy)
            return note(x->rec, TRACE_E_NOMEM);
        memcpy(copy, body, len);
        copy[len] = '\0';
        body_scrub_mask(&x->scrub, copy, len);
    }
    memset(&q, 0, sizeof q);
    q.id = x->id;
    q.model = model;
    q.class_name = "proxy";
    q.prompt_index = -1;
    q.input_tokens_est = body ? (int64_t)(len / 4) : -1;
    q.max_tokens = -1;
    q.scheduled_ns = -1;
    q.start_ns = x->start_ns;
    q.body = copy;
    q.body_len = copy ? len : 0;
    q.api = api;
    q.session = x->turn.session;
    q.turn = x->turn.turn;
    q.think_ns = x->turn.think_ns;
    x->rec->requests++;
    err = note(x->rec, trace_write_request(x->rec->w, &q));
    free(copy);
    return err;
}

void proxy_exchange_header(struct proxy_exchange *x, const char *line, size_t n)
{
    resp_headers_line(&x->resp, line, n);
}

/* body_scrub emit: one chunk record. */
static int store(void *ud, int64_t t_ns, const char *p, size_t n)
{
    struct proxy_exchange *x = ud;
    x->rec->chunks++;
    x->rec->bytes += n;
    return x->rec->w ? trace_write_chunk(x->rec->w, x->id, t_ns, p, n) : 0;
}

int proxy_exchange_body(struct proxy_exchange *x, int64_t t_ns, const char *p,
                        size_t n)
{
    if (x->first_byte_ns < 0)
        x->first_byte_ns = t_ns;
    x->bytes += n;
    x->chunks++;
    if (!x->id)
        return 0;
    token_scan_feed(&x->scan, p, n);
    return note(x->rec, body_scrub_feed(&x->scrub, t_ns, p, n, store, x));
}

int proxy_exchange_handed(struct proxy_exchange *x, uint64_t chunk,
                          int64_t recv_ns, int64_t handed_ns)
{
    struct trace_handed h = {x->id, chunk, recv_ns, handed_ns};
    if (!x->id || !x->rec->w)
        return 0;
    return note(x->rec, trace_write_handed(x->rec->w, &h));
}

/* A libcurl phase time as ns, or -1 when libcurl has none. */
static int64_t phase_ns(CURL *e, CURLINFO info)
{
    curl_off_t us = 0;
    if (!e || curl_easy_getinfo(e, info, &us) != CURLE_OK || us < 0)
        return -1;
    return (int64_t)us * 1000;
}

static void fill_phases(CURL *e, struct trace_phases *ph, int status)
{
    ph->namelookup_ns = phase_ns(e, CURLINFO_NAMELOOKUP_TIME_T);
    ph->connect_ns = phase_ns(e, CURLINFO_CONNECT_TIME_T);
    ph->tls_ns = phase_ns(e, CURLINFO_APPCONNECT_TIME_T);
    if (ph->tls_ns == 0)
        ph->tls_ns = -1;
    ph->pretransfer_ns = phase_ns(e, CURLINFO_PRETRANSFER_TIME_T);
#if LIBCURL_VERSION_NUM >= 0x080a00
    ph->posttransfer_ns = phase_ns(e, CURLINFO_POSTTRANSFER_TIME_T);
#else
    ph->posttransfer_ns = -1;
#endif
    ph->starttransfer_ns = phase_ns(e, CURLINFO_STARTTRANSFER_TIME_T);
    ph->total_ns = phase_ns(e, CURLINFO_TOTAL_TIME_T);
    if (status == 0 && ph->starttransfer_ns == 0)
        ph->starttransfer_ns = -1;
}

int proxy_exchange_finish(struct proxy_exchange *x, CURL *easy, CURLcode code,
                          int64_t end_ns, char *kind_out, size_t kind_len)
{
    struct trace_result r;
    struct error_facts f;
    char said[TOKEN_SCAN_ERROR_MAX + 1], kind_buf[32], msg[512];
    int err = 0;
    if (x->id)
        err = note(x->rec, body_scrub_finish(&x->scrub, store, x));
    body_scrub_mask(&x->scrub, x->errbuf, strlen(x->errbuf));
    memset(&r, 0, sizeof r);
    r.id = x->id;
    r.end_ns = end_ns;
    r.http_status = x->resp.status;
    r.headers = x->resp.kv;
    r.n_headers = x->resp.n;
    r.bytes = x->bytes;
    r.chunks = x->chunks;
    r.first_byte_ns = x->first_byte_ns;
    r.attempt = 1;
    fill_phases(easy, &r.phases, x->resp.status);
    memset(&f, 0, sizeof f);
    f.code = code;
    f.curl_error = x->errbuf;
    f.forced = x->forced_kind;
    f.http_status = x->resp.status;
    f.reason = x->resp.reason;
    f.content_type = x->resp.content_type;
    f.stream_error = x->scan.error_seen;
    token_scan_error_message(&x->scan, said, sizeof said);
    body_scrub_mask(&x->scrub, said, strlen(said));
    f.stream_error_message = said;
    f.token_seen = x->scan.token_seen;
    f.sse_framed = token_scan_sse(&x->scan);
    f.connected = x->resp.status > 0 || r.phases.connect_ns > 0 ||
                  r.phases.pretransfer_ns > 0;
    f.timeout_s = x->rec->timeout_s;
    r.error_kind =
        error_kind_classify(&f, kind_buf, sizeof kind_buf, msg, sizeof msg);
    body_scrub_mask(&x->scrub, msg, strlen(msg));
    r.error_message = r.error_kind[0] ? msg : NULL;
    snprintf(kind_out, kind_len, "%s", r.error_kind);
    if (!x->id)
        return err;
    proxy_sessions_ended(x->rec->sessions, x->turn.session, x->turn.turn,
                         end_ns);
    if (r.error_kind[0])
        x->rec->failed++;
    else
        x->rec->ok++;
    if (x->rec->w && !err)
        err = note(x->rec, trace_write_result(x->rec->w, &r));
    return err;
}

void proxy_exchange_free(struct proxy_exchange *x)
{
    secret_free(x->header_secret);
    x->header_secret = NULL;
    resp_headers_free(&x->resp);
    body_scrub_free(&x->scrub);
}
