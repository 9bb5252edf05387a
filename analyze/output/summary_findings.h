/* summary_findings: the lines under the compact summary's table, one
 * finding each: the recorder's self-check, the fastest and slowest model of
 * each class, failures, goodput and what to distrust. */
#ifndef TT_SUMMARY_FINDINGS_H
#define TT_SUMMARY_FINDINGS_H

#include <stdio.h>

#include "groups.h"
#include "summary_view.h"

/* The self-check verdict in words for the header line ("self-check ok",
 * "self-check NOT ok"), or NULL when no trace carries one. */
const char *summary_self_check_words(const struct group_set *set);

/* Writes the findings, after a blank line, or nothing when there are
 * none. Lines fit the view's width (long ones wrap). */
void summary_findings(FILE *out, const struct group_set *set,
                      const struct summary_view *v);

#endif
