/* check_shards: `check` over the shards of a run (docs/scale-out.md): the
 * headers of shard traces and whether each ended with a footer, gathered
 * while check reads the files, then judged with shard_merge: a run with a
 * shard missing, twice or cut, or whose shards are not one run, is not
 * OK. */
#ifndef TT_CHECK_SHARDS_H
#define TT_CHECK_SHARDS_H

#include <stdbool.h>
#include <stddef.h>

#include "load.h"
#include "trace.h"

struct check_shards {
    struct trace_info **infos; /* the shard traces seen, owned */
    size_t n, cap;
    bool last_is_shard; /* the last header read was a shard's */
    bool nomem;
};

/* Notes header h of file (kept only when it is a shard's: options shard
 * and run_id). */
void check_shards_header(struct check_shards *cs, const struct trace_header *h,
                         const char *file);

/* Notes the footer of the trace of the last header. */
void check_shards_footer(struct check_shards *cs, const struct trace_footer *f);

struct shard_set;

/* Builds *s (shard_merge.h) from the traces gathered (its rows borrow
 * them: free s before cs). Returns 0, or -1 out of memory. */
int check_shards_build(const struct check_shards *cs, struct shard_set *s);

/* Frees what was gathered; cs is empty after. */
void check_shards_free(struct check_shards *cs);

/* Prints a verdict line per run on stdout ("run ID: 2 of 2 shards, one
 * run: OK", or INCOMPLETE / NOT ONE RUN with what and which shards), frees
 * what was gathered, and returns 0 when every run is OK, else 1. */
int check_shards_finish(struct check_shards *cs);

#endif
