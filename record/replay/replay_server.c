/* replay_server: binds the listener, wires evhttp to the handler, runs the
 * loop, and tears everything down in the right order. */
#include "replay_server.h"

#include <errno.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/listener.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "clock.h"
#include "log.h"
#include "out_error.h"
#include "replay_send_log.h"
#include "replay_stream.h"
#include "replay_trace_source.h"

#define LISTEN_BACKLOG 4096
#define MAX_BODY_BYTES ((size_t)32 << 20)
/* Idle / stalled connections are kept this long (seconds). */
#define CONN_TIMEOUT_S 3600

/* SIGINT/SIGTERM: leave the loop; main cleans up and exits 0. */
static void on_signal(evutil_socket_t sig, short what, void *arg)
{
    (void)sig;
    (void)what;
    event_base_loopbreak(arg);
}

/* Creates the listening socket on cfg's address. Returns 0 or -1. */
static int bind_listener(struct replay_server *srv, char *err, size_t errlen)
{
    struct addrinfo hints, *ai = NULL;
    struct evconnlistener *lis;
    struct sockaddr_storage ss;
    socklen_t sl = sizeof(ss);
    char port[16];
    int rc;

    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    snprintf(port, sizeof(port), "%d", srv->cfg->listen_port);
    rc = getaddrinfo(srv->cfg->listen_host, port, &hints, &ai);
    if (rc != 0) {
        snprintf(err, errlen, "cannot resolve listen host '%s': %s",
                 srv->cfg->listen_host, gai_strerror(rc));
        return -1;
    }
    lis = evconnlistener_new_bind(
        srv->base, NULL, NULL,
        LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC,
        LISTEN_BACKLOG, ai->ai_addr, (int)ai->ai_addrlen);
    freeaddrinfo(ai);
    if (lis == NULL) {
        snprintf(err, errlen, "cannot listen on %s:%d: %s",
                 srv->cfg->listen_host, srv->cfg->listen_port, strerror(errno));
        return -1;
    }
    if (evhttp_bind_listener(srv->http, lis) == NULL) {
        evconnlistener_free(lis);
        snprintf(err, errlen, "cannot attach the listener to evhttp");
        return -1;
    }
    if (getsockname(evconnlistener_get_fd(lis), (struct sockaddr *)&ss, &sl) !=
        0) {
        snprintf(err, errlen, "getsockname: %s", strerror(errno));
        return -1;
    }
    srv->port = ss.ss_family == AF_INET6
                    ? ntohs(((struct sockaddr_in6 *)&ss)->sin6_port)
                    : ntohs(((struct sockaddr_in *)&ss)->sin_port);
    return 0;
}

/* Creates the event base with precise (non-coarse) timers. */
static struct event_base *new_base(void)
{
    struct event_config *ec = event_config_new();
    struct event_base *base;

    if (ec == NULL)
        return NULL;
    event_config_set_flag(ec, EVENT_BASE_FLAG_PRECISE_TIMER);
    base = event_base_new_with_config(ec);
    event_config_free(ec);
    return base;
}

/* Makes each synthetic profile's decode slots (capacity=N). Returns 0 or
 * ENOMEM. */
static int open_capacity(struct replay_server *srv)
{
    const struct synth_spec *sp = &srv->cfg->synth;
    size_t i;
    for (i = 0; i < sp->n_models; i++)
        if (replay_capacity_init(&srv->capacity[i],
                                 (size_t)sp->models[i].capacity))
            return ENOMEM;
    return replay_capacity_init(&srv->capacity[SYNTH_MAX_MODELS],
                                (size_t)sp->def.capacity);
}

int replay_server_open(const struct replay_config *cfg,
                       struct replay_server **out, char *err, size_t errlen)
{
    struct replay_server *srv = calloc(1, sizeof(*srv));
    int rc;

