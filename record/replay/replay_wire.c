/* replay_wire: streamed body bytes straight to the socket. */
#include "replay_wire.h"

#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "clock.h"

bool replay_wire_chunked(struct evhttp_request *req)
{
    const char *te = evhttp_find_header(evhttp_request_get_output_headers(req),
                                        "Transfer-Encoding");

    return te != NULL && strcmp(te, "chunked") == 0;
}

/* Writes "<len in hex>\r\n" at dst; returns its length. */
static size_t chunk_line(char *dst, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    char tmp[2 * sizeof(size_t)];
    size_t n = 0;

    do {
        tmp[sizeof(tmp) - ++n] = hex[len & 15];
        len >>= 4;
    } while (len != 0);
    memcpy(dst, tmp + sizeof(tmp) - n, n);
    dst[n] = '\r';
    dst[n + 1] = '\n';
    return n + 2;
}

/* Queues the bytes of iov[0..n) from byte offset skip on, in order. */
static void queue_rest(struct evbuffer *out, const struct iovec *iov, int n,
                       size_t skip)
{
    int i;

    for (i = 0; i < n; i++) {
        if (skip >= iov[i].iov_len) {
            skip -= iov[i].iov_len;
            continue;
        }
        evbuffer_add(out, (const char *)iov[i].iov_base + skip,
                     iov[i].iov_len - skip);
        skip = 0;
    }
}

/* Sends what evhttp queued for req now; the time just before the write. */
static int64_t flush_now(struct bufferevent *bev, evutil_socket_t fd)
{
    struct evbuffer *out = bufferevent_get_output(bev);
    int64_t t = clock_mono_ns();
    int n;

    /* a socket bufferevent freezes its output's start but for its own
     * writes (evbuffer_write on it fails and writes nothing): this is one
     * of them, as bufferevent_writecb does it */
    evbuffer_unfreeze(out, 1);
    n = evbuffer_write(out, fd);
    evbuffer_freeze(out, 1);
    if (n > 0 && evbuffer_get_length(out) == 0)
        bufferevent_disable(bev, EV_WRITE); /* nothing left for it */
    return t;
}

int64_t replay_wire_send(struct evhttp_request *req, bool chunked,
                         const char *data, size_t len)
{
    struct evhttp_connection *evcon = evhttp_request_get_connection(req);
    struct bufferevent *bev =
        evcon ? evhttp_connection_get_bufferevent(evcon) : NULL;
    evutil_socket_t fd = bev ? bufferevent_getfd(bev) : -1;
    struct evbuffer *out, *body;
    char line[2 * sizeof(size_t) + 2];
    struct iovec iov[3];
    struct msghdr msg;
    size_t total;
    ssize_t n;
    int64_t t;

    if (fd < 0 || !chunked) {
        /* evhttp frames (or not) and queues; then out it goes */
        body = evbuffer_new();
        if (body != NULL) {
            evbuffer_add(body, data, len);
            evhttp_send_reply_chunk(req, body);
            evbuffer_free(body);
        }
        return fd < 0 ? clock_mono_ns() : flush_now(bev, fd);
    }
    iov[0].iov_base = line;
    iov[0].iov_len = chunk_line(line, len);
    iov[1].iov_base = (void *)data;
    iov[1].iov_len = len;
    iov[2].iov_base = (void *)"\r\n";
    iov[2].iov_len = 2;
    out = bufferevent_get_output(bev);
    if (evbuffer_get_length(out) > 0) {
        /* behind earlier bytes (the headers, a backlog): keep the order */
        queue_rest(out, iov, 3, 0);
        return flush_now(bev, fd);
    }
    memset(&msg, 0, sizeof(msg));
    msg.msg_iov = iov;
    msg.msg_iovlen = 3;
    total = iov[0].iov_len + len + 2;
    t = clock_mono_ns();
    n = sendmsg(fd, &msg, MSG_NOSIGNAL);
    if (n == (ssize_t)total)
        return t;
    /* the socket took part or nothing (full, or failed: evhttp's own write
     * then meets the error and closes the connection) */
    queue_rest(out, iov, 3, n > 0 ? (size_t)n : 0);
    bufferevent_enable(bev, EV_WRITE);
    return t;
}
