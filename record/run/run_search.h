/* run_search: the arithmetic of --search, an adaptive sweep: from the
 * starting load, double after every probe that meets the limit until one
 * breaks it (halve while the first ones break it), then bisect between
 * the heaviest pass and the lightest break until they are within the
 * precision, or the probes run out. It proposes the next load; run_loop.c
 * runs the probes and decides. Pure. */
#ifndef TT_RECORD_RUN_SEARCH_H
#define TT_RECORD_RUN_SEARCH_H

#include <stdbool.h>

#include "cli_sweep.h"
#include "trace.h"
#include "transfer.h"

struct run_search {
    struct cli_search cfg;
    double lo, hi;   /* heaviest pass, lightest break (NAN: none yet) */
    unsigned probes; /* probes judged */
};

/* Starts a search of cfg. */
void run_search_init(struct run_search *s, const struct cli_search *cfg);

/* Probe at load met the limit (pass) or not. Returns true with the next
 * load in *next, or false when the search is over. */
bool run_search_next(struct run_search *s, double load, bool pass,
                     double *next);

/* Whether a probe met the limit of cfg: of its judged requests (ended for
 * good), at least the attain share met the TTFT (met); none judged fails. */
bool run_search_passed(const struct cli_search *cfg, uint64_t met,
                       uint64_t judged);

/* Counts request t, which ended for good as res, into *judged and *met:
 * ok with its first token within cfg's TTFT limit from its intended send.
 * Neither without a search, nor for a warmup request. */
void run_search_count(const struct cli_search *cfg, const struct transfer *t,
                      const struct trace_result *res, uint64_t *judged,
                      uint64_t *met);

#endif
