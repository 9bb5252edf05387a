/* proxy_stream: one exchange, from the client's request to the end of the
 * reply; every callback of it, and every decision about it. */
#include "proxy_stream.h"

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/keyvalq_struct.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "clock.h"
#include "error_kinds.h"
#include "log.h"
#include "printable.h"
#include "proxy_access.h"
#include "proxy_check.h"
#include "proxy_drain.h"
#include "proxy_hup.h"
#include "proxy_route.h"
#include "proxy_secrets.h"
#include "proxy_upstream.h"
#include "sanitize.h"
#include "secret.h"

/* Response headers passed to the client: libcurl's own cap on a line is
 * CURL_MAX_HTTP_HEADER (100 KB; over it the transfer fails:
 * proxy_exchange_limits); past PROXY_MAX_RESP_HEADERS they are dropped,
 * said and counted. */
#define MAX_RESP_HEADERS PROXY_MAX_RESP_HEADERS
#define MAX_RESP_HEADER_LINE CURL_MAX_HTTP_HEADER

struct proxy_stream {
    struct proxy_stream_env *env;
    struct evhttp_request *req;      /* NULL once the client is gone */
    struct evhttp_connection *evcon; /* the client's connection */
    struct bufferevent *bev;         /* its bufferevent, once replying */
    struct evbuffer *out;            /* its output buffer, once replying */
    struct evbuffer_cb_entry *out_cb;
    struct evbuffer *chunk; /* one chunk on its way to evhttp */
    struct event *kick;     /* deferred work: resume, finish, free */
    struct event *hup;      /* the client's close, until the reply starts */
    CURL *easy;
    int64_t received_ns; /* the request reached proxy_stream_start */
    struct curl_slist *headers;
    char *inject_line; /* "Authorization: Bearer K", wiped when freed */
    char *body;
    size_t body_len;
    char url[PROXY_MAX_URL];
    const char *method;
    char path[128]; /* for the log line, cut */
    struct proxy_exchange x;
    struct proxy_drain drain;
    char *resp_hdr[MAX_RESP_HEADERS]; /* "Name\0value" of the response */
    size_t n_resp_hdr;
    char reason[64];
    bool in_multi;      /* the easy handle is in the multi handle */
    bool reply_started; /* status and headers handed to evhttp */
    bool upstream_done;
    bool paused; /* the upstream is paused: the client is slow */
    uint64_t pauses;
    /* The chunk time the bytes libcurl kept at the pause came with (handed
     * over again inside curl_easy_pause, with no read of their own:
     * resuming is true then); -1 none. */
    int64_t kept_ns;
    bool resuming;
    bool client_gone;
    bool ended;         /* the reply was ended or aborted */
    bool encoded;       /* the response came with a Content-Encoding */
    bool out_of_fds;    /* no descriptor for the upstream socket */
    size_t dropped_hdr; /* response headers not passed on */
    CURLcode code;
    struct proxy_stream *prev, *next;
};

/* ---- freeing ---------------------------------------------------------- */

static void clear_resp_headers(struct proxy_stream *s)
{
    for (size_t i = 0; i < s->n_resp_hdr; i++)
        free(s->resp_hdr[i]);
    s->n_resp_hdr = 0;
}

/* Detaches s from the client connection's callbacks. */
static void detach_client(struct proxy_stream *s)
{
    proxy_hup_free(s->hup);
    s->hup = NULL;
    if (s->out && s->out_cb)
        evbuffer_remove_cb_entry(s->out, s->out_cb);
    s->out = NULL;
    s->out_cb = NULL;
    if (s->evcon && !s->client_gone)
        evhttp_connection_set_closecb(s->evcon, NULL, NULL);
}

static void stream_free(struct proxy_stream *s)
{
    struct proxy_stream_env *env = s->env;
    detach_client(s);
    if (s->prev)
        s->prev->next = s->next;
    else
        env->head = s->next;
    if (s->next)
        s->next->prev = s->prev;
    env->active--;
    if (s->easy) {
        if (s->in_multi)
            evloop_remove(env->loop, s->easy);
        curl_easy_cleanup(s->easy);
    }
    curl_slist_free_all(s->headers);
    secret_free(s->inject_line);
    free(s->body);
    if (s->chunk)
        evbuffer_free(s->chunk);
    if (s->kick)
        event_free(s->kick);
    clear_resp_headers(s);
    proxy_drain_free(&s->drain);
    proxy_exchange_free(&s->x);
    free(s);
}

/* ---- the log line ----------------------------------------------------- */

