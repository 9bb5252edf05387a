/* tcp_rtt: TCP_INFO's smoothed RTT of a transfer's connection. */
#include "tcp_rtt.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* fd's local port, -1 when it is no IP socket. */
static long local_port_of(int fd)
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    if (fd < 0 || getsockname(fd, (struct sockaddr *)&ss, &len) != 0)
        return -1;
    if (ss.ss_family == AF_INET)
        return ntohs(((struct sockaddr_in *)&ss)->sin_port);
    if (ss.ss_family == AF_INET6)
        return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
    return -1;
}

#define PORTS 65536

/* Reads the port of every pending socket into the index; a closed one
 * (or one not bound yet: no port) is dropped. */
static void resolve_pending(struct tcp_socks *s)
{
    for (size_t i = 0; i < s->n_pending; i++) {
        int fd = s->pending[i];
        long port = local_port_of(fd);
        if (port > 0 && port < PORTS)
            s->fd_of_port[port] = fd + 1;
    }
    s->n_pending = 0;
}

void tcp_socks_add(struct tcp_socks *s, int fd)
{
    if (fd < 0)
        return;
    if (!s->fd_of_port) {
        s->fd_of_port = calloc(PORTS, sizeof *s->fd_of_port);
        if (!s->fd_of_port)
            return;
    }
    if (s->n_pending == s->cap_pending) {
        if (s->cap_pending >= PORTS) /* never asked after: read them now */
            resolve_pending(s);
        else {
            size_t cap = s->cap_pending ? 2 * s->cap_pending : 64;
            int *p = realloc(s->pending, cap * sizeof *p);
            if (!p)
                return;
            s->pending = p;
            s->cap_pending = cap;
        }
    }
    s->pending[s->n_pending++] = fd;
}

/* The indexed socket of port when it still is that port's, else -1. */
static int indexed(const struct tcp_socks *s, long port)
{
    int fd = s->fd_of_port[port] - 1;
    return fd >= 0 && local_port_of(fd) == port ? fd : -1;
}

int tcp_socks_find(struct tcp_socks *s, long local_port)
{
    if (local_port <= 0 || local_port >= PORTS || !s->fd_of_port)
        return -1;
    resolve_pending(s); /* a new socket may have the port by now */
    return indexed(s, local_port);
}

void tcp_socks_free(struct tcp_socks *s)
{
    if (!s)
        return;
    free(s->fd_of_port);
    free(s->pending);
    memset(s, 0, sizeof *s);
}

int tcp_rtt_read(int fd, long local_port, int64_t *rtt_ns, int64_t *rttvar_ns)
{
    struct tcp_info ti;
    socklen_t len = sizeof ti;
    if (fd < 0 || local_port <= 0 || local_port_of(fd) != local_port)
        return -1;
    memset(&ti, 0, sizeof ti);
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0 ||
        ti.tcpi_rtt == 0) /* no ACK measured yet */
        return -1;
    *rtt_ns = (int64_t)ti.tcpi_rtt * 1000;
    *rttvar_ns = (int64_t)ti.tcpi_rttvar * 1000;
    return 0;
}
