/* run_span: the wall span of a set of runs (docs/metrics.md, "Per run"):
 * the union of their real-time intervals, so runs recorded at the same
 * time count once and runs recorded apart do not count the pause between
 * them. Pure; no overflow for any input. */
#ifndef TT_RUN_SPAN_H
#define TT_RUN_SPAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One run's measured requests: their first start and last end on the
 * trace's monotonic clock, and the trace's two clock zeros (the same
 * instant on CLOCK_REALTIME and CLOCK_MONOTONIC). */
struct run_span_run {
    int64_t start_ns, end_ns; /* monotonic; -1 unknown */
    int64_t mono_zero_ns, real_zero_ns;
};

/* Seconds covered by the union of the runs' intervals placed on the real
 * clock (real_zero + (t - mono_zero)). A run whose real placement is
 * unknown (real_zero_ns <= 0) or not representable in int64 is added end to
 * end instead. Runs with an unknown or empty interval are left out; NAN
 * when none is left. scratch must hold n entries (any content); it is
 * reordered. */
double run_span_wall_s(const struct run_span_run *runs, size_t n,
                       struct run_span_run *scratch);

#endif