static void log_end(const struct proxy_stream *s, const char *kind)
{
    char path[sizeof s->path * 4], shown[sizeof s->path];
    if (s->env->cfg->quiet)
        return;
    snprintf(shown, sizeof shown, "%s", s->path); /* a key in the path: */
    sanitize_url_in(shown, sizeof shown, s->env->inject_key);
    printable_copy(path, sizeof path, shown);
    log_note("#%u %s %s -> %d%s%s, %llu bytes in %llu chunks, %.3f s%s",
             (unsigned)s->x.id, s->method, path, s->x.rx.resp.status,
             kind[0] ? " " : "", kind, (unsigned long long)s->x.rx.bytes,
             (unsigned long long)s->x.rx.chunks,
             (double)(clock_mono_ns() - s->x.start_ns) / 1e9,
             s->pauses ? ", upstream paused for a slow client" : "");
}

/* ---- the reply -------------------------------------------------------- */

/* The client's output buffer drained by info->n_deleted bytes: the chunks
 * that are now on the socket are handed; a paused upstream may resume. */
static void on_drain(struct evbuffer *b, const struct evbuffer_cb_info *info,
                     void *arg)
{
    struct proxy_stream *s = arg;
    struct proxy_drain_mark m;
    int64_t now;
    if (info->n_deleted == 0)
        return;
    now = clock_mono_ns();
    proxy_drain_drained(&s->drain, info->n_deleted);
    while (proxy_drain_pop(&s->drain, &m))
        proxy_exchange_handed(&s->x, m.chunk, m.recv_ns, now);
    if ((s->paused &&
         evbuffer_get_length(b) <= s->env->cfg->client_buffer / 2) ||
        (s->upstream_done && s->drain.n == 0))
        event_active(s->kick, EV_TIMEOUT, 0);
}

/* Hands the upstream's status and headers to evhttp and starts the
 * chunked reply. */
static void start_reply(struct proxy_stream *s)
{
    struct evkeyvalq *oh = evhttp_request_get_output_headers(s->req);
    int status = s->x.rx.resp.status > 0 ? s->x.rx.resp.status : 502;
    for (size_t i = 0; i < s->n_resp_hdr; i++) {
        const char *name = s->resp_hdr[i];
        evhttp_add_header(oh, name, name + strlen(name) + 1);
    }
    s->reply_started = true;
    proxy_hup_free(s->hup); /* evhttp reads the socket again: it notices */
    s->hup = NULL;
    evhttp_send_reply_start(s->req, status, s->reason[0] ? s->reason : NULL);
    s->bev = evhttp_connection_get_bufferevent(s->evcon);
    s->out = bufferevent_get_output(s->bev);
    s->out_cb = evbuffer_add_cb(s->out, on_drain, s);
}

/* The one response the proxy makes up: no usable upstream response
 * (why: the words after "no response from the upstream"), a 502, or a
 * 503 when the proxy could not open the upstream socket. */
static void reply_502(struct proxy_stream *s, int status, const char *kind)
{
    struct evbuffer *b = evbuffer_new();
    struct evkeyvalq *oh = evhttp_request_get_output_headers(s->req);
    evhttp_add_header(oh, "Content-Type", "application/json");
    if (b)
        evbuffer_add_printf(b,
                            "{\"error\":{\"type\":\"proxy_upstream_error\","
                            "\"message\":\"tokentrace-proxy: no response "
                            "from the upstream (%s)\"}}\n",
                            kind[0] ? kind : "transfer");
    evhttp_send_reply(s->req, status,
                      status == 503 ? "Service Unavailable" : "Bad Gateway", b);
    if (b)
        evbuffer_free(b);
}

/* Every chunk has left: ends the reply (the upstream ended well) or
 * closes the connection without the last chunk (it broke: the client
 * sees the break, as it would have from the upstream), then frees s. */
static void end_reply(struct proxy_stream *s)
{
    struct evhttp_connection *evcon = s->evcon;
    s->ended = true;
    detach_client(s);
    if (s->code == CURLE_OK || !s->reply_started) {
        evhttp_send_reply_end(s->req);
    } else {
        evhttp_connection_free(evcon); /* frees req too */
    }
    s->req = NULL;
    stream_free(s);
}

/* Deferred work, outside every libcurl and bufferevent callback. */
static void on_kick(evutil_socket_t fd, short what, void *arg)
{
    struct proxy_stream *s = arg;
    (void)fd;
    (void)what;
    if (s->client_gone) {
        stream_free(s);
        return;
    }
    if (s->upstream_done) {
        if (s->drain.n == 0)
            end_reply(s);
        return;
    }
    if (s->paused && s->out &&
        evbuffer_get_length(s->out) <= s->env->cfg->client_buffer / 2 &&
        !proxy_drain_full(&s->drain)) {
        s->paused = false;
        s->resuming = true;
        curl_easy_pause(s->easy, CURLPAUSE_CONT); /* may deliver at once */
        s->resuming = false;
    }
}

