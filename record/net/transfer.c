/* transfer: easy handle setup, the receive callbacks, and the result. */
#include "transfer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "clock.h"

/* stream_rx sink: records one received run, the key masked, and shows it
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

/* A trace error kept in env->write_err (the first one wins). */
static int note_err(struct transfer *t, int err)
{
    if (err && !t->env->write_err)
        t->env->write_err = err;
    return err;
}

/* libcurl: body bytes arrived. The clock is read first, before anything
 * else; the chunk's time is the kernel's receive time when there is one
 * (stream_rx_time), else this moment, when libcurl handed the bytes over. */
static size_t on_body(char *ptr, size_t size, size_t nmemb, void *ud)
{
    int64_t user_ns = clock_mono_ns();
    struct transfer *t = ud;
    int64_t t_ns = stream_rx_time(&t->rx, user_ns);
    size_t n = size * nmemb;
    if (t->env->write_err)
        return CURL_WRITEFUNC_ERROR;
    if (note_err(t, stream_rx_body(&t->rx, t_ns, ptr, n)))
        return CURL_WRITEFUNC_ERROR;
    t->last_activity_ns = t_ns;
    /* A line or event past the analyzer's cap (a server sending one line
     * forever): stop now, after recording this chunk, so the trace holds
     * what the analyzer needs to find it oversized too. */
    if (stream_rx_over_cap(&t->rx)) {
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
    stream_rx_header(&t->rx, ptr, n);
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

/* A path segment this long starting "sk-"/"sk_" is taken for a key, as
 * record/config/sanitize.c's SANITIZE_URL_MIN_KEY. */
#define URL_KEY_MIN 20

/* The secrets to mask in bodies: the credential of the auth header, and
 * the path segments of the URL that look like a key ("sk-...", "sk_...",
 * as record/config/sanitize.c sees them): a key pasted into the base URL,
 * which a server may echo ("no route /sk-.../v1/chat/completions").
 * Returns 0 or -1. */
static int add_secrets(struct stream_rx *rx, const struct transfer_config *tc)
{
    const char *cred = auth_credential(tc->auth_header), *p;
    size_t len = cred ? strlen(cred) : 0;
    if (cred && stream_rx_add_secret(rx, cred, len))
        return -1;
    /* a key stored with its "Bearer " or in quotes is sent so, and a
     * server may echo the bare key */
    if (cred && strncasecmp(cred, "Bearer ", 7) == 0 &&
        stream_rx_add_secret(rx, cred + 7, len - 7))
        return -1;
    if (len >= 2 && (cred[0] == '"' || cred[0] == '\'') &&
        cred[len - 1] == cred[0] && stream_rx_add_secret(rx, cred + 1, len - 2))
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
            stream_rx_add_secret(rx, p, n))
            return -1;
        p += n;
    }
    return 0;
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
        tc->api == API_ANTHROPIC ? "anthropic-version: 2023-06-01" : NULL,
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
    struct stream_rx_setup su;
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
    t->last_activity_ns = -1;
    su.api = tc->api;
    su.max_event_bytes = tc->max_event_bytes;
    su.keep_tokens = tc->keep_tokens;
    su.kernel_time = tc->kernel_time && !tc->http2;
    su.receive_lag = env->receive_lag;
    su.sink = store;
    su.sink_ud = t;
    stream_rx_init(&t->rx, &su);
    resp_headers_set_secret(&t->rx.resp, auth_credential(tc->auth_header));
    if (request_id)
        snprintf(t->request_id, sizeof t->request_id, "%s", request_id);
    t->headers = make_headers(tc, request_id);
    t->easy = e = curl_easy_init();
    if (!t->headers || !e || add_secrets(&t->rx, tc)) {
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
    stream_rx_watch(&t->rx, e, &env->socks);
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

void transfer_result(struct transfer *t, const struct transfer_config *tc,
                     CURLcode code, int64_t end_ns, struct trace_result *r,
                     char *kind_buf, size_t kind_len, char *msg, size_t msglen)
{
    struct stream_rx_end e;
    e.easy = t->easy;
    e.code = code;
    e.curl_error = t->errbuf;
    e.forced = t->forced_kind;
    e.timeout_s = tc->timeout_s;
    e.idle_timeout_s = tc->idle_timeout_s;
    e.end_ns = end_ns;
    note_err(t,
             stream_rx_result(&t->rx, &e, r, kind_buf, kind_len, msg, msglen));
    r->id = t->id;
    r->attempt = t->attempt ? t->attempt : 1;
    r->retry_of = t->retry_of;
}

void transfer_free(struct transfer *t)
{
    if (!t)
        return;
    if (t->easy)
        curl_easy_cleanup(t->easy);
    curl_slist_free_all(t->headers);
    stream_rx_free(&t->rx);
    free(t->body);
    free(t);
}
