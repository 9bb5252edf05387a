/* shard_gate: the one check every command that pools traces (requests,
 * plot, compare, trend, capacity) makes before it reads them: are the
 * shards among its input one run (their run_match options agree) and
 * whole (none missing, cut or read twice)? The headers and footers are
 * read first (check_shards gathers them), judged with shard_merge; a run
 * that is not one is refused unless --merge-anyway. summary makes the
 * same judgement on its own loaded group_set. docs/scale-out.md. */
#ifndef TT_SHARD_GATE_H
#define TT_SHARD_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct shard_gate {
    size_t n_runs;        /* runs of shards among the input (0: none) */
    size_t n_not_one;     /* runs whose shards are not one run */
    size_t n_incomplete;  /* runs with a shard missing, cut or twice */
    bool merged_anyway;   /* n_not_one > 0 and --merge-anyway */
    bool stdin_unchecked; /* "-" among the inputs: not read twice */
    char what[240];       /* the first problem, one line ("" none) */
};

/* Reads the headers and footers of paths[0..n) (a "-" is left out: stdin
 * reads once; g->stdin_unchecked) and judges their shard runs into *g.
 * A run that is not one run is said on stderr naming the field and two
 * shards; with anyway false the caller then exits 1 (returns 1). Else
 * warns (a cut or missing shard by name, a merge made anyway) and
 * returns 0. Out of memory: said, returns 1. */
int shard_gate_check(char *const *paths, size_t n, bool anyway,
                     struct shard_gate *g);

/* Writes g's verdict as one text line ("shards: ...\n") on out when
 * there is something to say (a run incomplete or merged anyway).
 * Returns 0, or -1 on a write error. */
int shard_gate_line(FILE *out, const struct shard_gate *g);

/* Adds g's counts to *into (the first problem kept): compare's sides. */
void shard_gate_add(struct shard_gate *into, const struct shard_gate *g);

/* g as a JSON object, {"runs":N,"one_run":B,"merged_anyway":B,
 * "complete":B,"incomplete_runs":N,"problem":S|null}, into out (NUL
 * ended; cut to size, never inside an escape). NULL when g has no
 * shard run (the output then has no shard_check). */
const char *shard_gate_json(const struct shard_gate *g, char *out, size_t size);

#endif