/* ---- libcurl's callbacks ---------------------------------------------- */

/* Keeps a response header to pass on ("Name: value\r\n"); a status line
 * starts a new response (after a 100 Continue). */
static size_t on_header(char *p, size_t size, size_t nmemb, void *ud)
{
    struct proxy_stream *s = ud;
    size_t n = size * nmemb, len = n, name;
    char *h;
    proxy_exchange_header(&s->x, p, n);
    while (len > 0 && (p[len - 1] == '\n' || p[len - 1] == '\r'))
        len--;
    if (len >= 5 && memcmp(p, "HTTP/", 5) == 0) {
        const char *sp = memchr(p, ' ', len), *sp2;
        clear_resp_headers(s);
        s->reason[0] = '\0';
        sp2 = sp ? memchr(sp + 1, ' ', len - (size_t)(sp + 1 - p)) : NULL;
        if (sp2)
            snprintf(s->reason, sizeof s->reason, "%.*s",
                     (int)(len - (size_t)(sp2 + 1 - p)), sp2 + 1);
        return n;
    }
    name = 0;
    while (name < len && p[name] != ':')
        name++;
    if (name == 0 || name == len)
        return n;
    if (name == 16 && strncasecmp(p, "Content-Encoding", 16) == 0)
        s->encoded = true;
    h = malloc(len + 1);
    if (!h)
        return n;
    memcpy(h, p, len);
    h[len] = '\0';
    h[name] = '\0';
    if (!proxy_route_response_header(h) || len > MAX_RESP_HEADER_LINE ||
        s->n_resp_hdr == MAX_RESP_HEADERS) {
        if (proxy_route_response_header(h))
            s->dropped_hdr++; /* one it would have passed */
        free(h);
        return n;
    }
    /* "Name\0value": the value without its leading spaces */
    {
        size_t v = name + 1;
        while (v < len && (h[v] == ' ' || h[v] == '\t'))
            v++;
        memmove(h + name + 1, h + v, len - v + 1);
    }
    s->resp_hdr[s->n_resp_hdr++] = h;
    return n;
}

/* Writes the client's output buffer to its socket now rather than on the
 * loop's next turn, after every other stream's receive of this turn (at
 * 50 streams that queue was most of a chunk's time inside the proxy).
 * on_drain runs within, so the chunk is handed at once. What the socket
 * does not take stays queued for the bufferevent, whose write event
 * evhttp enabled; a write error is left for it to find (the close
 * callback follows). Only for chunks: the reply's end must be written by
 * the bufferevent, whose write callback completes the request. */
static void write_now(struct proxy_stream *s)
{
    evutil_socket_t fd = bufferevent_getfd(s->bev);
    if (fd < 0)
        return;
    /* a socket bufferevent freezes its output's start but for its own
     * writes; this is one of them, as bufferevent_writecb does it */
    evbuffer_unfreeze(s->out, 1);
    (void)evbuffer_write(s->out, fd);
    evbuffer_freeze(s->out, 1);
}

/* The time of bytes handed over at user_ns: the receive path's
 * (stream_rx_time: the kernel's receive time of the read that got them,
 * the upstream being HTTP/1.1, unless --chunk-time user), or, for bytes
 * kept at a pause and handed over again on resume, the time they first
 * came with. */
static int64_t chunk_time(struct proxy_stream *s, int64_t user_ns)
{
    if (s->resuming && s->kept_ns >= 0 && s->x.rx.kernel_time)
        return s->kept_ns;
    return stream_rx_time(&s->x.rx, user_ns);
}

/* Body bytes from the upstream: straight on to the client's socket, then
 * recorded. The clock is read first; the chunk's time is the kernel's
 * receive time (chunk_time). A client whose queue is over --client-buffer
 * pauses the upstream (libcurl keeps these bytes and hands them over
 * again on resume). */
