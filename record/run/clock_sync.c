/* clock_sync: the wall clock's synchronization state from ntp_adjtime. */
#include "clock_sync.h"

#include <string.h>
#include <sys/timex.h>

void clock_sync_read(struct clock_sync *out)
{
    struct timex tx;
    int st;
    memset(&tx, 0, sizeof tx); /* modes 0: read only */
    st = ntp_adjtime(&tx);
    out->maxerror_us = -1;
    out->esterror_us = -1;
    if (st < 0) {
        out->state = CLOCK_SYNC_UNKNOWN;
        return;
    }
    out->maxerror_us = (int64_t)tx.maxerror;
    out->esterror_us = (int64_t)tx.esterror;
    out->state = st == TIME_ERROR || (tx.status & STA_UNSYNC)
                     ? CLOCK_SYNC_UNSYNCHRONIZED
                     : CLOCK_SYNC_SYNCHRONIZED;
}

const char *clock_sync_state_name(enum clock_sync_state s)
{
    switch (s) {
    case CLOCK_SYNC_SYNCHRONIZED:
        return "synchronized";
    case CLOCK_SYNC_UNSYNCHRONIZED:
        return "unsynchronized";
    default:
        return "unknown";
    }
}
