/* proxy_conns: the connection cap, the header timeout, accept backoff. */
#include "proxy_conns.h"

#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "fd_limit.h"
#include "log.h"
#include "proxy_check.h"
#include "proxy_config.h"

#define SWEEP_MS 1000
#define RESERVED_FDS 64             /* the trace, libcurl, the loop's own */
#define EVICT_AFTER_NS 1000000000LL /* at the cap, a waiter older than 1 s */
#define BACKOFF_MIN_MS 10
#define BACKOFF_MAX_MS 1000

struct conn {
    struct proxy_conns *owner;
    struct bufferevent *bev;          /* one reference is ours */
    struct evbuffer_cb_entry *out_cb; /* on its output: evhttp's refusals */
    int64_t wait_ns;                  /* it waits for a request since then */
    bool waiting;
    bool over_cap; /* came in over the cap: its request gets a 503 */
    bool closing;  /* shut down by us: evhttp frees it */
    struct conn *prev, *next;
};

struct proxy_conns {
    struct event_base *base;
    struct proxy_recorder *rec;
    struct conn *head;
    struct conn **by_fd; /* fd_limit of them: a request's connection */
    size_t n, cap, fd_limit;
    int64_t header_timeout_ns;
    struct event *sweep;
    struct evconnlistener *listener;
    struct event *resume; /* re-enables the listener after a backoff */
    int backoff_ms;
    int reserve_fd; /* closed to answer one client when out of fds */
};

static void unlink_conn(struct proxy_conns *c, struct conn *k)
{
    if (k->prev)
        k->prev->next = k->next;
    else
        c->head = k->next;
    if (k->next)
        k->next->prev = k->prev;
    c->n--;
}

/* True when evhttp has let go of k's bufferevent (bufferevent_free
 * clears its callbacks; ours is then the last reference). */
static bool conn_gone(const struct conn *k)
{
    bufferevent_event_cb ev = NULL;
    bufferevent_getcb(k->bev, NULL, NULL, &ev, NULL);
    return ev == NULL;
}

/* Closes k's socket both ways: evhttp reads the end and frees it. */
static void conn_close(struct conn *k)
{
    evutil_socket_t fd = bufferevent_getfd(k->bev);
    if (fd >= 0 && !k->closing)
        shutdown(fd, SHUT_RDWR);
    k->closing = true;
}

/* Frees the connections evhttp is done with; closes the ones that have
 * waited too long for their request. */
static void sweep(struct proxy_conns *c, int64_t now)
{
    struct conn *k = c->head, *next;
    for (; k; k = next) {
        next = k->next;
        if (conn_gone(k)) {
            evutil_socket_t fd = bufferevent_getfd(k->bev);
            if (fd >= 0 && (size_t)fd < c->fd_limit && c->by_fd[fd] == k)
                c->by_fd[fd] = NULL;
            unlink_conn(c, k);
            evbuffer_remove_cb_entry(bufferevent_get_output(k->bev), k->out_cb);
            bufferevent_disable(k->bev, EV_READ | EV_WRITE);
            bufferevent_decref(k->bev); /* closes the socket */
            free(k);
        } else if (k->waiting && !k->closing &&
                   now - k->wait_ns >
                       (k->over_cap ? EVICT_AFTER_NS : c->header_timeout_ns)) {
            proxy_recorder_limit(c->rec, PROXY_LIMIT_HEADER_TIMEOUT, 1,
                                 "closed a connection that sent no whole "
                                 "request within --header-timeout");
            conn_close(k);
        }
    }
}

static void on_sweep(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    sweep(arg, clock_mono_ns());
}

/* At the cap: closes the connection that has waited longest for its
 * request, if it has waited over EVICT_AFTER_NS (a client that is
 * sending one is not waiting that long). Returns true when one was. */
static bool evict(struct proxy_conns *c, int64_t now)
{
    struct conn *old = NULL;
    for (struct conn *k = c->head; k; k = k->next)
        if (k->waiting && !k->closing && (!old || k->wait_ns < old->wait_ns))
            old = k;
    if (!old || now - old->wait_ns < EVICT_AFTER_NS)
        return false;
    proxy_recorder_limit(c->rec, PROXY_LIMIT_EVICTED, 1,
                         "at the connection cap: closed the connection "
                         "that waited longest without a request");
    conn_close(old);
    return true;
}

/* Bytes were added to a connection's output. While it waits for a
 * request (none was handed to the proxy), they are evhttp's own refusal
 * of what it could not read: a request line or headers it will not
 * parse, headers over PROXY_MAX_HEADER_HARD (400), a body over
 * PROXY_MAX_BODY (413). Said and counted, once a reply. */
