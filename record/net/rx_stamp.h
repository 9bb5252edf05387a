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

#include <curl/curl.h>
#include <stdint.h>

/* A CURLOPT_SOCKOPTFUNCTION: asks the kernel to stamp what each new
 * connection's socket receives (SO_TIMESTAMPNS). A socket that refuses
 * reads as before (its chunks keep their hand-over time). Always
 * CURL_SOCKOPT_OK. */
int rx_stamp_sockopt(void *ud, curl_socket_t fd, curlsocktype purpose);

/* The time to stamp bytes libcurl handed over at user_ns with: the
 * calling thread's latest read's kernel time (converted to
 * CLOCK_MONOTONIC once per read), when it is sound (not after user_ns, at
 * most 10 s before it: a wall clock stepped in between), raised to prev_ns (the
 * stream's previous chunk time, -1 none) when below it so a stream's times
 * never go back; else user_ns. *lag_ns is user_ns minus the time chosen for a
 * kernel time, -1 else. Only valid where the bytes come from the latest read
 * (HTTP/1.1, no paused transfer handing over kept bytes). */
int64_t rx_stamp_chunk_time(int64_t user_ns, int64_t prev_ns, int64_t *lag_ns);

#endif
