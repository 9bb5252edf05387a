/* plot_html_compare: the report's comparison section (`plot --compare
 * --html`): compare's numbers for each NEW against BASE, per model x class
 * and metric, with the bootstrap interval of the difference of medians and
 * the verdict in words, as a sortable table. */
#include "plot_html_sections.h"

#include <math.h>
#include <string.h>

#include "compare.h"
#include "plot_escape.h"
#include "plot_html_tables.h"

static void esc(FILE *out, const char *s)
{
    if (s)
        plot_html_escape(out, s, strlen(s));
}

/* The verdict in words and its CSS class ("bad" for a rise of a time,
 * "good" for a fall, "" otherwise). */
static const char *verdict_words(const struct compare_cell *c,
                                 const struct compare_metric_def *def,
                                 const char **cls)
{
    bool up = c->ci.estimate > 0;
    bool is_time = strcmp(def->unit, "ms") == 0;
    *cls = "";
    switch (c->verdict) {
    case VERDICT_REAL:
        if (is_time)
            *cls = up ? "bad" : "good";
        return up ? def->up : def->down;
    case VERDICT_NOISE:
        return "no difference";
    case VERDICT_TOO_FEW:
        return "too few";
    case VERDICT_NONE:
        break;
    }
    return "n/a";
}

/* One row: a metric of a group present on both sides. */
static void cell_row(FILE *out, const struct compare_pair *p, int m)
{
    const struct compare_cell *c = &p->cell[m];
    const struct compare_metric_def *def = &compare_metrics[m];
    const char *cls, *words = verdict_words(c, def, &cls);
    fputs("<tr><td>", out);
    esc(out, p->base->keys[0]);
    fputs("</td><td>", out);
    esc(out, p->base->keys[1]);
    fprintf(out, "</td><td>%s (%s)</td>", def->title, def->unit);
    plot_html_num_cell(out, c->base->n ? c->base->p50 : NAN);
    plot_html_num_cell(out, c->new_->n ? c->new_->p50 : NAN);
    plot_html_num_cell(out, c->diff[0]);
    plot_html_num_cell(out, c->pct[0]);
    plot_html_num_cell(out, c->has_ci ? c->ci.lo : NAN);
    plot_html_num_cell(out, c->has_ci ? c->ci.hi : NAN);
    fprintf(out, "<td class=\"verdict%s%s\">%s</td></tr>\n", *cls ? " " : "",
            cls, words);
}

/* "only in base: a / b, c / d" (nothing when the list is empty). */
static void only_list(FILE *out, const char *side, const struct group *const *g,
                      size_t n)
{
    if (n == 0)
        return;
    fprintf(out, "<p>only in %s: ", side);
    for (size_t i = 0; i < n; i++) {
        fputs(i ? ", " : "", out);
        esc(out, g[i]->keys[0]);
        fputs(" / ", out);
        esc(out, g[i]->keys[1]);
    }
    fputs("</p>\n", out);
}

void plot_html_compare(FILE *out, const struct compare_result *r, size_t n)
{
    fprintf(out,
            "<p>Differences are new &minus; base of the p50; the interval is "
            "the %.0f%% percentile bootstrap of the difference of medians "
            "(%u resamples, seed 1; ITL: per-request median ITL), the same "
            "as <code>tokentrace-analyze compare</code>. A verdict needs %d "
            "requests a side: slower/faster (more/fewer tokens) when the "
            "interval excludes 0, no difference when it holds 0. The "
            "<a href=\"#chart-compare\">compare chart</a> shows them per "
            "model and prompt class, with the same verdicts.</p>\n",
            COMPARE_LEVEL * 100, STATS_BOOTSTRAP_ITERATIONS,
            COMPARE_MIN_SAMPLES);
    for (size_t i = 0; i < n; i++) {
        fputs("<h3>", out);
        esc(out, r[i].base->file);
        fputs(" &rarr; ", out);
        esc(out, r[i].new_->file);
        fprintf(out,
                "</h3>\n<div class=\"scroll\"><table class=\"data sortable\" "
                "id=\"compare-%zu\">\n<thead><tr><th>model</th><th>class</th>"
                "<th>metric</th><th class=\"n\">base p50</th>"
                "<th class=\"n\">new p50</th><th class=\"n\">diff</th>"
                "<th class=\"n\">diff %%</th><th class=\"n\">CI low</th>"
                "<th class=\"n\">CI high</th><th>verdict</th></tr></thead>\n"
                "<tbody>\n",
                i + 1);
        for (size_t k = 0; k < r[i].n_pairs; k++)
            for (int m = 0; m < CMP_COUNT; m++)
                cell_row(out, &r[i].pairs[k], m);
        fputs("</tbody></table></div>\n", out);
        only_list(out, "base", r[i].only_base, r[i].n_only_base);
        only_list(out, "new", r[i].only_new, r[i].n_only_new);
    }
}