static void on_output(struct evbuffer *b, const struct evbuffer_cb_info *info,
                      void *arg)
{
    struct conn *k = arg;
    char line[13], what[200];
    int status;
    if (info->n_added == 0 || !k->waiting || info->orig_size != 0)
        return;
    if (evbuffer_copyout(b, line, 12) != 12 || memcmp(line, "HTTP/1.", 7))
        return;
    line[12] = '\0';
    status = (int)strtol(line + 9, NULL, 10);
    if (status == 413) {
        snprintf(what, sizeof what,
                 "evhttp refused a request with 413: its body is over %zu "
                 "bytes",
                 (size_t)PROXY_MAX_BODY);
        proxy_recorder_limit(k->owner->rec, PROXY_LIMIT_BODY, 1, what);
    } else {
        snprintf(what, sizeof what,
                 "evhttp refused a request with %d: it could not read it "
                 "(a malformed request, or headers over %zu bytes)",
                 status, (size_t)PROXY_MAX_HEADER_HARD);
        proxy_recorder_limit(k->owner->rec, PROXY_LIMIT_MALFORMED, 1, what);
    }
}

/* evhttp: a new client connection needs its bufferevent. */
static struct bufferevent *on_new_conn(struct event_base *base, void *arg)
{
    struct proxy_conns *c = arg;
    struct conn *k = calloc(1, sizeof *k);
    int64_t now = clock_mono_ns();
    if (!k)
        return NULL; /* evhttp makes its own: not tracked */
    k->bev = bufferevent_socket_new(base, -1, BEV_OPT_CLOSE_ON_FREE);
    if (!k->bev) {
        free(k);
        return NULL;
    }
    bufferevent_incref(k->bev);
    k->owner = c;
    k->out_cb = evbuffer_add_cb(bufferevent_get_output(k->bev), on_output, k);
    /* evhttp drains the input as it parses; a bufferevent it has freed
     * (ours until the sweep) would go on reading a client that keeps
     * sending (a 300 MB header): never more than this is held */
    bufferevent_setwatermark(k->bev, EV_READ, 0, PROXY_MAX_HEADER_HARD);
    k->waiting = true;
    k->wait_ns = now;
    if (c->n >= c->cap) {
        sweep(c, now);
        if (c->n >= c->cap && !evict(c, now))
            k->over_cap = true;
    }
    k->next = c->head;
    if (c->head)
        c->head->prev = k;
    c->head = k;
    c->n++;
    return k->bev;
}

/* evhttp: the reply to a request on k's connection has been sent. */
static void on_complete(struct evhttp_request *req, void *arg)
{
    struct conn *k = arg;
    (void)req;
    k->waiting = true;
    k->wait_ns = clock_mono_ns();
}

int proxy_conns_request(struct proxy_conns *c, struct evhttp_request *req)
{
    struct evhttp_connection *evcon = evhttp_request_get_connection(req);
    struct bufferevent *bev =
        evcon ? evhttp_connection_get_bufferevent(evcon) : NULL;
    evutil_socket_t fd = bev ? bufferevent_getfd(bev) : -1;
    struct conn *k = NULL;
    /* our reference keeps each socket open: an fd is one connection's
     * until the sweep lets go of it */
    if (fd >= 0 && (size_t)fd < c->fd_limit)
        k = c->by_fd[fd];
    if (!k || k->bev != bev) {
        for (k = c->head; k && k->bev != bev; k = k->next)
            ;
        if (k && fd >= 0 && (size_t)fd < c->fd_limit)
            c->by_fd[fd] = k;
    }
    if (k) {
        k->waiting = false;
        evhttp_request_set_on_complete_cb(req, on_complete, k);
        if (!k->over_cap)
            return 0;
        proxy_recorder_limit(c->rec, PROXY_LIMIT_CONNECTIONS, 1,
                             "refused a connection with 503: at the "
                             "connection cap");
        return -1;
    }
    return 0;
}

/* The proxy whose listener is watched: libevent hands the listener's
 * error callback evhttp's argument, not ours (one proxy a process). */
static struct proxy_conns *listening;

/* Re-enables accepting after a backoff. */
static void on_resume(evutil_socket_t fd, short what, void *arg)
{
    struct proxy_conns *c = arg;
    (void)fd;
    (void)what;
    evconnlistener_enable(c->listener);
}

/* Out of descriptors: the reserved one is given back to accept the
 * waiting client and tell it why, then taken again. */
