/* run_plan: what a run plans before it starts, from the config alone:
 * its schedule's shape, how many may be in flight (and during a closed
 * loop's --ramp, how many at a moment), this shard's part of the counts,
 * and the progress line's total and ETA. It counts and
 * reports; run_loop.c decides what is sent. Not for use outside
 * record/run. */
#ifndef TT_RECORD_RUN_PLAN_H
#define TT_RECORD_RUN_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "progress.h"
#include "run.h"
#include "schedule.h"
#include "workload.h"

/* Fills sched (its models, classes, warmup, rounds, whether --duration
 * bounds it) for the run of s and returns the open loop's requests/s (0:
 * a closed loop; with --arrivals the file's mean rate). Can't fail. */
double run_plan_schedule(const struct run_setup *s, struct schedule *sched);

/* How many requests may be in flight or waiting at once: -c, or in an
 * open loop at most -c when given, else inflight_cap (what the open-file
 * limit allows); --shard takes this shard's share when it applies. rate
 * is run_plan_schedule's. */
uint64_t run_plan_max_inflight(const struct run_setup *s, double rate,
                               uint64_t inflight_cap);

/* Whether the run needs sub-ms timers: open-loop pacing does, and think
 * times are kept to the ms; they cost a timerfd_settime per loop turn
 * (~0.6 per chunk), so a closed loop goes without. The self-lag timer
 * keeps its own precision (self_lag.h). */
bool run_plan_precise_timers(const struct run_setup *s);

/* The sends an open loop with --duration plans when the progress line is
 * drawn and the schedule's total is unknown (else UINT64_MAX): counted
 * here, before the run's clock zero, so no send waits for it. */
uint64_t run_plan_planned_sends(const struct config *c,
                                const struct schedule *sched);

/* The lanes the shards of a closed loop of concurrency c split
 * (cli_shard_next): c in a closed loop, 0 in an open one (-r, a rate
 * sweep, --arrivals), whose shards keep k % N == I. */
uint64_t run_plan_lanes(const struct run_setup *s, uint64_t c);

/* Starts the progress line p at mono_zero with the run's total and its
 * ETA: the sweep's, or this shard's requests of sched over wl (its slots
 * with lanes, cli_shard_part), planned: run_plan_planned_sends's. Can't
 * fail. */
void run_plan_progress(struct progress *p, const struct config *c,
                       const struct schedule *sched, const struct workload *wl,
                       uint64_t lanes, uint64_t planned, int64_t mono_zero);

/* Of n allowed in flight with a ramp of ramp_ns from zero_ns: how many
 * may be at now_ns (one more every ramp_ns / n from the start), and in
 * *next_ns when the next one may join (-1: the ramp is over or there is
 * none, ramp_ns <= 0). */
uint64_t run_plan_ramp_allowed(uint64_t n, int64_t ramp_ns, int64_t zero_ns,
                               int64_t now_ns, int64_t *next_ns);

#endif
