/* raw_client: the floor of client-side timestamp error. One thread, epoll,
 * non-blocking sockets, a hand-written HTTP/1.1 chunked decoder, and a
 * CLOCK_MONOTONIC read right after every read() that returns bytes: nothing
 * a real client could do with less work. Writes the ts_error.py client TSV.
 *
 * usage: raw_client PORT STREAMS REQUESTS_PER_STREAM ID_PREFIX BODY OUT.tsv
 *                   [WINDOW_MS]
 * Each of STREAMS streams sends REQUESTS_PER_STREAM POSTs to
 * 127.0.0.1:PORT/v1/chat/completions one after another (a connection each,
 * Connection: close, X-Request-Id ID_PREFIX-<stream>-<k>). Stream i starts
 * at i * WINDOW_MS / STREAMS (default 0: all at once). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum parse_state { ST_HEAD, ST_SIZE, ST_DATA, ST_DATA_END, ST_DONE };

struct stream {
    int fd, k;
    char rid[64];
    char req[4096];
    size_t req_len, req_sent;
    enum parse_state st;
    char line[64]; /* header tail / chunk-size line being read */
    size_t line_len;
    uint64_t left; /* data bytes left in the current chunk */
    uint64_t cum;  /* body bytes so far */
};

struct rec {
    int64_t t;
    uint64_t cum;
    int kind; /* 0 start, 1 chunk */
    int stream, k;
};

static struct rec *recs;
static size_t n_recs, cap_recs;
static struct stream *streams;
static int port, reqs_per_stream;
static const char *prefix, *body;

/* A whole number >= 0 from text, or exits 2 naming the argument. */
static long number_arg(const char *s, const char *what)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < 0) {
        fprintf(stderr, "raw_client: bad %s '%s'\n", what, s);
        exit(2);
    }
    return v;
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Appends one record (exits when out of memory). */
static void add_rec(int64_t t, uint64_t cum, int kind, int s, int k)
{
    if (n_recs == cap_recs) {
        cap_recs = cap_recs ? cap_recs * 2 : 65536;
        recs = realloc(recs, cap_recs * sizeof *recs);
        if (!recs) {
            perror("raw_client");
            exit(1);
        }
    }
    recs[n_recs++] = (struct rec){t, cum, kind, s, k};
}

/* Opens the connection of stream i's next request and registers it. */
static void start(int ep, int i)
{
    struct stream *s = &streams[i];
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons((uint16_t)port)};
    struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT,
                             .data.u32 = (uint32_t)i};
    int one = 1;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    snprintf(s->rid, sizeof s->rid, "%s-%d-%d", prefix, i, s->k);
    s->req_len = (size_t)snprintf(
        s->req, sizeof s->req,
        "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Content-Type: application/json\r\nAccept: text/event-stream\r\n"
        "Connection: close\r\nX-Request-Id: %s\r\nContent-Length: "
        "%zu\r\n\r\n%s",
        s->rid, strlen(body), body);
    s->req_sent = 0;
    s->st = ST_HEAD;
    s->line_len = 0;
    s->cum = 0;
    s->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    setsockopt(s->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    add_rec(now_ns(), 0, 0, i, s->k);
    if (connect(s->fd, (struct sockaddr *)&a, sizeof a) != 0 &&
        errno != EINPROGRESS) {
        perror("connect");
        exit(1);
    }
    epoll_ctl(ep, EPOLL_CTL_ADD, s->fd, &ev);
}

/* Feeds received bytes to the decoder; returns the body bytes in them. */
static uint64_t feed(struct stream *s, const char *p, size_t n)
{
    uint64_t body_bytes = 0;
    while (n > 0 && s->st != ST_DONE) {
        if (s->st == ST_HEAD || s->st == ST_SIZE || s->st == ST_DATA_END) {
            char c = *p++;
            n--;
            if (s->line_len < sizeof s->line - 1)
                s->line[s->line_len++] = c;
            if (s->st == ST_HEAD) {
                if (s->line_len >= 4 &&
                    memcmp(s->line + s->line_len - 4, "\r\n\r\n", 4) == 0) {
                    s->st = ST_SIZE;
                    s->line_len = 0;
                } else if (s->line_len == sizeof s->line - 1) {
                    memmove(s->line, s->line + s->line_len - 3, 3);
                    s->line_len = 3;
                }
            } else if (c == '\n') {
                if (s->st == ST_DATA_END) {
                    s->st = ST_SIZE;
                } else {
                    s->left = strtoull(s->line, NULL, 16);
                    s->st = s->left ? ST_DATA : ST_DONE;
                }
                s->line_len = 0;
            }
        } else {
            size_t take = n < s->left ? n : (size_t)s->left;
            p += take;
            n -= take;
            s->left -= take;
            body_bytes += take;
            if (s->left == 0)
                s->st = ST_DATA_END;
        }
    }
    return body_bytes;
}

