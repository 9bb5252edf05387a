/* rx_stamp: the kernel's receive time of the bytes libcurl reads.
 *
 * A user-space stamp is taken when the event loop gets round to a socket:
 * after the CPU woke up, after every chunk ahead of it in the same loop
 * turn. The kernel stamps each packet as it enters the TCP stack
 * (SO_TIMESTAMPNS), before any of that. libcurl reads with recv(), which
 * returns no such time, so this module defines recv() for the program
 * that links it: the same call through recvmsg(), keeping the time the
 * kernel reports (that of the last packet the read took). Sockets without
 * SO_TIMESTAMPNS get no time and behave exactly as before.
 *
 * One thread's reads: the times are kept per thread. */
#ifndef TT_RX_STAMP_H
#define TT_RX_STAMP_H

#include <stdint.h>

/* Asks the kernel to stamp what fd receives. 0, or the errno. */
int rx_stamp_enable(int fd);

/* The kernel receive time of the calling thread's latest recv() that
 * returned bytes, as CLOCK_MONOTONIC ns, or -1 when that read had no
 * kernel time. The kernel's CLOCK_REALTIME stamp is converted at the first
 * call after the read, with the wall clock read then against mono_now_ns
 * (the caller's monotonic reading); later calls for the same read return
 * the same value. */
int64_t rx_stamp_last(int64_t mono_now_ns);

#endif
