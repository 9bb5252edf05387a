/* rx_stamp: recv() through recvmsg(), keeping the kernel's receive time. */
#include "rx_stamp.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "clock.h"

/* CLOCK_REALTIME ns of the latest read's last packet, -1 none; and the
 * same as CLOCK_MONOTONIC, converted once (-1: not yet), so that every
 * chunk of one read gets the same time. */
static _Thread_local int64_t last_real_ns = -1;
static _Thread_local int64_t last_mono_ns = -1;

int rx_stamp_enable(int fd)
{
    int on = 1;
    if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof(on)) != 0)
        return errno;
    return 0;
}

/* The SCM_TIMESTAMPNS time in a received message's control data, -1
 * when it has none. */
static int64_t stamp_of(struct msghdr *m)
{
    for (struct cmsghdr *c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR(m, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_TIMESTAMPNS ||
            c->cmsg_len < CMSG_LEN(sizeof(struct timespec)))
            continue;
        struct timespec ts;
        memcpy(&ts, CMSG_DATA(c), sizeof(ts));
        return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    }
    return -1;
}

/* Replaces libc's recv() for this program (libcurl's reads come here):
 * the same result and errno, and the kernel's time kept when the read
 * returned bytes. */
ssize_t recv(int fd, void *buf, size_t len, int flags)
{
    union {
        char b[CMSG_SPACE(sizeof(struct timespec))];
        struct cmsghdr align;
    } control;
    struct iovec v = {buf, len};
    struct msghdr m = {0};
    m.msg_iov = &v;
    m.msg_iovlen = 1;
    m.msg_control = control.b;
    m.msg_controllen = sizeof(control.b);
    ssize_t n = recvmsg(fd, &m, flags);
    if (n > 0 && !(flags & MSG_PEEK)) {
        last_real_ns = stamp_of(&m);
        last_mono_ns = -1;
    }
    return n;
}

int64_t rx_stamp_last(int64_t mono_now_ns)
{
    if (last_real_ns < 0)
        return -1;
    if (last_mono_ns < 0)
        last_mono_ns = last_real_ns - (clock_real_ns() - mono_now_ns);
    return last_mono_ns;
}
