/* transfer: easy handle setup, the receive callbacks, and the result. */
#include "transfer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "clock.h"
#include "error_kind.h"
#include "rx_stamp.h"

/* body_scrub emit: records one received run, the key masked, and shows it
 * to the observer. Returns 0 or a trace error. */
static int store(void *ud, int64_t t_ns, const char *p, size_t n)
{
    struct transfer *t = ud;
    int err = t->env->writer
                  ? trace_write_chunk(t->env->writer, t->id, t_ns, p, n)
                  : 0;
    if (err)
        return err;
    if (t->observe)
        t->observe(t->observe_ud, t_ns, p, n);
    return 0;
}

/* A body_scrub or trace error as the trace error kept in env->write_err
 * (the first one wins). */
static int note_err(struct transfer *t, int err)
{
    if (err == BODY_SCRUB_E_NOMEM)
        err = TRACE_E_NOMEM;
    if (err && !t->env->write_err)
        t->env->write_err = err;
    return err;
}

/* The time to stamp a chunk handed over at user_ns with: the kernel's
 * receive time of the read that got it when the transfer asks for it
 * (rx_stamp_chunk_time: libcurl hands an HTTP/1.1 transfer's bytes over
 * inside the read that got them), else user_ns. */
static int64_t chunk_time(struct transfer *t, int64_t user_ns)
{
    int64_t lag;
    if (!t->kernel_time)
        return user_ns;
    int64_t k = rx_stamp_chunk_time(user_ns, t->last_body_ns, &lag);
    if (lag >= 0 && t->env->receive_lag)
        lag_samples_add(t->env->receive_lag, lag);
    return k;
}

/* libcurl: body bytes arrived. The clock is read first, before anything
 * else; the chunk's time is the kernel's receive time when there is one
 * (chunk_time), else this moment, when libcurl handed the bytes over. */
static size_t on_body(char *ptr, size_t size, size_t nmemb, void *ud)
{
    int64_t user_ns = clock_mono_ns();
    struct transfer *t = ud;
    int64_t t_ns = chunk_time(t, user_ns);
    size_t n = size * nmemb;
    if (t->env->write_err)
        return CURL_WRITEFUNC_ERROR;
    if (note_err(t, body_scrub_feed(&t->scrub, t_ns, ptr, n, store, t)))
        return CURL_WRITEFUNC_ERROR;
    if (t->first_byte_ns < 0)
        t->first_byte_ns = t_ns;
    t->last_body_ns = t_ns;
    t->last_activity_ns = t_ns;
    t->bytes += n;
    t->chunks++;
    if (token_scan_feed(&t->scan, ptr, n))
        t->first_token_ns = t_ns; /* a fact for the run's progress line */
    /* A line or event past the analyzer's cap (a server sending one line
     * forever): stop now, after recording this chunk, so the trace holds
     * what the analyzer needs to find it oversized too. An error status
     * keeps its own kind, as the analyzer ranks it. */
    if (t->resp.status < 300 && line_guard_feed(&t->guard, ptr, n)) {
        t->forced_kind = "oversized_event";
        return CURL_WRITEFUNC_ERROR;
    }
    return n;
}

/* libcurl: one response header line arrived. */
static size_t on_header(char *ptr, size_t size, size_t nmemb, void *ud)
{
    struct transfer *t = ud;
    size_t n = size * nmemb;
    t->last_activity_ns = clock_mono_ns();
    resp_headers_line(&t->resp, ptr, n);
    return n;
}

/* The credential inside the auth header line ("Authorization: Bearer K"
 * or "x-api-key: K"): K, borrowed; NULL without a header. */
static const char *auth_credential(const char *auth_header)
{
    const char *v = auth_header ? strchr(auth_header, ':') : NULL;
    if (!v)
        return NULL;
    v += strspn(v + 1, " ") + 1;
    if (strncasecmp(v, "Bearer ", 7) == 0)
        v += 7;
    return *v ? v : NULL;
}

/* Adds secret and its JSON-escaped form to the body scrubber. Returns 0
 * or -1. */
static int add_secret(struct body_scrub *b, const char *secret, size_t len)
{
    return body_scrub_add_json(b, secret, len) ? -1 : 0;
}

/* A path segment this long starting "sk-"/"sk_" is taken for a key, as
 * record/config/sanitize.c's SANITIZE_URL_MIN_KEY. */
#define URL_KEY_MIN 20

