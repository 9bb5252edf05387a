/* check_probe: sends one probe request and sums up what came back. */
#include "check_probe.h"

#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "error_kinds.h"
#include "run.h"
#include "sanitize.h"
#include "waterfall.h"

/* SSE events larger than this end a probe: not an event stream. */
#define PROBE_MAX_EVENT ((size_t)1 << 20)

/* What the progress callback needs. */
struct probe_ctl {
    struct transfer *t;
    const struct check_probe *p;
    int64_t idle_ns;
};

/* transfer observer: keeps the body's head. */
static void observe(void *ud, int64_t t_ns, const char *data, size_t n)
{
    struct check_probe *p = ud;
    size_t room = CHECK_BODY_MAX - p->body.len;
    (void)t_ns;
    if (room)
        buf_append(&p->body, data, n < room ? n : room);
}

/* libcurl progress: stops the probe when idle too long or on Ctrl-C. */
static int on_progress(void *ud, curl_off_t dt, curl_off_t dn, curl_off_t ut,
                       curl_off_t un)
{
    struct probe_ctl *c = ud;
    struct transfer *t = c->t;
    int64_t now = clock_mono_ns();
    int64_t last =
        t->last_activity_ns > t->start_ns ? t->last_activity_ns : t->start_ns;
    (void)dt, (void)dn, (void)ut, (void)un;
    if (run_stop_requested) {
        t->forced_kind = ERROR_KIND_INTERRUPTED;
        return 1;
    }
    if (c->idle_ns > 0 && now - last >= c->idle_ns) {
        t->forced_kind = ERROR_KIND_IDLE_TIMEOUT;
        return 1;
    }
    /* past the probe's cap, whatever the status: not an event stream (a
     * 2xx one the transfer has stopped already) */
    if (t->rx.stream.oversized) {
        t->forced_kind = ERROR_KIND_OVERSIZED_EVENT;
        return 1;
    }
    return 0;
}

/* Copies the response header name (lower case) into dst, "" if absent. */
static void header(const struct transfer *t, const char *name, char *dst,
                   size_t len)
{
    size_t i;
    dst[0] = '\0';
    for (i = 0; i < t->rx.resp.n; i++)
        if (strcmp(t->rx.resp.kv[i].key, name) == 0)
            snprintf(dst, len, "%s", t->rx.resp.kv[i].value);
}

/* host[:port] of url. */
static void url_host(const char *url, char *dst, size_t len)
{
    const char *h = strstr(url, "://");
    h = h ? h + 3 : url;
    snprintf(dst, len, "%.*s", (int)strcspn(h, "/?#"), h);
}

/* Writes the request record (the key scrubbed from the body). */
static int write_request(const struct check_probe_setup *s,
                         struct trace_request *req)
{
    char *scrubbed = NULL;
    int rc;
    if (req->body && s->key && *s->key && strstr(req->body, s->key)) {
        scrubbed = sanitize_key_only(req->body, s->key);
        if (!scrubbed)
            return -1;
        req->body = scrubbed;
        req->body_len = strlen(scrubbed);
    }
    rc = trace_write_request(s->env->writer, req);
    free(scrubbed);
    return rc ? -1 : 0;
}

/* The transfer part of the facts. */
static void transfer_facts(struct check_probe *p, const struct transfer *t,
                           const struct trace_result *r, struct probe_facts *f)
{
    struct waterfall_facts wf;
    struct waterfall w;
    long local_port = 0;
    curl_easy_getinfo(t->easy, CURLINFO_LOCAL_PORT, &local_port);
    f->error_kind = p->kind;
    f->forced_idle =
        t->forced_kind && strcmp(t->forced_kind, ERROR_KIND_IDLE_TIMEOUT) == 0;
    f->curl_error = p->curl_error;
    f->http_status = r->http_status;
    f->content_type = p->content_type;
    f->retry_after = p->retry_after;
    f->location = p->location;
    f->host = p->host;
    f->server_message = p->info.message;
    f->server_code = p->info.code;
    f->html_title = p->info.title;
    f->json_usage_tokens = p->info.usage_tokens;
    f->connect_ns = r->phases.connect_ns > 0 ? r->phases.connect_ns : -1;
    f->tls_ns = r->phases.tls_ns > 0 ? r->phases.tls_ns : -1;
    f->pretransfer_ns = r->phases.pretransfer_ns;
    f->tcp_connected = local_port > 0 || f->connect_ns > 0;
    f->tls_done = f->tls_ns > 0;
    f->total_ns = r->end_ns - p->start_ns;
    f->first_byte_ns =
        t->rx.first_byte_ns >= 0 ? t->rx.first_byte_ns - p->start_ns : -1;
    wf.ok = !r->error_kind || !r->error_kind[0];
    wf.start_ns = p->start_ns;
    wf.res = r;
    wf.stream = &t->rx.stream;
    wf.received_ns = wf.first_handed_ns = -1; /* not through the proxy */
    waterfall_compute(&wf, &w);
    if (w.measured)
        waterfall_describe(&w, p->waterfall, sizeof p->waterfall);
    f->waterfall = p->waterfall;
}

