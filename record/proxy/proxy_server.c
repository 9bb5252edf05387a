/* proxy_server: evhttp setup, the request handler, the multi handle. */
#include "proxy_server.h"

#include <arpa/inet.h>
#include <event2/buffer.h>
#include <event2/http.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "clock.h"
#include "event_loop.h"
#include "log.h"
#include "proxy_access.h"
#include "proxy_check.h"
#include "proxy_conns.h"
#include "proxy_route.h"
#include "proxy_secrets.h"
#include "proxy_stream.h"
#include "proxy_upstream.h"
#include "tcp_rtt.h"

struct proxy_server {
    struct evhttp *http;
    struct evloop *loop;
    struct proxy_conns *conns;
    struct proxy_stream_env env;
    unsigned port;
};

/* evloop: an upstream transfer finished. */
static void on_upstream_done(void *ud, CURL *easy, CURLcode code)
{
    (void)ud;
    proxy_stream_upstream_done(easy, code);
}

/* A refusal of the proxy's own (not the upstream's): a JSON error; the
 * connection closes after it (what follows a refused request on it may
 * not be a request). */
static void refuse(struct evhttp_request *req, int status, const char *reason,
                   const char *message)
{
    struct evbuffer *b = evbuffer_new();
    struct evkeyvalq *oh = evhttp_request_get_output_headers(req);
    evhttp_add_header(oh, "Content-Type", "application/json");
    evhttp_add_header(oh, "Connection", "close");
    if (b)
        evbuffer_add_printf(b,
                            "{\"error\":{\"type\":\"proxy_refused\","
                            "\"message\":\"tokentrace-proxy: %s\"}}\n",
                            message);
    evhttp_send_reply(req, status, reason, b);
    if (b)
        evbuffer_free(b);
}

/* True when req carries the local token: X-Tokentrace-Token, or with an
 * injected key the client's own credential header. */
static bool token_ok(const struct proxy_stream_env *env,
                     struct evhttp_request *req)
{
    struct evkeyvalq *in = evhttp_request_get_input_headers(req);
    const char *v = evhttp_find_header(in, PROXY_TOKEN_HEADER);
    const char *c;
    size_t n;
    if (v) {
        c = proxy_access_credential(v, &n);
        return c && proxy_access_token_ok(c, n, env->token);
    }
    if (!env->inject_key)
        return false;
    c = proxy_access_credential(evhttp_find_header(in, "Authorization"), &n);
    if (!c)
        c = proxy_access_credential(evhttp_find_header(in, "x-api-key"), &n);
    return c && proxy_access_token_ok(c, n, env->token);
}

/* A request the proxy refused itself (c says why): said, counted and,
 * on an API path, recorded as a proxy_refused result (its body masked
 * as a forwarded one's is). */
static void note_refusal(struct proxy_server *s, struct evhttp_request *req,
                         const char *api, const struct proxy_check *c)
{
    struct proxy_exchange x;
    struct proxy_secrets ps;
    struct evbuffer *in = evhttp_request_get_input_buffer(req);
    size_t len = evbuffer_get_length(in);
    char what[256];
    snprintf(what, sizeof what, "refused a request with %d: %s", c->status,
             c->why);
    proxy_recorder_limit(s->env.rec, c->kind, 1, what);
    if (!api ||
        proxy_secrets_collect(&ps, evhttp_request_get_input_headers(req),
                              evhttp_request_get_uri(req), s->env.inject_key,
                              s->env.token))
        return;
    if (proxy_exchange_init(&x, s->env.rec, api, ps.list, ps.n) == 0) {
        x.start_ns = clock_mono_ns();
        (void)proxy_exchange_refused(&x, api,
                                     (const char *)evbuffer_pullup(in, -1), len,
                                     s->env.cfg->no_content, c->status, c->why);
    }
    proxy_exchange_free(&x);
    proxy_secrets_free(&ps);
}

