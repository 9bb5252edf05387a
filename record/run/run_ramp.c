/* run_ramp: how many may be in flight during a closed loop's --ramp. */
#include "run_ramp.h"

#include <math.h>

uint64_t run_ramp_allowed(uint64_t n, int64_t ramp_ns, int64_t zero_ns,
                          int64_t now_ns, int64_t *next_ns)
{
    int64_t since;
    uint64_t k;
    *next_ns = -1;
    if (ramp_ns <= 0 || n == 0)
        return n;
    since = now_ns - zero_ns;
    if (since >= ramp_ns)
        return n;
    k = 1 + (uint64_t)((double)n * (double)since / (double)ramp_ns);
    if (k >= n)
        return n;
    *next_ns = zero_ns + (int64_t)ceil((double)k * (double)ramp_ns / (double)n);
    return k;
}
