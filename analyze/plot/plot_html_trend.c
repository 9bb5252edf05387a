/* plot_html_trend: the report's trend section (`plot --trend --html`):
 * `tokentrace-analyze trend`'s rows (period x model x class: traces,
 * requests, failures, TTFT/TPOT/latency p50 and p99) as a sortable table,
 * with the change of each p50 from the same model x class's previous
 * period. */
#include "plot_html_sections.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot_escape.h"
#include "plot_html_tables.h"
#include "trend.h"

static void esc(FILE *out, const char *s)
{
    if (s)
        plot_html_escape(out, s, strlen(s));
}

/* p50 and its change in % from prev (a cell "-" without one). */
static void p50_cells(FILE *out, const struct trend_row *r,
                      const struct trend_row *prev, int m)
{
    double now = r->sum[m].n ? r->sum[m].p50 : NAN,
           pct = trend_change_pct(r, prev, m, 50);
    plot_html_num_cell(out, now);
    if (isnan(pct)) {
        fputs("<td class=\"n\" data-v=\"\">-</td>", out);
        return;
    }
    fprintf(out, "<td class=\"n%s\" data-v=\"%.17g\">%+.1f%%</td>",
            pct >= 10    ? " bad"
            : pct <= -10 ? " good"
                         : "",
            pct, pct);
}

void plot_html_trend(FILE *out, const struct trend_set *set)
{
    const struct trend_row **prevs = trend_previous_all(set);
    if (!prevs) /* never silent: the cells say "-", this says why */
        fputs("<p><strong>Out of memory: no &Delta; column</strong> (the "
              "previous periods were not found).</p>\n",
              out);
    fprintf(out,
            "<p>Per %s of each request's start, as "
            "<code>tokentrace-analyze trend</code>; &Delta; is the change "
            "of the p50 from the same model and class's previous period "
            "(&plusmn;10%% or more marked). The <a href=\"#chart-trend\">trend "
            "chart</a> shows the traces by the period in which they "
            "started.</p>\n",
            set->by_week ? "ISO week (UTC)" : "day (UTC)");
    fputs("<div class=\"scroll\"><table class=\"data sortable\" "
          "id=\"trend\">\n<thead><tr><th>period</th><th>model</th>"
          "<th>class</th><th class=\"n\">traces</th>"
          "<th class=\"n\">requests</th><th class=\"n\">failed</th>",
          out);
    for (int m = 0; m < TR_COUNT; m++)
        fprintf(out,
                "<th class=\"n\">%s p50 (ms)</th><th class=\"n\">&Delta;</th>"
                "<th class=\"n\">%s p99 (ms)</th>",
                trend_metrics[m].title, trend_metrics[m].title);
    fputs("</tr></thead>\n<tbody>\n", out);
    for (size_t i = 0; i < set->n_rows; i++) {
        const struct trend_row *r = set->rows[i],
                               *prev = prevs ? prevs[i] : NULL;
        fputs("<tr><td>", out);
        esc(out, r->period);
        fputs("</td><td>", out);
        esc(out, r->model);
        fputs("</td><td>", out);
        esc(out, r->class_name);
        fputs("</td>", out);
        plot_html_count_cell(out, r->n_traces);
        plot_html_count_cell(out, r->requests);
        plot_html_count_cell(out, trend_row_failed(r));
        for (int m = 0; m < TR_COUNT; m++) {
            p50_cells(out, r, prev, m);
            plot_html_num_cell(out, r->sum[m].n ? r->sum[m].p99 : NAN);
        }
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table></div>\n", out);
    free(prevs);
}
