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

#endif
