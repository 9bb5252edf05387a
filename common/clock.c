/* clock: CLOCK_MONOTONIC / CLOCK_REALTIME in integer nanoseconds. */
#include "clock.h"

#include <stdio.h>
#include <time.h>

static int64_t read_clock(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int64_t clock_mono_ns(void)
{
    return read_clock(CLOCK_MONOTONIC);
}

int64_t clock_real_ns(void)
{
    return read_clock(CLOCK_REALTIME);
}

char *clock_format_utc(int64_t real_ns, char *out, unsigned long size)
{
    time_t secs = (time_t)(real_ns / 1000000000LL);
    struct tm tm;
    if (size == 0)
        return out;
    if (!gmtime_r(&secs, &tm) ||
        strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        snprintf(out, size, "invalid-time");
    return out;
}

char *clock_format_stamp(int64_t real_ns, char *out, unsigned long size)
{
    char utc[40]; /* "2026-11-30T02:00:00Z" */
    char d[16] = "", t[16] = "";
    size_t i, nd = 0, nt = 0;
    clock_format_utc(real_ns, utc, sizeof utc);
    for (i = 0; utc[i] && utc[i] != 'T'; i++)
        if (utc[i] != '-' && nd + 1 < sizeof d)
            d[nd++] = utc[i];
    for (i = i + (utc[i] == 'T'); utc[i] && utc[i] != 'Z' && utc[i] != '.'; i++)
        if (utc[i] != ':' && nt + 1 < sizeof t)
            t[nt++] = utc[i];
    if (size > 0)
        snprintf(out, size, "%s-%s", d, t);
    return out;
}