/* The secrets to mask in bodies: the credential of the auth header, and
 * the path segments of the URL that look like a key ("sk-...", "sk_...",
 * as record/config/sanitize.c sees them): a key pasted into the base URL,
 * which a server may echo ("no route /sk-.../v1/chat/completions").
 * Returns 0 or -1. */
static int add_secrets(struct body_scrub *b, const struct transfer_config *tc)
{
    const char *cred = auth_credential(tc->auth_header), *p;
    size_t len = cred ? strlen(cred) : 0;
    if (cred && add_secret(b, cred, len))
        return -1;
    /* a key stored with its "Bearer " or in quotes is sent so, and a
     * server may echo the bare key */
    if (cred && strncasecmp(cred, "Bearer ", 7) == 0 &&
        add_secret(b, cred + 7, len - 7))
        return -1;
    if (len >= 2 && (cred[0] == '"' || cred[0] == '\'') &&
        cred[len - 1] == cred[0] && add_secret(b, cred + 1, len - 2))
        return -1;
    p = tc->url ? strstr(tc->url, "://") : NULL;
    if (!p)
        return 0;
    p += 3;
    p += strcspn(p, "/?#");
    while (*p == '/') {
        size_t n = strcspn(++p, "/?#");
        if (n >= URL_KEY_MIN &&
            (strncmp(p, "sk-", 3) == 0 || strncmp(p, "sk_", 3) == 0) &&
            add_secret(b, p, n))
            return -1;
        p += n;
    }
    return 0;
}

/* Overwrites every occurrence of the scrubber's secrets in the string s
 * with '*'. */
static void mask_string(const struct body_scrub *b, char *s)
{
    body_scrub_mask(b, s, strlen(s));
}

/* Builds the request headers; NULL when out of memory. */
static struct curl_slist *make_headers(const struct transfer_config *tc,
                                       const char *request_id)
{
    struct curl_slist *h = NULL, *n;
    char line[96];
    const char *fixed[] = {
        "Content-Type: application/json",
        "Accept: text/event-stream",
        "Expect:", /* no 100-continue wait before long prompts */
        tc->anthropic ? "anthropic-version: 2023-06-01" : NULL,
        tc->auth_header,
    };
    size_t i;
    for (i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        if (!fixed[i])
            continue;
        n = curl_slist_append(h, fixed[i]);
        if (!n)
            goto fail;
        h = n;
    }
    if (request_id) {
        snprintf(line, sizeof line, "X-Request-Id: %s", request_id);
        n = curl_slist_append(h, line);
        if (!n)
            goto fail;
        h = n;
    }
    return h;
fail:
    curl_slist_free_all(h);
    return NULL;
}

