/* plot_html_sections: the optional sections of report.html: the comparison
 * (plot_html_compare.c) and the trend (plot_html_trend.c). Every string
 * from a trace or a file name is HTML-escaped. */
#ifndef TT_PLOT_HTML_SECTIONS_H
#define TT_PLOT_HTML_SECTIONS_H

#include <stddef.h>
#include <stdio.h>

struct compare_result; /* analyze/compare/compare.h */
struct trend_set;      /* analyze/trend/trend.h */

/* What the report shows besides the summary, failures, charts and run
 * facts; NULL members are left out. Borrowed. */
struct plot_html_extra {
    const struct compare_result *cmp; /* one per NEW, all of the same BASE */
    size_t n_cmp;
    const struct trend_set *trend;
};

/* The comparison: an explanation, then per NEW a table (model, class,
 * metric, base and new p50, difference, %, interval, verdict) and the
 * groups only one side has. */
void plot_html_compare(FILE *out, const struct compare_result *r, size_t n);

/* The trend: one table row per period x model x class. */
void plot_html_trend(FILE *out, const struct trend_set *set);

#endif
