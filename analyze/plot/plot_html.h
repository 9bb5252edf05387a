/* plot_html: the self-contained report.html of `plot --html`: trace info,
 * the summary table and every chart as inline SVG, with no reference to
 * anything outside the file (no scripts, links or remote URLs). */
#ifndef TT_PLOT_HTML_H
#define TT_PLOT_HTML_H

#include <stddef.h>

#include "plot_chart.h"
#include "plot_html_sections.h"

/* Writes DIR/report.html for the charts (their SVGs are read from
 * DIR/NAME.svg; a chart without one gets a note saying why: `missing`),
 * with the comparison and trend sections of extra (NULL: none). Returns
 * 0, or 1 after an error message. */
int plot_html_write(const char *dir, const struct plot_data *d,
                    const struct plot_chart *const *charts, size_t n,
                    const char *missing, const struct plot_html_extra *extra);

#endif
