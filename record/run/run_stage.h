/* run_stage: the facts of one stage of a sweep (--sweep): which load it
 * names, when it began, how many requests it sent, and the recorder's own
 * state during it (event-loop lag, CPU time) for its stage record. It
 * decides nothing: run_loop.c begins and ends stages. */
#ifndef TT_RECORD_RUN_STAGE_H
#define TT_RECORD_RUN_STAGE_H

#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "self_lag.h"
#include "trace.h"

struct run_stage {
    uint32_t id; /* from 1; 0 when the run has no stages */
    enum sweep_mode mode;
    double load;      /* concurrency or requests/s */
    int64_t start_ns; /* the stage began */
    int64_t ramp_ns;  /* --ramp: its first ramp_ns are ramp-up */
    uint64_t sent;    /* first attempts sent in it */
    uint64_t lag_mark;
    int64_t cpu_start_ns; /* the loop thread's CPU time at the start, -1 */
};

/* Begins stage idx (from 0) of sw at now_ns with a ramp of ramp_ns (0:
 * none); lag is the run's self-lag watch (its samples from now on are the
 * stage's). Can't fail. */
void run_stage_begin(struct run_stage *st, const struct cli_sweep *sw,
                     size_t idx, int64_t now_ns, int64_t ramp_ns,
                     const struct self_lag *lag);

/* Fills *out, the record of st as it begins (its load, start and ramp;
 * no end, no CPU time yet), written before its requests so a cut trace
 * still names the stage of every request. Can't fail. */
void run_stage_opening(const struct run_stage *st, struct trace_stage *out);

/* Fills *out, the stage record of st ending at end_ns (borrows st's
 * strings, which are static). Can't fail. */
void run_stage_end(const struct run_stage *st, int64_t end_ns,
                   const struct self_lag *lag, struct trace_stage *out);

#endif
