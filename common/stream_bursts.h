/* stream_bursts: the gateway-buffering detector, one definition for the
 * analyzer and the doctor (docs/metrics.md, "Gateway buffering"). A gap
 * between token events shorter than STREAM_BURST_GAP_NS is inside a burst;
 * a stream looks buffered on the way when it has STREAM_BUFFERED_MIN_GAPS
 * gaps or more, at least STREAM_BUFFERED_SHARE of them inside bursts, a
 * hold of STREAM_BUFFER_HOLD_NS or more between bursts, and about one token
 * per event (a server that packs tokens into chunks is not a gateway). */
#ifndef TT_STREAM_BURSTS_H
#define TT_STREAM_BURSTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stream_events.h"

#define STREAM_BURST_GAP_NS 200000LL     /* 0.2 ms */
#define STREAM_BUFFER_HOLD_NS 20000000LL /* 20 ms */
#define STREAM_BUFFERED_SHARE 0.5
#define STREAM_BUFFERED_MIN_GAPS 8

struct stream_bursts {
    size_t gaps;            /* between consecutive token events */
    size_t in_bursts;       /* of them shorter than STREAM_BURST_GAP_NS */
    int64_t longest_gap_ns; /* 0 without gaps */
};

/* Counts the gaps of n token events. Cannot fail. */
void stream_bursts_of(const struct stream_token *t, size_t n,
                      struct stream_bursts *out);

/* The share of gaps inside bursts; NAN without gaps. */
double stream_bursts_share(const struct stream_bursts *b);

/* True when the counts look like a stream held and released on the way.
 * tokens_per_event: usage tokens / token events, NAN when unknown (taken
 * as one). */
bool stream_bursts_buffered(const struct stream_bursts *b,
                            double tokens_per_event);

#endif
