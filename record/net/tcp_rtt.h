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

/* The sockets libcurl opened, found again by local port: each one's port
 * is read once (getsockname), when a transfer first asks after it was
 * noted, and indexed; every answer is checked with one more read. No cap:
 * a socket number taken again replaces its old entry. Zeroed is empty;
 * the index is allocated at the first add (256 KiB; without memory a
 * socket is not noted and its transfers have no RTT: absent, not 0). */
struct tcp_socks {
    int32_t *fd_of_port; /* [65536]: fd + 1 of the port's socket, 0 none */
    int *pending;        /* noted, port not read yet */
    size_t n_pending, cap_pending;
};

/* Notes fd (a socket libcurl just created, not yet connected). */
void tcp_socks_add(struct tcp_socks *s, int fd);

/* The noted socket whose local port is local_port, or -1. Two sockets on
 * one local port (to different peers) answer with the later one read. */
int tcp_socks_find(struct tcp_socks *s, long local_port);

/* Frees what s holds and empties it. NULL-safe. */
void tcp_socks_free(struct tcp_socks *s);

/* Reads fd's smoothed RTT and its mean deviation (ns) when fd is still the
 * TCP socket of local_port. Returns 0, or -1 (then both are untouched):
 * closed, another socket by now, no RTT measured yet. */
int tcp_rtt_read(int fd, long local_port, int64_t *rtt_ns, int64_t *rttvar_ns);

#endif
