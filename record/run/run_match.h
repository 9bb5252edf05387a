/* run_match: the header's run_match option: the settings every shard of
 * one run must share, as "key=value" fields separated by spaces (values
 * with ' ', '%' and control bytes as %XX), which tokentrace-analyze
 * compares before it merges shards (docs/trace-format.md). */
#ifndef TT_RECORD_RUN_MATCH_H
#define TT_RECORD_RUN_MATCH_H

#include "cli.h"

#define RUN_MATCH_DIGEST_SIZE 17 /* 16 hex digits of SHA-256, NUL */

/* The first 16 hex digits of the SHA-256 of the file at path into out.
 * Returns 0, or -1 with errno (cannot read it). */
int run_match_file_digest(const char *path, char out[RUN_MATCH_DIGEST_SIZE]);

/* The run_match text of c: seed, load, duration_s, n, warmup, workload
 * (builtin or file:sha256=workload_digest), arrivals (--arrivals:
 * sha256=arrivals_digest), classes, lengths, models, api, shards, start
 * (the instant, +Ds for a relative --start-at, or none). A digest NULL
 * reads "unreadable". malloc'd; NULL out of memory. */
char *run_match_make(const struct config *c, const char *workload_digest,
                     const char *arrivals_digest);

#endif
