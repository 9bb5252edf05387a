/* proxy_hup: a client's close noticed while evhttp does not read. */
#include "proxy_hup.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/socket.h>

struct hup {
    struct event *ev;
    void (*gone)(void *arg);
    void *arg;
    bool early_close; /* EV_CLOSED: the backend reports the close itself */
};

/* The socket is readable, or the peer closed it: a peek tells which. */
static void on_event(evutil_socket_t fd, short what, void *ud)
{
    struct hup *h = ud;
    char c;
    ssize_t n = recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
    if (n > 0 && !(what & EV_CLOSED)) {
        /* a pipelined request waits: evhttp will read it (and the close
         * after it); a level-triggered watch would spin on it */
        if (!h->early_close)
            event_del(h->ev);
        return;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return;
    event_del(h->ev);
    h->gone(h->arg); /* may free the watch */
}

struct event *proxy_hup_watch(struct event_base *base, evutil_socket_t fd,
                              void (*gone)(void *arg), void *arg)
{
    struct hup *h = calloc(1, sizeof *h);
    short what;
    if (!h || fd < 0) {
        free(h);
        return NULL;
    }
    h->gone = gone;
    h->arg = arg;
    h->early_close =
        (event_base_get_features(base) & EV_FEATURE_EARLY_CLOSE) != 0;
    what = (short)(EV_PERSIST | (h->early_close ? EV_CLOSED : EV_READ));
    h->ev = event_new(base, fd, what, on_event, h);
    if (!h->ev || event_add(h->ev, NULL)) {
        if (h->ev)
            event_free(h->ev);
        free(h);
        return NULL;
    }
    return h->ev;
}

void proxy_hup_free(struct event *watch)
{
    struct hup *h;
    if (!watch)
        return;
    h = event_get_callback_arg(watch);
    event_free(watch);
    free(h);
}
