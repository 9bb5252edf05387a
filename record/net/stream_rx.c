/* stream_rx: a response's chunks timed, masked, stored and parsed; its end. */
#include "stream_rx.h"

#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "error_classify.h"
#include "rx_stamp.h"

void stream_rx_init(struct stream_rx *rx, const struct stream_rx_setup *su)
{
    memset(rx, 0, sizeof *rx);
    resp_headers_init(&rx->resp);
    stream_state_init(&rx->stream, su->api, su->max_event_bytes);
    rx->stream.keep_tokens = su->keep_tokens;
    body_scrub_init(&rx->scrub);
    rx->first_byte_ns = -1;
    rx->last_body_ns = -1;
    rx->headers_ns = rx->headers_rx_ns = -1;
    rx->conn_fd = -1;
    rx->kernel_time = su->kernel_time;
    rx->receive_lag = su->receive_lag;
    rx->sink = su->sink;
    rx->sink_ud = su->sink_ud;
}

/* A body_scrub error as a trace error. */
static int trace_err(int err)
{
    return err == BODY_SCRUB_E_NOMEM ? TRACE_E_NOMEM : err;
}

int stream_rx_add_secret(struct stream_rx *rx, const char *secret, size_t len)
{
    return trace_err(body_scrub_add_json(&rx->scrub, secret, len));
}

int64_t stream_rx_time(struct stream_rx *rx, int64_t user_ns)
{
    int64_t lag, t;
    if (!rx->kernel_time)
        return user_ns;
    t = rx_stamp_chunk_time(user_ns, rx->last_body_ns, &lag);
    if (lag >= 0 && rx->receive_lag)
        lag_samples_add(rx->receive_lag, lag);
    return t;
}

/* Reads the TCP RTT of the connection (socket fd of local port port,
 * tcp_rtt.h) now into rx, keeping the earlier reading when the socket is
 * gone: at the headers (the connection may close before the end) and at
 * the end. */
static void stream_rx_note_rtt(struct stream_rx *rx, int fd, long port)
{
    (void)tcp_rtt_read(fd, port, &rx->tcp_rtt_ns, &rx->tcp_rttvar_ns);
}

void stream_rx_header(struct stream_rx *rx, const char *line, size_t n)
{
    size_t kept = rx->resp.n;
    if (rx->headers_ns < 0) { /* libcurl's clock: its phases line up */
        int64_t lag;
        rx->headers_ns = clock_mono_ns();
        if (rx->kernel_time) /* and the kernel's receive of that read */
            rx->headers_rx_ns = rx_stamp_chunk_time(rx->headers_ns, -1, &lag);
        if (rx->socks) /* the connection may be gone at the end */
            stream_rx_note_rtt(rx, rx->conn_fd, rx->conn_port);
    }
    resp_headers_line(&rx->resp, line, n);
    /* every secret, not only the one resp_headers redacts: a proxied
     * request's cookies or URL key echoed in a kept header (location) */
    for (size_t i = kept; i < rx->resp.n; i++) {
        char *v = (char *)rx->resp.kv[i].value;
        if (v)
            body_scrub_mask(&rx->scrub, v, strlen(v));
    }
    body_scrub_mask(&rx->scrub, rx->resp.reason, strlen(rx->resp.reason));
}

/* libcurl: a socket was created for a new connection: kernel receive
 * times asked for (with kernel_time), and the socket noted for the RTT. */
static int on_sockopt(void *ud, curl_socket_t fd, curlsocktype purpose)
{
    struct stream_rx *rx = ud;
    if (rx->kernel_time)
        (void)rx_stamp_sockopt(NULL, fd, purpose);
    tcp_socks_add(rx->socks, fd);
    return CURL_SOCKOPT_OK;
}

/* libcurl: the connection (new or reused) is ready and the request about
 * to go: which socket it is, by its local port. */
static int on_prereq(void *ud, char *conn_primary_ip, char *conn_local_ip,
                     int conn_primary_port, int conn_local_port)
{
    struct stream_rx *rx = ud;
    (void)conn_primary_ip;
    (void)conn_local_ip;
    (void)conn_primary_port;
    rx->conn_port = conn_local_port;
    rx->conn_fd = tcp_socks_find(rx->socks, conn_local_port);
    return CURL_PREREQFUNC_OK;
}

void stream_rx_watch(struct stream_rx *rx, CURL *easy, struct tcp_socks *socks)
{
    rx->socks = socks;
    curl_easy_setopt(easy, CURLOPT_SOCKOPTFUNCTION, on_sockopt);
    curl_easy_setopt(easy, CURLOPT_SOCKOPTDATA, rx);
    curl_easy_setopt(easy, CURLOPT_PREREQFUNCTION, on_prereq);
    curl_easy_setopt(easy, CURLOPT_PREREQDATA, rx);
}

/* body_scrub emit: one chunk as stored, to the sink, then to the parser
 * (the analyzer's view of it). */
static int store(void *ud, int64_t t_ns, const char *p, size_t n)
{
    struct stream_rx *rx = ud;
    int err = rx->sink(rx->sink_ud, t_ns, p, n);
    if (err)
        return err;
    (void)stream_feed(&rx->stream, t_ns, p, n);
    return 0;
}

int stream_rx_body(struct stream_rx *rx, int64_t t_ns, const char *p, size_t n)
{
    int err =
        rx->sink ? trace_err(body_scrub_feed(&rx->scrub, t_ns, p, n, store, rx))
                 : 0;
    if (err)
        return err;
    if (rx->first_byte_ns < 0)
        rx->first_byte_ns = t_ns;
    rx->last_body_ns = t_ns;
    rx->bytes += n;
    rx->chunks++;
    return 0;
}

