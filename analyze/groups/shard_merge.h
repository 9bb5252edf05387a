/* shard_merge: the traces of a loaded group_set that are shards of one run
 * (header option shard = I/N, run_id), merged per run into a struct
 * shard_set (docs/scale-out.md, "Merging"): per run, whether the set is
 * complete (which shard indexes are missing, which came twice), the wall
 * span on real time with the hosts' stated clock uncertainty, and a row
 * per shard (requests, errors, send lag, loop lag, host) so one
 * overloaded or throttled client stands out. The requests themselves are
 * already pooled in the group_set (exact percentiles). docs/scale-out.md. */
#ifndef TT_SHARD_MERGE_H
#define TT_SHARD_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "groups.h"

struct shard_row {
    const struct trace_info *t; /* borrowed from the group_set */
    uint32_t index, count;
    uint64_t requests, failed;
    double lag_p50_ms, lag_p99_ms; /* open loop: send lag; NAN none */
    double loop_lag_p99_ms;        /* the recorder's own; NAN none */
    bool duplicate;                /* a second trace of the same index */
};

struct shard_run {
    const char *run_id; /* borrowed (trace option) */
    uint32_t count;     /* N, as the first shard read says */
    bool count_differs; /* shards of the run disagree about N */
    size_t first, n;    /* its rows: rows[first .. first + n) */
    uint32_t *missing;  /* indexes of 0..N-1 no trace has (owned) */
    size_t n_missing;
    size_t n_duplicate; /* rows marked duplicate */
    size_t n_hosts;     /* distinct host names */
    double wall_s;      /* union of its shards' spans on real time */
    /* How far the wall span can be off: 0 on one host (one clock); on
     * several, the sum of the two largest hosts' maxerror; NAN when a
     * host's clock is unsynchronized or unknown (why names it). */
    double wall_uncertainty_ms;
    char why[160];
};

struct shard_set {
    struct shard_row *rows; /* by run, then index */
    size_t n_rows;
    struct shard_run *runs;
    size_t n_runs; /* 0: no trace is a shard */
};

/* Builds *out from the set's traces (after group_set_summarize). Returns
 * 0, or -1 out of memory (out is then empty). */
int shard_set_build(const struct group_set *set, struct shard_set *out);

/* Warns on stderr per run: missing shards (by index), duplicates, a
 * count the shards disagree on, an unbounded wall span uncertainty. */
void shard_set_warn(const struct shard_set *s);

/* Frees what shard_set_build made. NULL-safe. */
void shard_set_free(struct shard_set *s);

#endif
