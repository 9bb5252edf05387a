/* plot_html_tables: the tables of report.html (plot_html.c writes the
 * page around them). Every string from a trace is HTML-escaped. */
#ifndef TT_PLOT_HTML_TABLES_H
#define TT_PLOT_HTML_TABLES_H

#include <stdint.h>
#include <stdio.h>

#include "groups.h"

/* The summary: one row per group (all requests first when there are
 * several), sortable, numbers right-aligned with their units in the
 * headers and their full values in data-v. */
void plot_html_summary_table(FILE *out, const struct group_set *set);

/* The compact summary's findings as a list (nothing when there are
 * none). */
void plot_html_findings(FILE *out, const struct group_set *set);

/* Failures by group and kind with what the first one said. */
void plot_html_failures(FILE *out, const struct group_set *set);

/* One trace's facts: file, id, api, endpoint (credentials hidden),
 * models, labels, options, counts, self-check, state. */
void plot_html_trace_facts(FILE *out, const struct group_set *set,
                           const struct trace_info *t);

/* "Where TTFT went": per group a bar of its mean TTFT stacked from the
 * waterfall's parts, and their table (plot_html_waterfall.c); nothing
 * when no group has a waterfall. */
void plot_html_waterfall(FILE *out, const struct group_set *set);

/* A number cell (class n): v shown rounded, sorted by its full value in
 * data-v; "-" when v is NaN. */
void plot_html_num_cell(FILE *out, double v);

/* A count cell (class n). */
void plot_html_count_cell(FILE *out, uint64_t n);

/* The <script> element that makes table.sortable sortable by a click or
 * Enter on a header, and marks body[data-ready] when it ran. */
extern const char plot_html_sort_script[];

#endif
