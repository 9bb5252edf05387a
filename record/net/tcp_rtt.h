/* tcp_rtt: the kernel's own round-trip estimate of a transfer's TCP
 * connection (TCP_INFO tcpi_rtt / tcpi_rttvar: the smoothed RTT and its
 * mean deviation, measured by the kernel on the connection's ACKs).
 *
 * libcurl 7.88 gives a multi transfer no socket (CURLINFO_ACTIVESOCKET
 * answers only CONNECT_ONLY handles), so the sockets are found by their
 * local port: every socket libcurl opens is noted (tcp_socks_add, from
 * the socket option callback), and a transfer's connection, new or
 * reused, is the noted socket whose local port libcurl reports for it
 * (CURLOPT_PREREQFUNCTION). */
#ifndef TT_RECORD_TCP_RTT_H
#define TT_RECORD_TCP_RTT_H

#include <stddef.h>
#include <stdint.h>

/* The sockets libcurl opened; past TCP_SOCKS_MAX the oldest entries are
 * forgotten (their transfers then have no RTT: absent, not 0). */
#define TCP_SOCKS_MAX 256

struct tcp_socks {
    int fd[TCP_SOCKS_MAX];
    size_t n, next; /* entries used; where the next forgets one */
};

/* Notes fd (a socket libcurl just created). Can't fail. */
void tcp_socks_add(struct tcp_socks *s, int fd);

/* The noted socket whose local port is local_port, or -1. */
int tcp_socks_find(const struct tcp_socks *s, long local_port);

/* Reads fd's smoothed RTT and its mean deviation (ns) when fd is still the
 * TCP socket of local_port. Returns 0, or -1 (then both are untouched):
 * closed, another socket by now, no RTT measured yet. */
int tcp_rtt_read(int fd, long local_port, int64_t *rtt_ns, int64_t *rttvar_ns);

#endif