static size_t on_body(char *p, size_t size, size_t nmemb, void *ud)
{
    int64_t user_ns = clock_mono_ns();
    struct proxy_stream *s = ud;
    int64_t t_ns = chunk_time(s, user_ns);
    size_t n = size * nmemb;
    bool caught_up; /* every earlier chunk has left: the socket takes more */
    if (s->client_gone || !s->req)
        return CURL_WRITEFUNC_ERROR;
    if (!s->reply_started)
        start_reply(s);
    if (evbuffer_get_length(s->out) >= s->env->cfg->client_buffer ||
        proxy_drain_full(&s->drain)) {
        s->paused = true;
        s->pauses++;
        s->kept_ns = t_ns;
        return CURL_WRITEFUNC_PAUSE;
    }
    if (!s->resuming)
        s->kept_ns = -1;
    if (evbuffer_add(s->chunk, p, n) != 0)
        return CURL_WRITEFUNC_ERROR;
    caught_up = s->drain.n == 0;
    evhttp_send_reply_chunk(s->req, s->chunk);
    if (proxy_drain_push(&s->drain, evbuffer_get_length(s->out), t_ns))
        return CURL_WRITEFUNC_ERROR;
    if (caught_up)
        write_now(s); /* else a slow client: the bufferevent writes */
    proxy_exchange_body(&s->x, t_ns, p, n);
    return n;
}

/* ---- the client going away -------------------------------------------- */

/* evhttp: the client's connection closed (it disconnected, or evhttp
 * gave up on it) before the reply ended. */
static void on_client_close(struct evhttp_connection *evcon, void *arg)
{
    struct proxy_stream *s = arg;
    char kind[32];
    (void)evcon;
    detach_client(s);
    s->client_gone = true;
    if (!s->upstream_done) {
        s->upstream_done = true;
        s->x.forced_kind = ERROR_KIND_CLIENT_CANCELLED;
        if (s->in_multi) {
            evloop_remove(s->env->loop, s->easy);
            s->in_multi = false;
        }
        proxy_exchange_finish(&s->x, s->easy, CURLE_OK, clock_mono_ns(), kind,
                              sizeof kind);
        log_end(s, kind);
    }
    /* evhttp lets go of a request whose reply was not ended (it is ours
     * to free) and frees the others right after this callback */
    if (s->req && !evhttp_request_get_connection(s->req))
        evhttp_request_free(s->req);
    s->req = NULL;
    event_active(s->kick, EV_TIMEOUT, 0);
}

/* proxy_hup: the client closed while evhttp was not reading (before the
 * reply started): the connection is freed now, which runs
 * on_client_close, which cancels the upstream. */
static void on_client_hup(void *arg)
{
    struct proxy_stream *s = arg;
    evhttp_connection_free(s->evcon); /* frees the watch, in detach_client */
}

/* ---- starting --------------------------------------------------------- */

/* The client's session header (proxy_session.h), or NULL. */
static const char *session_header(struct evhttp_request *req)
{
    struct evkeyvalq *in = evhttp_request_get_input_headers(req);
    const char *v = evhttp_find_header(in, PROXY_SESSION_HEADER);
    return v ? v : evhttp_find_header(in, PROXY_SESSION_HEADER_ALT);
}

/* Builds the upstream request of s. Returns 0 or -1. */
static int prepare(struct proxy_stream *s, const char *api)
{
    struct evbuffer *in = evhttp_request_get_input_buffer(s->req);
    const struct proxy_config *cfg = s->env->cfg;
    struct proxy_upstream_spec u;
    struct proxy_secrets ps;
    size_t len = evbuffer_get_length(in);
    int rc;

    s->body = malloc(len + 1);
    if (!s->body)
        return -1;
    if (len)
        evbuffer_copyout(in, s->body, len);
    s->body[len] = '\0';
    s->body_len = len;
    if (s->env->inject_key) {
        size_t n = strlen(s->env->inject_key) + 32;
        s->inject_line = malloc(n);
        if (!s->inject_line)
            return -1;
        if (api && strcmp(api, "anthropic") == 0)
            snprintf(s->inject_line, n, "x-api-key: %s", s->env->inject_key);
        else
            snprintf(s->inject_line, n, "Authorization: Bearer %s",
                     s->env->inject_key);
    }
    if (proxy_upstream_headers(evhttp_request_get_input_headers(s->req),
                               s->inject_line, &s->headers))
        return -1;
    if (proxy_secrets_collect(&ps, evhttp_request_get_input_headers(s->req),
                              evhttp_request_get_uri(s->req),
                              s->env->inject_key, s->env->token))
        return -1;
    rc = proxy_exchange_init(&s->x, s->env->rec, api, ps.list, ps.n);
    proxy_secrets_free(&ps);
    if (rc)
        return -1;
    proxy_exchange_unmasked(&s->x, ps.dropped + s->x.rx.scrub.dropped);
    s->x.received_ns = s->received_ns;
    s->x.start_ns = clock_mono_ns();
    memset(&u, 0, sizeof u);
    u.url = s->url;
    u.method = s->method;
    u.body = s->body;
    u.body_len = s->body_len;
    u.headers = s->headers;
    u.timeout_ms = (long)(cfg->timeout_s * 1000);
    u.connect_timeout_ms = (long)(cfg->connect_timeout_s * 1000);
    u.insecure = cfg->insecure;
    u.kernel_time = !cfg->chunk_time_user;
    u.on_body = on_body;
    u.on_header = on_header;
    u.ud = s;
    u.errbuf = s->x.errbuf;
    u.out_of_fds = &s->out_of_fds;
    s->easy = proxy_upstream_new(&u);
    if (!s->easy)
        return -1;
    stream_rx_watch(&s->x.rx, s->easy, &s->env->socks); /* its TCP RTT */
    proxy_exchange_request(&s->x, api, s->body, s->body_len, cfg->no_content,
                           session_header(s->req));
    return 0;
}

