/* run_start: the clock zero, after sleeping to --start-at. */
#include "run_start.h"

#include <errno.h>
#include <time.h>

#include "clock.h"
#include "run.h"

int run_start_wait(int64_t start_at_ns, struct run_start *out)
{
    struct timespec ts;
    int64_t mono, real;
    out->late_ns = 0;
    out->signalled = false;
    if (start_at_ns <= 0) {
        out->mono_zero_ns = clock_mono_ns();
        out->real_zero_ns = clock_real_ns();
        return 0;
    }
    ts.tv_sec = (time_t)(start_at_ns / 1000000000LL);
    ts.tv_nsec = (long)(start_at_ns % 1000000000LL);
    /* absolute on CLOCK_REALTIME: a clock step during the wait is
     * followed, so every host wakes at the instant its own clock names */
    while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL) == EINTR) {
        if (run_stop_requested) {
            out->signalled = true;
            break;
        }
    }
    mono = clock_mono_ns();
    real = clock_real_ns();
    out->late_ns = real - start_at_ns;
    if (out->late_ns < 0)
        out->late_ns = 0; /* a signal woke it early */
    /* the instant itself on the monotonic clock: the schedule is the
     * instant's, a late wake-up shows as send lag, not as a shift */
    out->mono_zero_ns = mono - out->late_ns;
    out->real_zero_ns = out->signalled ? real : start_at_ns;
    if (out->signalled)
        out->mono_zero_ns = mono;
    return !out->signalled && out->late_ns > RUN_START_LATE_NS ? 1 : 0;
}
