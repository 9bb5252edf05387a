/* proxy_drain: which forwarded chunks have left for the client. Each
 * chunk handed to the client connection's output buffer is a mark: the
 * output position its last byte will have left at; the output buffer's
 * drain callback advances the drained count and pops the marks it passed.
 * The number of marks is capped (a slow client pauses the upstream when
 * it is full). Pure: no libevent, no clock. */
#ifndef TT_PROXY_DRAIN_H
#define TT_PROXY_DRAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROXY_DRAIN_MAX_MARKS 4096 /* a power of two */

struct proxy_drain_mark {
    uint64_t end;    /* output position just past the chunk's last byte */
    int64_t recv_ns; /* when it was received from the upstream */
    uint64_t chunk;  /* its index among the exchange's chunks, from 0 */
};

struct proxy_drain {
    struct proxy_drain_mark *m; /* PROXY_DRAIN_MAX_MARKS entries, lazily */
    size_t head, n;
    uint64_t drained;    /* output bytes gone to the socket so far */
    uint64_t next_chunk; /* index of the next chunk pushed */
};

/* Starts empty (allocates nothing). */
void proxy_drain_init(struct proxy_drain *r);

/* True when no further mark fits. */
bool proxy_drain_full(const struct proxy_drain *r);

/* Marks the next chunk: its end is `queued` output bytes beyond what has
 * drained (the output buffer's length right after the chunk was added).
 * Returns 0, or -1 when full or out of memory. */
int proxy_drain_push(struct proxy_drain *r, size_t queued, int64_t recv_ns);

/* n more output bytes left for the socket. */
void proxy_drain_drained(struct proxy_drain *r, size_t n);

/* Pops the oldest mark whose chunk has wholly drained into *out. Returns
 * true when there was one. */
bool proxy_drain_pop(struct proxy_drain *r, struct proxy_drain_mark *out);

/* Frees the marks. */
void proxy_drain_free(struct proxy_drain *r);

#endif
