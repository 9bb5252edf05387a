/* stream_bursts: gaps between token events, and the buffering verdict. */
#include "stream_bursts.h"

#include <math.h>

void stream_bursts_of(const struct stream_token *t, size_t n,
                      struct stream_bursts *out)
{
    out->gaps = n > 1 ? n - 1 : 0;
    out->in_bursts = 0;
    out->longest_gap_ns = 0;
    for (size_t i = 1; i < n; i++) {
        int64_t gap = t[i].t_ns - t[i - 1].t_ns;
        out->in_bursts += gap < STREAM_BURST_GAP_NS;
        if (gap > out->longest_gap_ns)
            out->longest_gap_ns = gap;
    }
}

double stream_bursts_share(const struct stream_bursts *b)
{
    return b->gaps ? (double)b->in_bursts / (double)b->gaps : NAN;
}

bool stream_bursts_buffered(const struct stream_bursts *b,
                            double tokens_per_event)
{
    return b->gaps >= STREAM_BUFFERED_MIN_GAPS &&
           stream_bursts_share(b) >= STREAM_BUFFERED_SHARE &&
           b->longest_gap_ns >= STREAM_BUFFER_HOLD_NS &&
           !(tokens_per_event > 1.5);
}
