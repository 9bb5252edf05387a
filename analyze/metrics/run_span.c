/* run_span: the wall span of several runs as the union of their real-time
 * intervals. */
#include "run_span.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* *out = real_zero + (t - mono_zero) when every step fits int64; else
 * false (crafted clock zeros near the limits). */
static bool place(int64_t real_zero, int64_t t, int64_t mono_zero, int64_t *out)
{
    int64_t off;
    if ((mono_zero < 0 && t > INT64_MAX + mono_zero) ||
        (mono_zero > 0 && t < INT64_MIN + mono_zero))
        return false;
    off = t - mono_zero;
    if ((off > 0 && real_zero > INT64_MAX - off) ||
        (off < 0 && real_zero < INT64_MIN - off))
        return false;
    *out = real_zero + off;
    return true;
}

static int cmp_start(const void *a, const void *b)
{
    int64_t x = ((const struct run_span_run *)a)->start_ns;
    int64_t y = ((const struct run_span_run *)b)->start_ns;
    return (x > y) - (x < y);
}

double run_span_wall_s(const struct run_span_run *runs, size_t n,
                       struct run_span_run *scratch)
{
    double apart_s = 0; /* runs without a real placement, end to end */
    bool any = false;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const struct run_span_run *r = &runs[i];
        int64_t s, e;
        if (r->start_ns < 0 || r->end_ns <= r->start_ns)
            continue;
        any = true;
        if (r->real_zero_ns > 0 &&
            place(r->real_zero_ns, r->start_ns, r->mono_zero_ns, &s) &&
            place(r->real_zero_ns, r->end_ns, r->mono_zero_ns, &e)) {
            scratch[m].start_ns = s; /* real time from here on */
            scratch[m].end_ns = e;
            m++;
        } else {
            apart_s += (double)(r->end_ns - r->start_ns) / 1e9;
        }
    }
    if (!any)
        return NAN;
    qsort(scratch, m, sizeof(*scratch), cmp_start);
    for (size_t i = 0; i < m;) {
        int64_t s = scratch[i].start_ns, e = scratch[i].end_ns;
        for (i++; i < m && scratch[i].start_ns <= e; i++)
            if (scratch[i].end_ns > e)
                e = scratch[i].end_ns;
        /* e > s >= INT64_MIN: the difference is taken in unsigned */
        apart_s += (double)((uint64_t)e - (uint64_t)s) / 1e9;
    }
    return apart_s;
}
