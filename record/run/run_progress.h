/* run_progress: feeds the progress line the run's facts (first tokens,
 * counts, stalled streams); progress.c draws it. It decides nothing. Not
 * for use outside record/run. */
#ifndef TT_RECORD_RUN_PROGRESS_H
#define TT_RECORD_RUN_PROGRESS_H

#include <stdint.h>

#include "progress.h"
#include "run_outcome.h"
#include "transfer.h"

/* Counts t's first token (a fact transfer.c keeps) on p, once. */
void run_progress_take_ttft(struct progress *p, struct transfer *t);

/* Brings p up to date before it is drawn at now_ns: the first tokens of
 * the attempts in flight (the list from inflight, n_inflight long), the
 * streams with no byte for PROGRESS_STALL_NS, the counts of out, the
 * requests waiting to retry. */
void run_progress_update(struct progress *p, struct transfer *inflight,
                         uint64_t n_inflight, uint64_t waiting,
                         const struct run_outcome *out, int64_t now_ns);

#endif