/* evhttp: every request. */
static void on_request(struct evhttp_request *req, void *arg)
{
    struct proxy_server *s = arg;
    enum evhttp_cmd_type cmd = evhttp_request_get_command(req);
    const char *uri = evhttp_request_get_uri(req);
    const char *api = cmd == EVHTTP_REQ_POST ? proxy_route_api(uri) : NULL;
    struct proxy_check c;
    char msg[200];
    if (proxy_conns_request(s->conns, req)) {
        refuse(req, 503, "Service Unavailable",
               "at its connection cap (the open-file limit): try again "
               "later");
        return;
    }
    if (s->env.token && !token_ok(&s->env, req)) {
        proxy_recorder_limit(s->env.rec, PROXY_LIMIT_UNAUTHORIZED, 1,
                             "refused a request without the local token "
                             "with 401");
        refuse(req, 401, "Unauthorized",
               "this proxy wants its local token (" PROXY_TOKEN_HEADER
               " header)");
        return;
    }
    if (proxy_check_request(evhttp_request_get_input_headers(req), uri,
                            s->env.cfg->upstream, &c)) {
        note_refusal(s, req, api, &c);
        snprintf(msg, sizeof msg, "%s", c.why);
        refuse(req, c.status, c.reason, msg);
        return;
    }
    if (!proxy_upstream_method(cmd)) {
        refuse(req, 405, "Method Not Allowed",
               "only GET, POST, PUT, DELETE and PATCH are forwarded");
        return;
    }
    proxy_stream_start(&s->env, req, api);
}

/* The port a bound socket listens on. */
static unsigned bound_port(struct evhttp_bound_socket *h)
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    evutil_socket_t fd = evhttp_bound_socket_get_fd(h);
    if (getsockname(fd, (struct sockaddr *)&ss, &len) != 0)
        return 0;
    if (ss.ss_family == AF_INET6)
        return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
    return ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

int proxy_server_new(struct event_base *base, const struct proxy_config *cfg,
                     struct proxy_recorder *rec, const char *inject_key,
                     const char *token, struct proxy_server **out, char *err,
                     size_t errlen)
{
    struct proxy_server *s = calloc(1, sizeof *s);
    struct evhttp_bound_socket *h;
    char host[256];
    unsigned port;
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (proxy_access_listen(cfg->listen, host, sizeof host, &port)) {
        snprintf(err, errlen, "--listen wants HOST:PORT, got '%s'",
                 cfg->listen);
        free(s);
        return -1;
    }
    s->env.cfg = cfg;
    s->env.base = base;
    s->env.rec = rec;
    s->env.inject_key = inject_key;
    s->env.token = token;
    s->http = evhttp_new(base);
    if (!s->http || evloop_new(base, on_upstream_done, s, &s->loop)) {
        snprintf(err, errlen, "cannot set up the HTTP server or libcurl");
        proxy_server_free(s);
        return -1;
    }
    s->env.loop = s->loop;
    if (proxy_conns_new(base, s->http, rec, cfg->header_timeout_s, &s->conns,
                        err, errlen)) {
        proxy_server_free(s);
        return -1;
    }
    evhttp_set_allowed_methods(s->http, EVHTTP_REQ_GET | EVHTTP_REQ_POST |
                                            EVHTTP_REQ_PUT | EVHTTP_REQ_DELETE |
                                            EVHTTP_REQ_PATCH);
    evhttp_set_max_body_size(s->http, (ev_ssize_t)PROXY_MAX_BODY);
    evhttp_set_max_headers_size(s->http, (ev_ssize_t)PROXY_MAX_HEADER_HARD);
    /* a response without Content-Type passes without one */
    evhttp_set_default_content_type(s->http, NULL);
    /* a reasoning model may say nothing for minutes: the client's
     * connection lives as long as an upstream request may */
    evhttp_set_timeout(s->http, (int)cfg->timeout_s + 60);
    evhttp_set_gencb(s->http, on_request, s);
    h = evhttp_bind_socket_with_handle(s->http, host, (ev_uint16_t)port);
    if (!h) {
        snprintf(err, errlen, "cannot listen on %s: %m", cfg->listen);
        proxy_server_free(s);
        return -1;
    }
    s->port = bound_port(h);
    proxy_conns_listener(s->conns, evhttp_bound_socket_get_listener(h));
    {
        size_t fds, cap = proxy_conns_cap(s->conns, &fds);
        if (!cfg->quiet)
            log_note("up to %zu client connections at once (open-file "
                     "limit %zu); a request's headers and body within "
                     "%.0f s (--header-timeout)",
                     cap, fds, cfg->header_timeout_s);
    }
    *out = s;
    return 0;
}

unsigned proxy_server_port(const struct proxy_server *s)
{
    return s->port;
}

void proxy_server_free(struct proxy_server *s)
{
    if (!s)
        return;
    proxy_stream_stop_all(&s->env);
    if (s->http)
        evhttp_free(s->http);
    proxy_conns_free(s->conns); /* after evhttp let go of them */
    evloop_free(s->loop);
    tcp_socks_free(&s->env.socks);
    free(s);
}