bool stream_rx_over_cap(const struct stream_rx *rx)
{
    return rx->stream.oversized && rx->resp.status < 300;
}

bool stream_rx_sse(const struct stream_rx *rx)
{
    return rx->stream.sse.data_lines > 0;
}

int stream_rx_flush(struct stream_rx *rx)
{
    if (!rx->sink)
        return 0;
    return trace_err(body_scrub_finish(&rx->scrub, store, rx));
}

void stream_rx_mask(const struct stream_rx *rx, char *s)
{
    body_scrub_mask(&rx->scrub, s, strlen(s));
}

/* A libcurl phase time as ns, or -1 when libcurl has none. */
static int64_t phase_ns(CURL *e, CURLINFO info)
{
    curl_off_t us = 0;
    if (!e || curl_easy_getinfo(e, info, &us) != CURLE_OK || us < 0)
        return -1;
    return (int64_t)us * 1000;
}

/* libcurl's phase times of the response (status: its HTTP status). */
static void fill_phases(CURL *e, struct trace_phases *ph, int status)
{
    ph->namelookup_ns = phase_ns(e, CURLINFO_NAMELOOKUP_TIME_T);
    ph->connect_ns = phase_ns(e, CURLINFO_CONNECT_TIME_T);
    ph->tls_ns = phase_ns(e, CURLINFO_APPCONNECT_TIME_T);
    if (ph->tls_ns == 0) /* 0 means no TLS handshake on this request */
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
        ph->starttransfer_ns = -1; /* no response byte at all */
}

/* Whether the request opened a connection or reused one (0 connects);
 * unknown without a handle or a connection. */
static enum trace_conn conn_of(CURL *e, const struct trace_phases *ph)
{
    long n = -1;
    if (!e || curl_easy_getinfo(e, CURLINFO_NUM_CONNECTS, &n) != CURLE_OK ||
        n < 0 || ph->pretransfer_ns <= 0)
        return TRACE_CONN_UNKNOWN;
    return n > 0 ? TRACE_CONN_NEW : TRACE_CONN_REUSED;
}

/* The server's words of the stream's first error into said: its message,
 * else its type or code (stream_events names a typeless one "error");
 * masked. */
static void error_said(const struct stream_rx *rx, char *said, size_t len)
{
    const struct stream_state *s = &rx->stream;
    const char *m = s->error_message[0]              ? s->error_message
                    : strcmp(s->error_type, "error") ? s->error_type
                                                     : "";
    snprintf(said, len, "%s", s->stream_errors ? m : "");
    stream_rx_mask(rx, said); /* a key the JSON had escaped, read out */
}

int stream_rx_result(struct stream_rx *rx, const struct stream_rx_end *e,
                     struct trace_result *r, char *kind_buf, size_t kind_len,
                     char *msg, size_t msglen)
{
    struct error_facts f;
    char said[sizeof rx->stream.error_message];
    int err = stream_rx_flush(rx);
    (void)stream_finish(&rx->stream);
    stream_rx_mask(rx, e->curl_error);
    memset(r, 0, sizeof *r);
    r->end_ns = e->end_ns;
    r->http_status = rx->resp.status;
    r->headers = rx->resp.kv;
    r->n_headers = rx->resp.n;
    r->bytes = rx->bytes;
    r->chunks = rx->chunks;
    r->first_byte_ns = rx->first_byte_ns;
    fill_phases(e->easy, &r->phases, rx->resp.status);
    r->conn = conn_of(e->easy, &r->phases);
    stream_rx_note_rtt(rx, rx->conn_fd, rx->conn_port);
    r->tcp_rtt_ns = rx->tcp_rtt_ns;
    r->tcp_rttvar_ns = rx->tcp_rttvar_ns;
    r->headers_ns = rx->headers_ns > 0 ? rx->headers_ns : 0;
    /* a kernel time only when it is one (rx_stamp falls back to user) */
    r->headers_rx_ns =
        rx->headers_rx_ns > 0 && rx->headers_rx_ns < rx->headers_ns
            ? rx->headers_rx_ns
            : 0;

    memset(&f, 0, sizeof f);
    f.code = e->code;
    f.curl_error = e->curl_error;
    f.forced = e->forced;
    f.http_status = rx->resp.status;
    f.reason = rx->resp.reason;
    f.content_type = rx->resp.content_type;
    f.stream_error = rx->stream.stream_errors > 0;
    error_said(rx, said, sizeof said);
    f.stream_error_message = said;
    f.token_seen = rx->stream.token_events > 0;
    f.sse_framed = stream_rx_sse(rx);
    f.connected = rx->resp.status > 0 || r->phases.connect_ns > 0 ||
                  r->phases.pretransfer_ns > 0;
    f.timeout_s = e->timeout_s;
    f.idle_timeout_s = e->idle_timeout_s;
    r->error_kind = error_classify(&f, kind_buf, kind_len, msg, msglen);
    stream_rx_mask(rx, msg);
    r->error_message = r->error_kind[0] ? msg : NULL;
    return err;
}

void stream_rx_take_stream(struct stream_rx *rx, struct stream_state *out)
{
    enum api_kind api = rx->stream.api;
    size_t cap = rx->stream.sse.max_event_bytes;
    *out = rx->stream;
    stream_state_init(&rx->stream, api, cap);
}

void stream_rx_free(struct stream_rx *rx)
{
    if (!rx)
        return;
    resp_headers_free(&rx->resp);
    stream_state_free(&rx->stream);
    body_scrub_free(&rx->scrub);
}