/* Handles readiness of stream i; returns 1 when its request ended. */
static int on_ready(int ep, int i, uint32_t events)
{
    struct stream *s = &streams[i];
    char buf[65536];
    if ((events & EPOLLOUT) && s->req_sent < s->req_len) {
        ssize_t w =
            write(s->fd, s->req + s->req_sent, s->req_len - s->req_sent);
        if (w > 0)
            s->req_sent += (size_t)w;
        if (s->req_sent == s->req_len) {
            struct epoll_event ev = {.events = EPOLLIN,
                                     .data.u32 = (uint32_t)i};
            epoll_ctl(ep, EPOLL_CTL_MOD, s->fd, &ev);
        }
    }
    for (;;) {
        ssize_t r = read(s->fd, buf, sizeof buf);
        int64_t t = now_ns();
        if (r > 0) {
            uint64_t b = feed(s, buf, (size_t)r);
            if (b) {
                s->cum += b;
                add_rec(t, s->cum, 1, i, s->k);
            }
            continue;
        }
        if (r < 0 && (errno == EAGAIN || errno == EINTR))
            return s->st == ST_DONE ? 1 : 0;
        return 1; /* EOF or error */
    }
}

int main(int argc, char **argv)
{
    int ep, n, active, started = 0;
    int64_t t0, window_ns = 0;
    FILE *out;
    struct epoll_event evs[256];
    if (argc != 7 && argc != 8) {
        fprintf(stderr, "usage: raw_client PORT STREAMS REQUESTS ID_PREFIX "
                        "BODY OUT [WINDOW_MS]\n");
        return 2;
    }
    if (argc == 8) {
        char *end;
        double w = strtod(argv[7], &end);
        if (end == argv[7] || *end || w < 0) {
            fprintf(stderr, "raw_client: bad WINDOW_MS '%s'\n", argv[7]);
            return 2;
        }
        window_ns = (int64_t)(w * 1e6);
    }
    port = (int)number_arg(argv[1], "PORT");
    n = (int)number_arg(argv[2], "STREAMS");
    reqs_per_stream = (int)number_arg(argv[3], "REQUESTS");
    prefix = argv[4];
    body = argv[5];
    streams = calloc((size_t)n, sizeof *streams);
    ep = epoll_create1(0);
    if (!streams || ep < 0 || n < 1 || reqs_per_stream < 1)
        return 2;
    t0 = now_ns();
    active = n;
    while (active > 0) {
        int m, j, wait_ms = -1;
        while (started < n && now_ns() >= t0 + window_ns * started / n)
            start(ep, started++);
        if (started < n) {
            int64_t due = t0 + window_ns * started / n - now_ns();
            wait_ms = due > 0 ? (int)((due + 999999) / 1000000) : 0;
        }
        m = epoll_wait(ep, evs, 256, wait_ms);
        for (j = 0; j < m; j++) {
            int si = (int)evs[j].data.u32;
            if (on_ready(ep, si, evs[j].events)) {
                close(streams[si].fd);
                if (++streams[si].k < reqs_per_stream)
                    start(ep, si);
                else
                    active--;
            }
        }
    }
    out = fopen(argv[6], "w");
    if (!out)
        return 1;
    for (size_t r = 0; r < n_recs; r++) {
        const struct rec *x = &recs[r];
        if (x->kind == 0)
            fprintf(out, "%s-%d-%d\tstart\t%lld\n", prefix, x->stream, x->k,
                    (long long)x->t);
        else
            fprintf(out, "%s-%d-%d\tchunk\t%lld\t%llu\n", prefix, x->stream,
                    x->k, (long long)x->t, (unsigned long long)x->cum);
    }
    return fclose(out) == 0 ? 0 : 1;
}
