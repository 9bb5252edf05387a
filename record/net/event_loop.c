/* event_loop: libcurl multi handle + libevent glue (hiperfifo pattern). */
#include "event_loop.h"

#include <stdlib.h>

/* One socket libcurl asked us to watch. */
struct sock_ctx {
    struct event *ev;
    curl_socket_t fd;
    struct sock_ctx *prev, *next;
};

struct evloop {
    struct event_base *base;
    CURLM *multi;
    struct event *timer;
    evloop_done_fn done;
    void *ud;
    struct sock_ctx *socks; /* every watched socket, freed at the end */
};

/* Hands every finished transfer to the done callback. */
static void check_done(struct evloop *l)
{
    CURLMsg *m;
    int left;
    while ((m = curl_multi_info_read(l->multi, &left)) != NULL) {
        if (m->msg == CURLMSG_DONE) {
            CURL *easy = m->easy_handle; /* m dies with the removal */
            CURLcode result = m->data.result;
            curl_multi_remove_handle(l->multi, easy);
            l->done(l->ud, easy, result);
        }
    }
}

/* libevent: a watched socket is readable or writable. */
static void on_socket(evutil_socket_t fd, short what, void *arg)
{
    struct evloop *l = arg;
    int running = 0;
    int action = ((what & EV_READ) ? CURL_CSELECT_IN : 0) |
                 ((what & EV_WRITE) ? CURL_CSELECT_OUT : 0);
    curl_multi_socket_action(l->multi, fd, action, &running);
    check_done(l);
}

/* libevent: libcurl's timeout expired. */
static void on_timeout(evutil_socket_t fd, short what, void *arg)
{
    struct evloop *l = arg;
    int running = 0;
    (void)fd;
    (void)what;
    curl_multi_socket_action(l->multi, CURL_SOCKET_TIMEOUT, 0, &running);
    check_done(l);
}

/* libcurl: (re)arm or stop the single timeout it wants. */
static int multi_timer_cb(CURLM *multi, long timeout_ms, void *userp)
{
    struct evloop *l = userp;
    struct timeval tv;
    (void)multi;
    if (timeout_ms < 0) {
        evtimer_del(l->timer);
        return 0;
    }
    tv.tv_sec = timeout_ms / 1000;
    tv.tv_usec = (timeout_ms % 1000) * 1000;
    return evtimer_add(l->timer, &tv) == 0 ? 0 : -1;
}

static void sock_free(struct evloop *l, struct sock_ctx *c)
{
    if (c->prev)
        c->prev->next = c->next;
    else
        l->socks = c->next;
    if (c->next)
        c->next->prev = c->prev;
    event_free(c->ev);
    free(c);
}

/* libcurl: watch socket s for what (CURL_POLL_IN/OUT/INOUT/REMOVE). */
static int multi_sock_cb(CURL *easy, curl_socket_t s, int what, void *userp,
                         void *socketp)
{
    struct evloop *l = userp;
    struct sock_ctx *c = socketp;
    short kind;
    (void)easy;
    if (what == CURL_POLL_REMOVE) {
        if (c) {
            curl_multi_assign(l->multi, s, NULL);
            sock_free(l, c);
        }
        return 0;
    }
    kind = (short)(((what & CURL_POLL_IN) ? EV_READ : 0) |
                   ((what & CURL_POLL_OUT) ? EV_WRITE : 0) | EV_PERSIST);
    if (!c) {
        c = calloc(1, sizeof *c);
        if (!c)
            return -1;
        c->fd = s;
        c->ev = event_new(l->base, s, kind, on_socket, l);
        if (!c->ev) {
            free(c);
            return -1;
        }
        c->next = l->socks;
        if (l->socks)
            l->socks->prev = c;
        l->socks = c;
        curl_multi_assign(l->multi, s, c);
    } else {
        event_del(c->ev);
        event_assign(c->ev, l->base, s, kind, on_socket, l);
    }
    return event_add(c->ev, NULL) == 0 ? 0 : -1;
}

int evloop_new(struct event_base *base, evloop_done_fn done, void *ud,
               struct evloop **out)
{
    struct evloop *l = calloc(1, sizeof *l);
    if (!l)
        return EVLOOP_E_NOMEM;
    l->base = base;
    l->done = done;
    l->ud = ud;
    l->timer = evtimer_new(base, on_timeout, l);
    l->multi = curl_multi_init();
    if (!l->timer || !l->multi) {
        evloop_free(l);
        return EVLOOP_E_CURL;
    }
    curl_multi_setopt(l->multi, CURLMOPT_SOCKETFUNCTION, multi_sock_cb);
    curl_multi_setopt(l->multi, CURLMOPT_SOCKETDATA, l);
    curl_multi_setopt(l->multi, CURLMOPT_TIMERFUNCTION, multi_timer_cb);
    curl_multi_setopt(l->multi, CURLMOPT_TIMERDATA, l);
    /* HTTP/2 streams share a connection when --http2 is on */
    curl_multi_setopt(l->multi, CURLMOPT_PIPELINING, (long)CURLPIPE_MULTIPLEX);
    *out = l;
    return EVLOOP_OK;
}

int evloop_add(struct evloop *l, CURL *easy)
{
    return curl_multi_add_handle(l->multi, easy) == CURLM_OK ? EVLOOP_OK
                                                             : EVLOOP_E_CURL;
}

void evloop_remove(struct evloop *l, CURL *easy)
{
    curl_multi_remove_handle(l->multi, easy);
}

void evloop_free(struct evloop *l)
{
    if (!l)
        return;
    if (l->multi)
        curl_multi_cleanup(l->multi); /* may still call multi_sock_cb */
    while (l->socks)
        sock_free(l, l->socks);
    if (l->timer)
        event_free(l->timer);
    free(l);
}