    *out = NULL;
    if (srv == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    srv->cfg = cfg;
    srv->fault_rng = cfg->seed;
    if (open_capacity(srv) != 0) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    if (cfg->trace_path != NULL &&
        replay_trace_source_load(cfg->trace_path, &srv->trace, err, errlen) !=
            0)
        goto fail;
    srv->base = new_base();
    if (srv->base == NULL) {
        snprintf(err, errlen, "cannot create the event loop");
        goto fail;
    }
    if (cfg->log_sends_path != NULL) {
        rc = replay_send_log_open(cfg->log_sends_path, srv->base, &srv->log);
        if (rc != 0) {
            int n = snprintf(err, errlen, "--log-sends: ");
            if (n > 0 && (size_t)n < errlen)
                out_error(err + n, errlen - (size_t)n, cfg->log_sends_path, rc);
            goto fail;
        }
    }
    srv->http = evhttp_new(srv->base);
    if (srv->http == NULL ||
        replay_streams_new(srv->base, srv->log, &srv->streams) != 0) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    evhttp_set_max_body_size(srv->http, (ev_ssize_t)MAX_BODY_BYTES);
    evhttp_set_timeout(srv->http, CONN_TIMEOUT_S);
    evhttp_set_allowed_methods(srv->http, EVHTTP_REQ_GET | EVHTTP_REQ_POST |
                                              EVHTTP_REQ_HEAD |
                                              EVHTTP_REQ_OPTIONS);
    evhttp_set_gencb(srv->http, replay_handle_request, srv);
    if (bind_listener(srv, err, errlen) != 0)
        goto fail;
    srv->sig_int = evsignal_new(srv->base, SIGINT, on_signal, srv->base);
    srv->sig_term = evsignal_new(srv->base, SIGTERM, on_signal, srv->base);
    if (srv->sig_int == NULL || srv->sig_term == NULL ||
        evsignal_add(srv->sig_int, NULL) || evsignal_add(srv->sig_term, NULL)) {
        snprintf(err, errlen, "cannot install signal handlers");
        goto fail;
    }
    *out = srv;
    return 0;
fail:
    replay_server_close(srv);
    return -1;
}

void replay_server_keep_awake(struct replay_server *srv)
{
    char what[1024];
    /* nothing to send before the first stream: nothing spins */
    const struct keep_awake_env env = {NULL, NULL, NULL, NULL, true};

    /* the sending side kept out of idle too, so its writes leave on their
     * schedule (common/keep_awake.h) */
    srv->awake_zero_ns = clock_mono_ns();
    keep_awake_start(&srv->awake, srv->cfg->keep_awake,
                     srv->cfg->keep_awake_cpu, &env);
    replay_streams_set_awake(srv->streams, &srv->awake);
    log_note("keep-awake: %s",
             keep_awake_describe(&srv->awake, what, sizeof what));
}

/* auto's changes, said on stderr once it stopped (the replay server has
 * no trace to keep them in). */
static void replay_log_keep_awake(const struct replay_server *srv)
{
    const struct keep_awake *k = &srv->awake;
    if (k->asked != KEEP_AWAKE_AUTO || !k->n_changes)
        return;
    log_note("keep-awake: auto changed %llu times%s",
             (unsigned long long)k->n_changes,
             k->n_changes > k->n_log ? " (the first ones below)" : "");
    for (unsigned i = 0; i < k->n_log; i++)
        log_note(
            "keep-awake: %s at %.3f s: %s", keep_awake_mode_name(k->log[i].to),
            (double)(k->log[i].t_ns - srv->awake_zero_ns) / 1e9, k->log[i].why);
}

int replay_server_run(struct replay_server *srv)
{
    int rc = 0;

    if (!keep_awake_polls(&srv->awake)) {
        rc = event_base_dispatch(srv->base) < 0 ? -1 : 0;
    } else {
        /* poll while a stream is open; with none, wait for an event */
        while (
            (rc = event_base_loop(srv->base, replay_streams_active(srv->streams)
                                                 ? EVLOOP_NONBLOCK
                                                 : EVLOOP_ONCE)) == 0 &&
            !event_base_got_break(srv->base))
            ;
        rc = rc < 0 ? -1 : 0;
    }
    keep_awake_stop(&srv->awake);
    replay_log_keep_awake(srv);
    return rc;
}

int replay_server_close(struct replay_server *srv)
{
    int err;

    if (srv == NULL)
        return 0;
    keep_awake_stop(&srv->awake);
    /* Streams first (they detach from their connections), then evhttp,
     * which frees the connections and their requests. */
    replay_streams_free(srv->streams);
    if (srv->http)
        evhttp_free(srv->http);
    if (srv->sig_int)
        event_free(srv->sig_int);
    if (srv->sig_term)
        event_free(srv->sig_term);
    err = replay_send_log_close(srv->log);
    replay_trace_source_free(srv->trace);
    for (size_t i = 0; i <= SYNTH_MAX_MODELS; i++)
        replay_capacity_free(&srv->capacity[i]);
    replay_prefix_caches_free(&srv->caches);
    if (srv->base)
        event_base_free(srv->base);
    free(srv);
    return err;
}
