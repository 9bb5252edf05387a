/* rx_stamp: recv() through recvmsg(), keeping the kernel's receive time. */
#include "rx_stamp.h"

#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "clock.h"

/* A kernel time older than this before the hand-over is not believed. */
#define RX_LAG_MAX_NS ((int64_t)10 * 1000000000)
/* Two monotonic readings this close around the wall clock's are taken as
 * one instant (a vDSO read is ~20-50 ns). */
#define RX_BRACKET_NS 2000

/* CLOCK_REALTIME ns of the latest read's last packet, -1 none; and the
 * same as CLOCK_MONOTONIC, converted once (-1: not yet), so that every
 * chunk of one read gets the same time. */
static _Thread_local int64_t last_real_ns = -1;
static _Thread_local int64_t last_mono_ns = -1;

int rx_stamp_sockopt(void *ud, curl_socket_t fd, curlsocktype purpose)
{
    int on = 1;
    (void)ud;
    if (purpose == CURLSOCKTYPE_IPCXN) /* refused: the reads get no time */
        (void)setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof(on));
    return CURL_SOCKOPT_OK;
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

/* CLOCK_REALTIME minus CLOCK_MONOTONIC, now: the wall clock read between
 * two monotonic readings, taken against their midpoint, from the closest
 * of up to four tries (a preemption between the reads would shift the
 * difference by its length, and stamp chunks before they came). */
static int64_t real_minus_mono(void)
{
    int64_t best_gap = INT64_MAX, off = 0;
    for (int i = 0; i < 4 && best_gap > RX_BRACKET_NS; i++) {
        int64_t m1 = clock_mono_ns();
        int64_t r = clock_real_ns();
        int64_t m2 = clock_mono_ns();
        if (m2 - m1 < best_gap) {
            best_gap = m2 - m1;
            off = r - (m1 + (m2 - m1) / 2);
        }
    }
    return off;
}

/* The kernel receive time of the calling thread's latest recv() that
 * returned bytes, as CLOCK_MONOTONIC ns, or -1 when that read had no
 * kernel time. Converted at the first call after the read (the two clocks'
 * difference read then, real_minus_mono); later calls for the same read
 * return the same value, so every chunk of one read gets the same time. */
static int64_t rx_stamp_last(void)
{
    if (last_real_ns < 0)
        return -1;
    if (last_mono_ns < 0)
        last_mono_ns = last_real_ns - real_minus_mono();
    return last_mono_ns;
}

int64_t rx_stamp_chunk_time(int64_t user_ns, int64_t prev_ns, int64_t *lag_ns)
{
    int64_t k = rx_stamp_last();
    *lag_ns = -1;
    if (k < 0 || k > user_ns || user_ns - k > RX_LAG_MAX_NS)
        return user_ns;
    if (k < prev_ns)
        k = prev_ns;
    *lag_ns = user_ns - k;
    return k;
}
