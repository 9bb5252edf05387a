/* summary_as: `summary --as TOOL|all`: other tools' definitions of TTFT,
 * TPOT, ITL and latency over the same requests, as a table, JSON or
 * markdown, each beside tokentrace's own number (docs/definitions.md). */
#ifndef TT_SUMMARY_AS_H
#define TT_SUMMARY_AS_H

#include <stddef.h>
#include <stdio.h>

#include "definitions.h"

enum as_format { AS_TABLE, AS_JSON, AS_MARKDOWN };

/* Writes the numbers of the n tools (a reconciliation table when n > 1)
 * from c to out. Sorts c's values. Returns 0, or -1 when out failed. */
int summary_as_write(FILE *out, struct defs_collect *c,
                     const enum defs_tool *tools, size_t n, enum as_format fmt);

#endif
