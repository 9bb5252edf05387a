/* replay_conn: socket-level helpers for evhttp connections. */
#include "replay_conn.h"

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/http.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

int replay_conn_fd(struct evhttp_connection *evcon)
{
    struct bufferevent *bev =
        evcon ? evhttp_connection_get_bufferevent(evcon) : NULL;
    return bev ? (int)bufferevent_getfd(bev) : -1;
}

void replay_conn_nodelay(struct evhttp_connection *evcon)
{
    int fd = replay_conn_fd(evcon), one = 1;

    if (fd >= 0)
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

size_t replay_conn_unsent(struct evhttp_connection *evcon)
{
    struct bufferevent *bev = evhttp_connection_get_bufferevent(evcon);
    return bev ? evbuffer_get_length(bufferevent_get_output(bev)) : 0;
}

/* evhttp_connection_free would shutdown(SHUT_WR) first, sending a FIN
 * before the RST (clients then see a clean EOF). So the socket's fd number
 * is pointed at a fresh unconnected socket for evhttp to shut down and
 * close, and the real socket, with SO_LINGER 0, is closed here: RST only. */
void replay_conn_reset(struct evhttp_connection *evcon)
{
    struct linger lg = {1, 0};
    int fd = replay_conn_fd(evcon), keep = -1, dummy;

    if (fd >= 0) {
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
        dummy = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (dummy >= 0) {
            keep = fcntl(fd, F_DUPFD_CLOEXEC, 0);
            if (keep >= 0 && dup2(dummy, fd) < 0) {
                close(keep);
                keep = -1;
            }
            close(dummy);
        }
    }
    evhttp_connection_free(evcon);
    if (keep >= 0)
        close(keep); /* the last reference: RST, no FIN */
}

const char *replay_conn_phrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    }
    return NULL;
}
