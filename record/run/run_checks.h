/* run_checks: what runs beside the loop and watches it: --keep-awake (the
 * loop's CPU pinned, kept from sleeping), the self-lag timer and the
 * cross-CPU wake-up probe; and the dispatch that serves the loop's events
 * (sleeping in epoll, or polling with --keep-awake poll). It starts and
 * stops them when told; run_loop.c decides when. Not for use outside
 * record/run. */
#ifndef TT_RECORD_RUN_CHECKS_H
#define TT_RECORD_RUN_CHECKS_H

#include <event2/event.h>

#include "cli.h"
#include "keep_awake.h"
#include "self_lag.h"
#include "wake_probe.h"

/* Starts --keep-awake as c asks (pinned before the first connection, so
 * the loop's CPU is known to the header); notes on stderr why it is off
 * when it was asked for and could not be had. Never fails. */
void run_checks_awake(struct keep_awake *awake, const struct config *c);

/* Starts the self-checks on base: the loop's own timer (self_lag.h: 20
 * samples a second for ~1-3 ms of CPU a second) and the wake-up probe,
 * whose helper runs on another CPU than the loop's (none when awake
 * allows only one). */
void run_checks_start(struct self_lag *lag, struct wake_probe *probe,
                      const struct keep_awake *awake, struct event_base *base);

/* Serves base's events until the loop breaks or exits: sleeping in epoll,
 * or with --keep-awake poll never sleeping (a non-blocking pass at a
 * time). */
void run_checks_dispatch(struct event_base *base,
                         const struct keep_awake *awake);

/* The run is over: the checks and the keep-awake stop (nothing spins
 * while the footer is written or the process exits). */
void run_checks_stop(struct self_lag *lag, struct wake_probe *probe,
                     struct keep_awake *awake);

#endif