int transfer_new(const struct transfer_config *tc, struct transfer_env *env,
                 uint32_t id, const char *request_id, char *body,
                 struct transfer **out)
{
    struct transfer *t = calloc(1, sizeof *t);
    CURL *e;
    if (!t) {
        free(body);
        return TRANSFER_E_NOMEM;
    }
    t->id = id;
    t->env = env;
    t->body = body;
    t->body_len = strlen(body);
    t->attempt = 1;
    t->scheduled_ns = -1;
    t->first_byte_ns = -1;
    t->first_token_ns = -1;
    t->last_activity_ns = -1;
    t->last_body_ns = -1;
    t->kernel_time = tc->kernel_time && !tc->http2;
    resp_headers_init(&t->resp);
    resp_headers_set_secret(&t->resp, auth_credential(tc->auth_header));
    token_scan_init(&t->scan);
    line_guard_init(&t->guard, 0);
    body_scrub_init(&t->scrub);
    if (request_id)
        snprintf(t->request_id, sizeof t->request_id, "%s", request_id);
    t->headers = make_headers(tc, request_id);
    t->easy = e = curl_easy_init();
    if (!t->headers || !e || add_secrets(&t->scrub, tc)) {
        transfer_free(t);
        return TRANSFER_E_NOMEM;
    }
    curl_easy_setopt(e, CURLOPT_URL, tc->url);
    curl_easy_setopt(e, CURLOPT_POST, 1L);
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, t->body);
    curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)t->body_len);
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, t->headers);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, t);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, t);
    curl_easy_setopt(e, CURLOPT_PRIVATE, t);
    if (t->kernel_time)
        curl_easy_setopt(e, CURLOPT_SOCKOPTFUNCTION, rx_stamp_sockopt);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t->errbuf);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_USERAGENT, "tokentrace-record/" TT_VERSION);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, tc->timeout_ms);
    if (tc->proxy) { /* no_proxy was applied when choosing it */
        curl_easy_setopt(e, CURLOPT_PROXY, tc->proxy);
        curl_easy_setopt(e, CURLOPT_NOPROXY, "");
    }
    if (tc->connect_timeout_ms > 0)
        curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, tc->connect_timeout_ms);
    /* TLS verification stays libcurl's default (on) unless --insecure */
    if (tc->insecure) {
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
        curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
    }
    if (tc->cacert)
        curl_easy_setopt(e, CURLOPT_CAINFO, tc->cacert);
    if (tc->http2) {
        curl_easy_setopt(e, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
        curl_easy_setopt(e, CURLOPT_PIPEWAIT, 1L);
    } else {
        curl_easy_setopt(e, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
    }
    *out = t;
    return TRANSFER_OK;
}

/* A libcurl phase time as ns, or -1 when libcurl has none. */
static int64_t phase_ns(CURL *e, CURLINFO info)
{
    curl_off_t us = 0;
    if (curl_easy_getinfo(e, info, &us) != CURLE_OK || us < 0)
        return -1;
    return (int64_t)us * 1000;
}

int transfer_flush(struct transfer *t)
{
    return note_err(t, body_scrub_finish(&t->scrub, store, t));
}

void transfer_result(struct transfer *t, const struct transfer_config *tc,
                     CURLcode code, int64_t end_ns, struct trace_result *r,
                     char *kind_buf, size_t kind_len, char *msg, size_t msglen)
{
    struct error_facts f;
    char said[TOKEN_SCAN_ERROR_MAX + 1];
    transfer_flush(t);
    mask_string(&t->scrub, t->errbuf);
    memset(r, 0, sizeof *r);
    r->id = t->id;
    r->end_ns = end_ns;
    r->http_status = t->resp.status;
    r->headers = t->resp.kv;
    r->n_headers = t->resp.n;
    r->bytes = t->bytes;
    r->chunks = t->chunks;
    r->first_byte_ns = t->first_byte_ns;
    r->attempt = t->attempt ? t->attempt : 1;
    r->retry_of = t->retry_of;
    r->phases.namelookup_ns = phase_ns(t->easy, CURLINFO_NAMELOOKUP_TIME_T);
    r->phases.connect_ns = phase_ns(t->easy, CURLINFO_CONNECT_TIME_T);
    r->phases.tls_ns = phase_ns(t->easy, CURLINFO_APPCONNECT_TIME_T);
    if (r->phases.tls_ns == 0) /* 0 means no TLS handshake on this request */
        r->phases.tls_ns = -1;
    r->phases.pretransfer_ns = phase_ns(t->easy, CURLINFO_PRETRANSFER_TIME_T);
#if LIBCURL_VERSION_NUM >= 0x080a00
    r->phases.posttransfer_ns = phase_ns(t->easy, CURLINFO_POSTTRANSFER_TIME_T);
#else
    r->phases.posttransfer_ns = -1;
#endif
    r->phases.starttransfer_ns =
        phase_ns(t->easy, CURLINFO_STARTTRANSFER_TIME_T);
    r->phases.total_ns = phase_ns(t->easy, CURLINFO_TOTAL_TIME_T);
    if (t->resp.status == 0 && r->phases.starttransfer_ns == 0)
        r->phases.starttransfer_ns = -1; /* no response byte at all */

    memset(&f, 0, sizeof f);
    f.code = code;
    f.curl_error = t->errbuf;
    f.forced = t->forced_kind;
    f.http_status = t->resp.status;
    f.reason = t->resp.reason;
    f.content_type = t->resp.content_type;
    f.stream_error = t->scan.error_seen;
    token_scan_error_message(&t->scan, said, sizeof said);
    mask_string(&t->scrub, said); /* before it is cut: the whole key */
    f.stream_error_message = said;
    f.token_seen = t->scan.token_seen;
    f.sse_framed = token_scan_sse(&t->scan);
    f.connected = t->resp.status > 0 || r->phases.connect_ns > 0 ||
                  r->phases.pretransfer_ns > 0;
    f.timeout_s = tc->timeout_s;
    f.idle_timeout_s = tc->idle_timeout_s;
    r->error_kind = error_kind_classify(&f, kind_buf, kind_len, msg, msglen);
    mask_string(&t->scrub, msg);
    r->error_message = r->error_kind[0] ? msg : NULL;
}

void transfer_free(struct transfer *t)
{
    if (!t)
        return;
    if (t->easy)
        curl_easy_cleanup(t->easy);
    curl_slist_free_all(t->headers);
    resp_headers_free(&t->resp);
    body_scrub_free(&t->scrub);
    free(t->body);
    free(t);
}
