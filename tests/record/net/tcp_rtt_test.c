/* tcp_rtt_test: sockets found again by their local port, as a transfer's
 * connection is (tcp_rtt.h): every one of 600 open connections (more than
 * the old 256-entry list kept), a socket number taken again, a port no
 * noted socket has, and the cost: getsockname is counted (defined here,
 * it replaces libc's for the library linked in) and must stay a few
 * calls per lookup, not one per noted socket. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"
#include "tcp_rtt.h"

#define CONNS 600

static long getsockname_calls;

/* libc's getsockname, counted. */
int getsockname(int fd, struct sockaddr *restrict addr, socklen_t *restrict len)
{
    getsockname_calls++;
    return (int)syscall(SYS_getsockname, fd, addr, len);
}

static long port_of(int fd)
{
    struct sockaddr_in a;
    socklen_t len = sizeof a;
    if (syscall(SYS_getsockname, fd, (struct sockaddr *)&a, &len) != 0)
        return -1;
    return ntohs(a.sin_port);
}

/* A listening socket on 127.0.0.1 (port in *to), backlog for every
 * connection of the test (never accepted: the kernel completes them). */
static int listener(struct sockaddr_in *to)
{
    socklen_t len = sizeof *to;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    to->sin_family = AF_INET;
    to->sin_port = 0;
    to->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || bind(fd, (struct sockaddr *)to, sizeof *to) != 0 ||
        listen(fd, CONNS + 16) != 0 ||
        getsockname(fd, (struct sockaddr *)to, &len) != 0) {
        perror("listener");
        exit(1);
    }
    return fd;
}

/* A socket noted as libcurl's option callback does (before its connect),
 * then connected to to. */
static int noted_conn(struct tcp_socks *s, const struct sockaddr_in *to)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) {
        perror("socket");
        exit(1);
    }
    tcp_socks_add(s, fd);
    if (connect(fd, (const struct sockaddr *)to, sizeof *to) != 0) {
        perror("connect");
        exit(1);
    }
    return fd;
}

int main(void)
{
    struct tcp_socks s = {0};
    struct sockaddr_in to;
    static int fd[CONNS];
    static long port[CONNS];
    int lfd = listener(&to);
    size_t found = 0;
    long calls;
    int64_t rtt = 0, var = 0;

    for (size_t i = 0; i < CONNS; i++) {
        fd[i] = noted_conn(&s, &to);
        port[i] = port_of(fd[i]);
    }
    getsockname_calls = 0;
    /* each connection as its transfer asks for it, the oldest first */
    for (size_t i = 0; i < CONNS; i++)
        found += tcp_socks_find(&s, port[i]) == fd[i];
    calls = getsockname_calls;
    CHECK_MSG(found == CONNS, "%zu of %d found", found, CONNS);
    /* asked again (reused connections): one check each */
    getsockname_calls = 0;
    found = 0;
    for (size_t i = 0; i < CONNS; i++)
        found += tcp_socks_find(&s, port[CONNS - 1 - i]) == fd[CONNS - 1 - i];
    CHECK_MSG(found == CONNS, "%zu of %d found", found, CONNS);
    CHECK(getsockname_calls <= CONNS);
    /* at most the read of each new socket and one check per answer */
    CHECK_MSG(calls <= 2 * CONNS, "%ld getsockname calls for %d lookups", calls,
              CONNS);

    /* a number taken again: the new socket answers for its port, the old
     * port for nobody */
    {
        long old_port = port[7];
        close(fd[7]);
        fd[7] = noted_conn(&s, &to);
        port[7] = port_of(fd[7]);
        CHECK(port[7] != old_port);
        CHECK(tcp_socks_find(&s, port[7]) == fd[7]);
        CHECK(tcp_socks_find(&s, old_port) == -1);
    }
    /* a port no noted socket has, and out of range */
    CHECK(tcp_socks_find(&s, ntohs(to.sin_port)) == -1);
    CHECK(tcp_socks_find(&s, 0) == -1);
    CHECK(tcp_socks_find(&s, 70000) == -1);
    /* a connected socket has its RTT; the wrong port none */
    CHECK(tcp_rtt_read(fd[0], port[0], &rtt, &var) == 0);
    CHECK(rtt > 0);
    CHECK(tcp_rtt_read(fd[0], port[1], &rtt, &var) == -1);

    for (size_t i = 0; i < CONNS; i++)
        close(fd[i]);
    close(lfd);
    tcp_socks_free(&s);
    tcp_socks_free(&s); /* emptied: twice is fine */
    CHECK(tcp_socks_find(&s, port[0]) == -1);
    return CHECK_DONE();
}
