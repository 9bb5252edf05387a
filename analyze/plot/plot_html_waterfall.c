/* plot_html_waterfall: the report's "Where TTFT went": per group a bar of
 * its mean TTFT stacked from the waterfall's parts (client, network,
 * server-reported, gateway/unaccounted before the headers, the rest after
 * them; behind tokentrace-proxy also the proxy's own time before and
 * after), inline SVG, with the numbers beside it. */
#include "plot_html_tables.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "plot_escape.h"

#define WF_PARTS 7
#define WF_PROXY_IN 0
#define WF_PROXY_OUT 6

static const char *const part_name[WF_PARTS] = {
    "proxy: request in",
    "client",
    "network",
    "server (reported)",
    "gateway/unaccounted",
    "after the headers, unaccounted",
    "proxy: first token out"};
static const char *const part_color[WF_PARTS] = {
    "#b3b3b3", "#8da0cb", "#66c2a5", "#fc8d62",
    "#e78ac3", "#a6d854", "#737373"};

/* A part's mean over the n requests with a waterfall: reported by some
 * requests only (the server's time; the proxy's parts are on every
 * request of a proxy trace), its sum spread over all n; none: NAN ("-"
 * in the table, nothing in the bar). */
static double mean_over(const struct stats_summary *s, size_t n)
{
    return s->n ? s->mean * (double)s->n / (double)n : NAN;
}

/* A group's mean parts (ms, they add up to its mean TTFT over the
 * requests with a waterfall, and behind the proxy to the TTFT its client
 * saw); false without. */
static bool parts_of(const struct group *g, double v[WF_PARTS])
{
    const struct stats_summary *s = g->sum;
    size_t n = s[M_WF_GATEWAY].n;
    if (!n)
        return false;
    v[WF_PROXY_IN] = mean_over(&s[M_WF_PROXY_IN], n);
    v[1] = s[M_WF_CLIENT].mean;
    v[2] = s[M_WF_NETWORK].mean;
    v[3] = mean_over(&s[M_WF_SERVER], n);
    v[4] = s[M_WF_GATEWAY].mean;
    v[5] = s[M_WF_UNACCOUNTED].mean - s[M_WF_GATEWAY].mean;
    v[WF_PROXY_OUT] = mean_over(&s[M_WF_PROXY_OUT], n);
    return true;
}

/* Whether part k has a column and a legend entry: the proxy's parts only
 * when some group has them. */
static bool shown(int k, bool proxy)
{
    return proxy || (k != WF_PROXY_IN && k != WF_PROXY_OUT);
}

/* The group's name: its keys joined by " / ". */
static void name_of(FILE *out, const struct group_set *set,
                    const struct group *g)
{
    for (size_t k = 0; k < set->by.n; k++) {
        if (k)
            fputs(" / ", out);
        if (g->keys[k])
            plot_html_escape(out, g->keys[k], strlen(g->keys[k]));
    }
}

/* The bars start right of their labels. */
#define WF_LABEL_W 220

/* One bar, its label left of it, scaled by scale px per ms. */
static void bar(FILE *out, const struct group_set *set, const struct group *g,
                const double v[WF_PARTS], double scale, int y)
{
    double x = WF_LABEL_W;
    fprintf(out,
            "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" "
            "font-size=\"11\">",
            WF_LABEL_W - 6, y + 11);
    name_of(out, set, g);
    fputs("</text>", out);
    for (int i = 0; i < WF_PARTS; i++) {
        double w = v[i] > 0 ? v[i] * scale : 0; /* a negative part: none */
        if (w > 0)
            fprintf(out,
                    "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"14\" "
                    "fill=\"%s\"><title>%s %.1f ms</title></rect>",
                    x, y, w, part_color[i], part_name[i], v[i]);
        x += w;
    }
}

void plot_html_waterfall(FILE *out, const struct group_set *set)
{
    double v[WF_PARTS], max = 0;
    size_t n = 0;
    bool proxy = false;
    for (size_t i = 0; i < set->n_groups; i++) {
        if (!parts_of(set->groups[i], v))
            continue;
        double t = 0;
        for (int k = 0; k < WF_PARTS; k++)
            t += v[k] > 0 ? v[k] : 0;
        max = fmax(max, t);
        proxy |= !isnan(v[WF_PROXY_IN]) || !isnan(v[WF_PROXY_OUT]);
        n++;
    }
    if (!n || max <= 0)
        return;
    fputs("<h2 id=\"waterfall\">Where TTFT went</h2>\n<p>Mean TTFT per "
          "group, stacked from its parts (docs/metrics.md, \"Where the "
          "first token's time went\"); a part below 0 (the clocks "
          "disagree) is left out of the bar, not of the table.",
          out);
    if (proxy)
        fputs(" Behind tokentrace-proxy the bar starts with the proxy's "
              "time with the request and ends with its time with the first "
              "token: it is the TTFT the proxy's client saw.",
              out);
    fputs("</p>\n<p>", out);
    for (int k = 0; k < WF_PARTS; k++)
        if (shown(k, proxy))
            fprintf(out,
                    "<span style=\"display:inline-block;width:.9em;height:.9em;"
                    "background:%s\"></span> %s&nbsp; ",
                    part_color[k], part_name[k]);
    fprintf(out,
            "</p>\n<figure><svg xmlns=\"http://www.w3.org/2000/svg\" "
            "viewBox=\"0 0 %d %zu\" role=\"img\">",
            WF_LABEL_W + 600, n * 20);
    n = 0;
    for (size_t i = 0; i < set->n_groups; i++)
        if (parts_of(set->groups[i], v))
            bar(out, set, set->groups[i], v, 600 / max, (int)(n++ * 20 + 3));
    fputs("</svg></figure>\n<div class=\"scroll\"><table class=\"data "
          "sortable\" id=\"waterfall-table\">\n<thead><tr><th>group</th>",
          out);
    for (int k = 0; k < WF_PARTS; k++)
        if (shown(k, proxy))
            fprintf(out, "<th class=\"n\">%s (ms)</th>", part_name[k]);
    fputs("</tr></thead>\n<tbody>\n", out);
    for (size_t i = 0; i < set->n_groups; i++) {
        if (!parts_of(set->groups[i], v))
            continue;
        fputs("<tr><td>", out);
        name_of(out, set, set->groups[i]);
        fputs("</td>", out);
        for (int k = 0; k < WF_PARTS; k++)
            if (shown(k, proxy))
                plot_html_num_cell(out, v[k]);
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table></div>\n", out);
}