static void answer_from_reserve(struct proxy_conns *c)
{
    static const char body[] =
        "{\"error\":{\"type\":\"proxy_refused\",\"message\":"
        "\"tokentrace-proxy: out of file descriptors, try again later "
        "(ulimit -n)\"}}\n";
    char reply[512];
    int n = snprintf(reply, sizeof reply,
                     "HTTP/1.1 503 Service Unavailable\r\n"
                     "Content-Type: application/json\r\nConnection: close\r\n"
                     "Content-Length: %zu\r\n\r\n%s",
                     sizeof body - 1, body);
    int fd;
    if (c->reserve_fd < 0)
        return;
    close(c->reserve_fd);
    fd = accept(evconnlistener_get_fd(c->listener), NULL, NULL);
    if (fd >= 0) {
        (void)!send(fd, reply, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT);
        shutdown(fd, SHUT_WR);
        close(fd);
    }
    c->reserve_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
}

/* evconnlistener: accept() failed. Out of descriptors, it would fail
 * again at once (the client stays queued): answer it from the reserve,
 * then stop accepting for a backoff that doubles while it lasts. */
static void on_accept_error(struct evconnlistener *l, void *arg)
{
    struct proxy_conns *c = listening;
    int e = EVUTIL_SOCKET_ERROR();
    struct timeval tv;
    char what[200];
    (void)arg; /* evhttp's */
    if (!c || c->listener != l)
        return;
    if (e != EMFILE && e != ENFILE && e != ENOBUFS && e != ENOMEM) {
        log_warn("accept: %s", strerror(e));
        return;
    }
    answer_from_reserve(c);
    snprintf(what, sizeof what,
             "accept: %s: answered 503, not accepting for %d ms "
             "(%zu connections open, open-file limit %zu)",
             strerror(e), c->backoff_ms, c->n, c->fd_limit);
    proxy_recorder_limit(c->rec, PROXY_LIMIT_FDS, 1, what);
    sweep(c, clock_mono_ns());
    (void)evict(c, clock_mono_ns());
    evconnlistener_disable(c->listener);
    tv.tv_sec = c->backoff_ms / 1000;
    tv.tv_usec = (c->backoff_ms % 1000) * 1000;
    event_add(c->resume, &tv);
    c->backoff_ms =
        c->backoff_ms * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : c->backoff_ms * 2;
}

void proxy_conns_listener(struct proxy_conns *c, struct evconnlistener *l)
{
    c->listener = l;
    listening = c;
    evconnlistener_set_error_cb(l, on_accept_error);
}

/* Raises the soft open-file limit to the hard one; returns the limit. */
static size_t raise_fd_limit(void)
{
    uint64_t soft, hard;
    char err[160];
    int rc = fd_limit_raise(&soft, &hard, err, sizeof err);
    if (rc < 0)
        return 1024;
    if (rc > 0)
        log_warn("%s", err);
    return soft > 1048576 ? 1048576 : (size_t)soft;
}

int proxy_conns_new(struct event_base *base, struct evhttp *http,
                    struct proxy_recorder *rec, double header_timeout_s,
                    struct proxy_conns **out, char *err, size_t errlen)
{
    struct proxy_conns *c = calloc(1, sizeof *c);
    struct timeval every = {SWEEP_MS / 1000, (SWEEP_MS % 1000) * 1000};
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    c->base = base;
    c->rec = rec;
    c->fd_limit = raise_fd_limit();
    c->cap = c->fd_limit > 2 * RESERVED_FDS + 16
                 ? (c->fd_limit - RESERVED_FDS) / 2
                 : 8;
    c->header_timeout_ns = (int64_t)(header_timeout_s * 1e9);
    c->by_fd = calloc(c->fd_limit, sizeof *c->by_fd);
    c->backoff_ms = BACKOFF_MIN_MS;
    c->reserve_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    c->sweep = event_new(base, -1, EV_PERSIST, on_sweep, c);
    c->resume = evtimer_new(base, on_resume, c);
    if (!c->by_fd || !c->sweep || !c->resume || event_add(c->sweep, &every)) {
        snprintf(err, errlen, "cannot set up the connection timers");
        proxy_conns_free(c);
        return -1;
    }
    evhttp_set_bevcb(http, on_new_conn, c);
    *out = c;
    return 0;
}

size_t proxy_conns_cap(const struct proxy_conns *c, size_t *fd_limit)
{
    if (fd_limit)
        *fd_limit = c->fd_limit;
    return c->cap;
}

void proxy_conns_free(struct proxy_conns *c)
{
    if (!c)
        return;
    if (listening == c)
        listening = NULL;
    while (c->head) {
        struct conn *k = c->head;
        unlink_conn(c, k);
        evbuffer_remove_cb_entry(bufferevent_get_output(k->bev), k->out_cb);
        bufferevent_decref(k->bev);
        free(k);
    }
    if (c->sweep)
        event_free(c->sweep);
    if (c->resume)
        event_free(c->resume);
    if (c->reserve_fd >= 0)
        close(c->reserve_fd);
    free(c->by_fd);
    free(c);
}
