/* run_ramp: the arithmetic of a closed loop's --ramp: how many requests
 * may be in flight at a moment of the ramp, and when the next may join.
 * Pure; run_loop.c starts them. Not for use outside record/run. */
#ifndef TT_RECORD_RUN_RAMP_H
#define TT_RECORD_RUN_RAMP_H

#include <stdint.h>

/* Of n allowed in flight with a ramp of ramp_ns from zero_ns: how many
 * may be at now_ns (one more every ramp_ns / n from the start), and in
 * *next_ns when the next one may join (-1: the ramp is over or there is
 * none, ramp_ns <= 0). */
uint64_t run_ramp_allowed(uint64_t n, int64_t ramp_ns, int64_t zero_ns,
                          int64_t now_ns, int64_t *next_ns);

#endif
