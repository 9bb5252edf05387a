/* shard_merge: the traces of a loaded group_set that are shards of one run
 * (header option shard = I/N, run_id), merged per run into a struct
 * shard_set (docs/scale-out.md, "Merging"): per run, whether the set is
 * complete (which shard indexes are missing, which came twice), the wall
 * span on real time with the hosts' stated clock uncertainty, and a row
 * per shard (requests, errors, send lag, loop lag, host) so one
 * overloaded or throttled client stands out. Before any of it is trusted:
 * whether the shards are one run at all (their run_match options agree,
 * else the first field that differs), which were cut (no footer, or
 * stopped by a signal), and how far apart they really started. The
 * requests themselves are already pooled in the group_set (exact
 * percentiles). docs/scale-out.md. */
#ifndef TT_SHARD_MERGE_H
#define TT_SHARD_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "groups.h"
#include "run_match_diff.h"

struct shard_row {
    const struct trace_info *t; /* borrowed from the group_set */
    uint32_t index, count;
    uint64_t requests, failed;
    double lag_p50_ms, lag_p99_ms; /* open loop: send lag; NAN none */
    double loop_lag_p99_ms;        /* the recorder's own; NAN none */
    bool duplicate;                /* a second trace of the same index */
    bool cut; /* no footer (killed) or stopped by a signal: not whole */
    /* Its real start: the header's real zero plus how late it woke for
     * --start-at (option start_late_us; 0 when absent), CLOCK_REALTIME. */
    int64_t real_start_ns;
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
    size_t n_cut;            /* rows marked cut */
    const char *run_id_from; /* the first row's (borrowed), or NULL */
    /* Not one run: its shards' run_match options differ (or the run id
     * is each process's own, run_id_from "own"); diff names the first
     * field, between rows diff_a and diff_b (absolute row indexes). */
    bool differs;
    struct run_match_diff diff;
    size_t diff_a, diff_b;
    /* The spread of its shards' real starts, ms; NAN with one shard. */
    double start_skew_ms;
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

/* Whether run r is whole: no shard missing, twice or cut, and the
 * shards agree on N. */
bool shard_run_complete(const struct shard_run *r);

/* Whether every run of s is whole (true when s has none). */
bool shard_set_complete(const struct shard_set *s);

/* The runs of s whose shards are not one run (shard_run.differs). With
 * anyway false, says on stderr for each which field differs between
 * which shards and that nothing is merged; the caller then exits 1. */
size_t shard_set_refuse(const struct shard_set *s, bool anyway);

/* Warns on stderr per run: missing shards (by index), duplicates, cut
 * shards, a count the shards disagree on, a run merged anyway though not
 * one, a start skew past 100 ms, an unbounded wall span uncertainty. */
void shard_set_warn(const struct shard_set *s);

/* Frees what shard_set_build made. NULL-safe. */
void shard_set_free(struct shard_set *s);

#endif
