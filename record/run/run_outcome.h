/* run_outcome: adding facts to the run's outcome (struct run_outcome,
 * run.h): a result record written, a request ended with its last
 * attempt, failures counted by error kind. Pure bookkeeping. */
#ifndef TT_RECORD_RUN_OUTCOME_H
#define TT_RECORD_RUN_OUTCOME_H

#include <stdbool.h>
#include <stdint.h>

#include "run.h"

/* Counts one result record written (an attempt, a retried one too) with
 * the chunks and bytes it received. */
void run_outcome_attempt(struct run_outcome *o, uint64_t chunks,
                         uint64_t bytes);

/* Counts an attempt whose event stream came with another Content-Type
 * than text/event-stream (content_type, may be ""; the first is kept). */
void run_outcome_sse_mislabelled(struct run_outcome *o,
                                 const char *content_type);

/* Counts a request that ended with its last attempt: ok when kind is "",
 * else failed with that error kind (retry_exhausted: its retries ran
 * out); msg (may be NULL) is the attempt's error message, kept when it is
 * the first of its kind. A kind past RUN_MAX_KINDS distinct ones is
 * counted as failed but not by kind. Kind "interrupted" (stopped by a
 * signal) is counted as failed and stopped, not by kind. */
void run_outcome_request(struct run_outcome *o, const char *kind,
                         const char *msg, bool warmup, bool retry_exhausted);

#endif