int proxy_stream_start(struct proxy_stream_env *env, struct evhttp_request *req,
                       const char *api)
{
    struct proxy_stream *s = calloc(1, sizeof *s);
    const char *uri = evhttp_request_get_uri(req);
    if (!s) {
        evhttp_send_error(req, 502, "tokentrace-proxy: out of memory");
        return -1;
    }
    s->received_ns = clock_mono_ns(); /* evhttp read the request whole */
    s->env = env;
    s->req = req;
    s->kept_ns = -1;
    s->evcon = evhttp_request_get_connection(req);
    s->method = proxy_upstream_method(evhttp_request_get_command(req));
    if (!s->method)
        s->method = "POST";
    snprintf(s->path, sizeof s->path, "%.*s", (int)strcspn(uri, "?#"), uri);
    proxy_drain_init(&s->drain);
    s->next = env->head;
    if (env->head)
        env->head->prev = s;
    env->head = s;
    env->active++;
    s->chunk = evbuffer_new();
    s->kick = event_new(env->base, -1, 0, on_kick, s);
    if (!s->chunk || !s->kick ||
        proxy_route_url(env->cfg->upstream, uri, s->url, sizeof s->url) ||
        prepare(s, api) || evloop_add(env->loop, s->easy)) {
        evhttp_send_error(req, 502, "tokentrace-proxy: cannot forward");
        s->req = NULL;
        stream_free(s);
        return -1;
    }
    s->in_multi = true;
    evhttp_connection_set_closecb(s->evcon, on_client_close, s);
    s->hup = proxy_hup_watch(
        env->base,
        bufferevent_getfd(evhttp_connection_get_bufferevent(s->evcon)),
        on_client_hup, s);
    return 0;
}

/* ---- the upstream ending ---------------------------------------------- */

void proxy_stream_upstream_done(CURL *easy, CURLcode code)
{
    struct proxy_stream *s = NULL;
    char kind[32];
    int refused;
    curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&s);
    if (!s)
        return;
    s->in_multi = false;
    s->upstream_done = true;
    s->code = code;
    refused = proxy_exchange_limits(&s->x, code, s->reply_started,
                                    s->dropped_hdr, s->encoded, s->out_of_fds);
    proxy_exchange_finish(&s->x, easy, code, clock_mono_ns(), kind,
                          sizeof kind);
    log_end(s, kind);
    if (!s->reply_started) {
        if (refused) {
            s->ended = true;
            detach_client(s);
            reply_502(s, refused,
                      refused == 503
                          ? "the proxy is out of file descriptors: try again "
                            "later"
                          : "its response headers are over the proxy's "
                            "limit");
            s->req = NULL;
            stream_free(s);
            return;
        }
        if (s->x.rx.resp.status > 0) {
            start_reply(s); /* a response without a body */
        } else {
            s->ended = true;
            detach_client(s);
            reply_502(s, 502, kind);
            s->req = NULL;
            stream_free(s);
            return;
        }
    }
    if (s->drain.n == 0)
        end_reply(s);
    /* else on_drain kicks end_reply once the last chunk has left */
}

void proxy_stream_stop_all(struct proxy_stream_env *env)
{
    while (env->head) {
        struct proxy_stream *s = env->head;
        char kind[32];
        if (!s->upstream_done) {
            s->x.forced_kind = ERROR_KIND_INTERRUPTED;
            if (s->in_multi) {
                evloop_remove(env->loop, s->easy);
                s->in_multi = false;
            }
            proxy_exchange_finish(&s->x, s->easy, CURLE_OK, clock_mono_ns(),
                                  kind, sizeof kind);
        }
        stream_free(s);
    }
}
