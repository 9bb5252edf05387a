/* clock_sync: what the kernel says about CLOCK_REALTIME's synchronization
 * (ntp_adjtime read-only: the unsynchronized flag, the maximum and
 * estimated error), for the trace header: run-level quantities of shards
 * on several hosts carry this uncertainty (docs/scale-out.md). */
#ifndef TT_RECORD_CLOCK_SYNC_H
#define TT_RECORD_CLOCK_SYNC_H

#include <stdint.h>

enum clock_sync_state {
    CLOCK_SYNC_UNKNOWN = 0, /* ntp_adjtime failed */
    CLOCK_SYNC_SYNCHRONIZED,
    CLOCK_SYNC_UNSYNCHRONIZED, /* STA_UNSYNC or TIME_ERROR: no bound */
};

struct clock_sync {
    enum clock_sync_state state;
    int64_t maxerror_us; /* the kernel's maximum error bound, -1 unknown */
    int64_t esterror_us; /* its estimated error, -1 unknown */
};

/* Reads the state now (no privilege needed: modes 0 changes nothing).
 * Cannot fail: an error gives CLOCK_SYNC_UNKNOWN. */
void clock_sync_read(struct clock_sync *out);

/* "synchronized", "unsynchronized" or "unknown". */
const char *clock_sync_state_name(enum clock_sync_state s);

#endif