/* A stream time as ns from the probe's start, -1 when none. */
static int64_t since(const struct check_probe *p, int64_t t)
{
    return t >= 0 ? t - p->start_ns : -1;
}

/* The stream part of the facts (key scrubbed from the error message). */
static void stream_facts(struct check_probe *p, const char *key,
                         struct probe_facts *f)
{
    const struct stream_state *s = &p->stream;
    char *clean = sanitize_string(s->error_message, key);
    snprintf(p->stream_message, sizeof p->stream_message, "%s",
             clean ? clean : "");
    free(clean);
    f->bytes = s->bytes;
    f->sse_events = s->sse_events;
    f->token_events = s->token_events;
    f->reasoning_events = s->reasoning_events;
    f->comments = s->comments;
    stream_bursts_of(s->tokens, s->n_tokens, &f->bursts);
    f->text_chars = s->text_chars;
    f->usage_tokens = s->usage_output_tokens;
    f->ttft_ns = since(p, s->first_token_ns);
    f->ttft_content_ns = since(p, s->first_content_ns);
    f->last_token_ns = since(p, s->last_token_ns);
    f->done_seen = s->done_seen;
    f->stream_errors = s->stream_errors;
    f->stream_error_type = s->error_type;
    f->stream_error_message = p->stream_message;
    f->oversized = s->oversized;
}

int check_probe_run(const struct check_probe_setup *s, char *body,
                    bool store_body, struct trace_request *req,
                    struct check_probe *p, struct probe_facts *f)
{
    struct transfer_config tc = *s->tc;
    struct transfer *t;
    struct trace_result res;
    struct probe_ctl ctl;
    char msg[CURL_ERROR_SIZE + 128];
    CURLcode code;
    int rc = 0;
    memset(p, 0, sizeof *p);
    buf_init(&p->body, CHECK_BODY_MAX + 1);
    url_host(s->tc->url, p->host, sizeof p->host);
    tc.max_event_bytes = PROBE_MAX_EVENT;
    tc.keep_tokens = true; /* the bursts */
    if (transfer_new(&tc, s->env, req->id, req->request_id, body, &t))
        return -1;
    t->observe = observe;
    t->observe_ud = p;
    ctl.t = t;
    ctl.p = p;
    ctl.idle_ns = (int64_t)(s->idle_timeout_s * 1e9);
    curl_easy_setopt(t->easy, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(t->easy, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(t->easy, CURLOPT_XFERINFODATA, &ctl);
    req->body = store_body ? t->body : NULL;
    req->body_len = store_body ? t->body_len : 0;
    p->start_ns = t->start_ns = req->start_ns = clock_mono_ns();
    if (s->env->writer && write_request(s, req))
        rc = -1;
    code = rc ? CURLE_WRITE_ERROR : curl_easy_perform(t->easy);
    transfer_result(t, &tc, code, clock_mono_ns(), &res, p->kind,
                    sizeof p->kind, msg, sizeof msg);
    if (res.error_kind != p->kind)
        snprintf(p->kind, sizeof p->kind, "%s", res.error_kind);
    snprintf(p->curl_error, sizeof p->curl_error, "%s",
             t->errbuf[0]       ? t->errbuf
             : code != CURLE_OK ? curl_easy_strerror(code)
                                : "");
    snprintf(p->content_type, sizeof p->content_type, "%s",
             t->rx.resp.content_type);
    header(t, "retry-after", p->retry_after, sizeof p->retry_after);
    header(t, "location", p->location, sizeof p->location);
    if (strcmp(p->content_type, "text/event-stream") != 0)
        reply_inspect(p->body.data, p->body.len, s->key, &p->info);
    else
        reply_inspect(NULL, 0, NULL, &p->info);
    if (s->env->writer && !rc && trace_write_result(s->env->writer, &res))
        rc = -1;
    if (s->env->write_err)
        rc = -1;
    p->chunks = t->rx.chunks;
    p->bytes = t->rx.bytes;
    transfer_facts(p, t, &res, f);
    stream_rx_take_stream(&t->rx, &p->stream);
    stream_facts(p, s->key, f);
    transfer_free(t);
    return rc;
}

void check_probe_free(struct check_probe *p)
{
    stream_state_free(&p->stream);
    buf_free(&p->body);
}
