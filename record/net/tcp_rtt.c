/* tcp_rtt: TCP_INFO's smoothed RTT of a transfer's connection. */
#include "tcp_rtt.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
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

void tcp_socks_add(struct tcp_socks *s, int fd)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->fd[i] == fd)
            return; /* a closed one's number, taken again */
    if (s->n < TCP_SOCKS_MAX) {
        s->fd[s->n++] = fd;
        return;
    }
    s->fd[s->next] = fd;
    s->next = (s->next + 1) % TCP_SOCKS_MAX;
}

int tcp_socks_find(const struct tcp_socks *s, long local_port)
{
    if (local_port <= 0)
        return -1;
    for (size_t i = 0; i < s->n; i++)
        if (local_port_of(s->fd[i]) == local_port)
            return s->fd[i];
    return -1;
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
