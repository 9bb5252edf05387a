/* run_loop_state: the run loop's state queries, its fatal stop and the
 * records it writes besides the requests' (run_loop_state.c); for
 * run_loop.c only. */
#ifndef TT_RUN_LOOP_STATE_H
#define TT_RUN_LOOP_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "run_loop.h"

/* Stops everything after a failed write (RUN_E_WRITE) or allocation
 * (rc): no more requests, the loop breaks; the first rc is kept. */
void run_loop_fatal(struct run_loop *r, int rc);

/* True when the schedule has another request and nothing stops it. */
bool run_loop_has_next(const struct run_loop *r);

/* Requests in flight plus those waiting to retry, plus sessions between
 * two turns. */
uint64_t run_loop_busy(const struct run_loop *r);

/* Writes the finished stage's record (with --search, its verdict), once. */
void run_loop_end_stage(struct run_loop *r);

/* --search: appends the next probe's load to the plan; false when the
 * search is over. */
bool run_loop_search_more(struct run_loop *r);

/* Arms planned retry w and puts it on the waiting list. Returns 0, or
 * -1 (w was freed: the attempt is final). */
int run_loop_arm_retry(struct run_loop *r, struct run_retry *w);

/* --server-metrics: writes the scrapes taken before the run and arms the
 * interval timer (nothing without scrapes). */
void run_loop_scrapes_begin(struct run_loop *r);

/* --server-metrics: stops the timer and scrapes each URL once more. */
void run_loop_scrapes_end(struct run_loop *r);

#endif
