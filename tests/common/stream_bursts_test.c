/* stream_bursts_test: the buffering detector on hand-made event times:
 * steady streams, held-and-released ones, packed chunks, short streams. */
#include "stream_bursts.h"

#include <math.h>
#include <string.h>

#include "check.h"

#define MS 1000000LL

/* n events: bursts of `burst` events 0.01 ms apart, every `hold` ms. */
static size_t make(struct stream_token *t, size_t n, size_t burst,
                   int64_t gap_ns, int64_t hold_ns)
{
    int64_t at = 0;
    memset(t, 0, n * sizeof(*t));
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            at += (i % burst == 0) ? hold_ns : gap_ns;
        t[i].t_ns = at;
    }
    return n;
}

int main(void)
{
    struct stream_token t[64];
    struct stream_bursts b;
    /* steady 5 ms per token: no burst */
    stream_bursts_of(t, make(t, 40, 1, 5 * MS, 5 * MS), &b);
    CHECK(b.gaps == 39 && b.in_bursts == 0 && b.longest_gap_ns == 5 * MS);
    CHECK(!stream_bursts_buffered(&b, NAN));
    /* 40 events in bursts of 10, 0.01 ms apart, every 80 ms: 36 of 39
     * gaps inside bursts, holds of 80 ms */
    stream_bursts_of(t, make(t, 40, 10, 10000, 80 * MS), &b);
    CHECK(b.in_bursts == 36 && b.longest_gap_ns == 80 * MS);
    CHECK(fabs(stream_bursts_share(&b) - 36.0 / 39) < 1e-12);
    CHECK(stream_bursts_buffered(&b, NAN) && stream_bursts_buffered(&b, 1));
    /* the same times with 4 tokens per event: a packing server */
    CHECK(!stream_bursts_buffered(&b, 4));
    /* holds too short to be a gateway */
    stream_bursts_of(t, make(t, 40, 10, 10000, 10 * MS), &b);
    CHECK(!stream_bursts_buffered(&b, 1));
    /* too few gaps to judge */
    stream_bursts_of(t, make(t, 6, 3, 10000, 80 * MS), &b);
    CHECK(b.gaps == 5 && !stream_bursts_buffered(&b, 1));
    /* no events, one event */
    stream_bursts_of(t, 0, &b);
    CHECK(b.gaps == 0 && isnan(stream_bursts_share(&b)));
    stream_bursts_of(t, 1, &b);
    CHECK(b.gaps == 0 && !stream_bursts_buffered(&b, 1));
    return CHECK_DONE();
}
