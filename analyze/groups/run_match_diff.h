/* run_match_diff: compares two shards' run_match header options (the
 * settings every shard of one run shares: "key=value" fields separated by
 * spaces, docs/trace-format.md) and names the first field that differs. */
#ifndef TT_RUN_MATCH_DIFF_H
#define TT_RUN_MATCH_DIFF_H

#include <stdbool.h>
#include <stddef.h>

struct run_match_diff {
    char field[32]; /* "seed", ...; "run_match" when one trace has none */
    char a[128];    /* a's value ("(absent)" when a lacks the field) */
    char b[128];    /* b's */
};

/* Compares a and b (either NULL: a recorder before run_match). Two NULLs
 * are equal (nothing to compare). Returns true when they differ, with
 * the first field of a that b lacks or has otherwise (then b's fields a
 * lacks) in *d. */
bool run_match_differs(const char *a, const char *b, struct run_match_diff *d);

#endif
