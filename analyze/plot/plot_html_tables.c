/* plot_html_tables: the report's tables: the summary as a real, sortable
 * table (numbers right-aligned, units in the headers, raw values in
 * data-v for sorting), failures by kind with what the server said, and
 * each trace's run facts. */
#include "plot_html_tables.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "plot_escape.h"
#include "summary_findings.h"
#include "summary_output.h"
#include "text_out.h"

static void esc(FILE *out, const char *s)
{
    if (s)
        plot_html_escape(out, s, strlen(s));
}

struct col {
    const char *head; /* header text (HTML-safe constant) */
    int metric;       /* enum metric_id */
    int stat;         /* 50, 90 or 99 */
};

static const struct col cols[] = {
    {"TTFT p50 (ms)", M_TTFT, 50},        {"TTFT p90 (ms)", M_TTFT, 90},
    {"TTFT p99 (ms)", M_TTFT, 99},        {"TPOT p50 (ms)", M_TPOT, 50},
    {"TPOT p99 (ms)", M_TPOT, 99},        {"ITL p50 (ms)", M_ITL, 50},
    {"ITL p99 (ms)", M_ITL, 99},          {"latency p50 (ms)", M_LATENCY, 50},
    {"latency p99 (ms)", M_LATENCY, 99},  {"tok/s p50", M_TPS, 50},
    {"out tok p50", M_OUTPUT_TOKENS, 50},
};
#define N_COLS (sizeof cols / sizeof cols[0])
/* Last, when any request said how many input tokens were cached. */
static const struct col col_cached = {"cached tok p50", M_CACHED_TOKENS, 50};

static bool any_cached(const struct group_set *set)
{
    return set->overall.sum[M_CACHED_TOKENS].n > 0;
}

static double stat_of(const struct stats_summary *s, int stat)
{
    return stat == 50 ? s->p50 : stat == 90 ? s->p90 : s->p99;
}

/* (plot_html_tables.h) */
void plot_html_num_cell(FILE *out, double v)
{
    char text[32];
    text_fmt_num(text, sizeof text, v);
    if (isnan(v))
        fputs("<td class=\"n\" data-v=\"\">-</td>", out);
    else
        fprintf(out, "<td class=\"n\" data-v=\"%.17g\">%s</td>", v, text);
}

void plot_html_count_cell(FILE *out, uint64_t n)
{
    fprintf(out, "<td class=\"n\" data-v=\"%llu\">%llu</td>",
            (unsigned long long)n, (unsigned long long)n);
}

/* Under the table, once (not per group): what the cached column holds,
 * from how many requests, how many of them derived. */
static void cached_note(FILE *out, const struct group *o)
{
    fprintf(out,
            "<p>cached tok p50: the input tokens the server found cached (%zu "
            "of %llu ok requests said)",
            o->sum[M_CACHED_TOKENS].n, (unsigned long long)o->ok);
    if (o->cached_derived)
        fprintf(out,
                "; derived in %llu: usage.prompt_tokens &minus; "
                "timings.prompt_n, the server names no cached count",
                (unsigned long long)o->cached_derived);
    fputs(".</p>\n", out);
}

static void group_row(FILE *out, const struct group_set *set,
                      const struct group *g)
{
    double failed = g->requests
                        ? 100.0 * (double)group_failed(g) / (double)g->requests
                        : NAN;
    fputs("<tr>", out);
    for (size_t k = 0; k < set->by.n; k++) {
        fputs("<td>", out);
        esc(out, g == &set->overall ? (k == 0 ? "all" : "") : g->keys[k]);
        fputs("</td>", out);
    }
    plot_html_count_cell(out, g->requests);
    fprintf(out, "<td class=\"n%s\" data-v=\"%.17g\">%.1f%%</td>",
            group_failed(g) ? " bad" : "", isnan(failed) ? 0 : failed,
            isnan(failed) ? 0 : failed);
    for (size_t c = 0; c < N_COLS; c++)
        plot_html_num_cell(out, stat_of(&g->sum[cols[c].metric], cols[c].stat));
    if (any_cached(set))
        plot_html_num_cell(out, stat_of(&g->sum[col_cached.metric], 50));
    fputs("</tr>\n", out);
}

void plot_html_summary_table(FILE *out, const struct group_set *set)
{
    char tmp[128];
    fputs("<div class=\"scroll\"><table class=\"data sortable\" "
          "id=\"summary\">\n<thead><tr>",
          out);
    for (size_t k = 0; k < set->by.n; k++) {
        fputs("<th>", out);
        esc(out, group_dim_name(set, k, tmp, sizeof tmp));
        fputs("</th>", out);
    }
    fputs("<th class=\"n\">requests</th><th class=\"n\">failed</th>", out);
    for (size_t c = 0; c < N_COLS; c++)
        fprintf(out, "<th class=\"n\">%s</th>", cols[c].head);
    if (any_cached(set))
        fprintf(out, "<th class=\"n\">%s</th>", col_cached.head);
    fputs("</tr></thead>\n<tbody>\n", out);
    if (set->n_groups != 1)
        group_row(out, set, &set->overall);
    for (size_t i = 0; i < set->n_groups; i++)
        group_row(out, set, set->groups[i]);
    fputs("</tbody></table></div>\n", out);
    if (any_cached(set))
        cached_note(out, &set->overall);
}

void plot_html_findings(FILE *out, const struct group_set *set)
{
    struct summary_view v = {100000, false}; /* one line per finding */
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return;
    summary_findings(mem, set, &v);
    if (fclose(mem) == 0 && text && len > 1) {
        char *line = text, *nl;
        fputs("<ul class=\"findings\">\n", out);
        while ((nl = strchr(line, '\n')) != NULL) {
            if (nl > line) {
                fputs("<li>", out);
                plot_html_escape(out, line, (size_t)(nl - line));
                fputs("</li>\n", out);
            }
            line = nl + 1;
        }
        fputs("</ul>\n", out);
    }
    free(text);
}

void plot_html_failures(FILE *out, const struct group_set *set)
{
    char name[600];
    bool any = false;
    for (size_t i = 0; i < set->n_groups; i++) {
        const struct group *g = set->groups[i];
        for (size_t k = 0; k < g->n_errors; k++) {
            const struct error_count *e = &g->errors[k];
            if (!any)
                fputs("<div class=\"scroll\"><table class=\"data sortable\" "
                      "id=\"failures\">\n<thead><tr><th>group</th><th>kind"
                      "</th><th class=\"n\">requests</th><th>what the first "
                      "one said</th></tr></thead>\n<tbody>\n",
                      out);
            any = true;
            group_describe(g, name, sizeof name);
            fputs("<tr><td>", out);
            esc(out, name);
            fputs("</td><td>", out);
            esc(out, e->kind);
            fputs("</td>", out);
            plot_html_count_cell(out, e->n);
            fputs("<td>", out);
            if (e->message) {
                fputs(e->server ? "the server: " : "the recorder: ", out);
                esc(out, e->message);
            } else {
                fputs("-", out);
            }
            fputs("</td></tr>\n", out);
        }
    }
    if (any)
        fputs("</tbody></table></div>\n", out);
    else
        fputs("<p>No request failed.</p>\n", out);
}

static void fact(FILE *out, const char *key, const char *value)
{
    fprintf(out, "<tr><th>%s</th><td>", key);
    esc(out, value && *value ? value : "-");
    fputs("</td></tr>\n", out);
}

/* The endpoint without any user:password@ part (the recorder never stores
 * a key, but a URL typed with credentials must not reach the page). */
static void endpoint_fact(FILE *out, const char *url)
{
    const char *scheme = url ? strstr(url, "://") : NULL;
    const char *host = scheme ? scheme + 3 : url;
    const char *at = host ? strchr(host, '@') : NULL;
    const char *slash = host ? strchr(host, '/') : NULL;
    fputs("<tr><th>endpoint</th><td>", out);
    if (!url || !*url) {
        fputs("-", out);
    } else if (at && (!slash || at < slash)) {
        plot_html_escape(out, url, (size_t)(host - url));
        fputs("***@", out);
        esc(out, at + 1);
    } else {
        esc(out, url);
    }
    fputs("</td></tr>\n", out);
}

void plot_html_trace_facts(FILE *out, const struct group_set *set,
                           const struct trace_info *t)
{
    char when[64];
    fputs("<table class=\"info\">\n", out);
    fact(out, "trace file", t->file);
    fact(out, "trace id", t->trace_id);
    fact(out, "api", t->api);
    endpoint_fact(out, t->endpoint);
    fact(out, "recorder", t->tool_version);
    fact(out, "workload", t->workload);
    fact(out, "started (UTC)",
         t->real_zero_ns > 0
             ? clock_format_utc(t->real_zero_ns, when, sizeof(when))
             : "");
    fputs("<tr><th>models</th><td>", out);
    for (size_t i = 0; i < t->n_models; i++) {
        fputs(i ? ", " : "", out);
        esc(out, t->models[i]);
    }
    fputs(t->n_models ? "" : "-", out);
    fputs("</td></tr>\n<tr><th>labels</th><td>", out);
    for (size_t i = 0; i < t->n_labels; i++) {
        fputs(i ? ", " : "", out);
        esc(out, t->labels[i].key);
        fputc('=', out);
        esc(out, t->labels[i].value);
    }
    fputs(t->n_labels ? "" : "-", out);
    fputs("</td></tr>\n<tr><th>options</th><td>", out);
    for (size_t i = 0; i < t->n_options; i++) {
        fputs(i ? ", " : "", out);
        esc(out, t->options[i].key);
        fputc('=', out);
        esc(out, t->options[i].value);
    }
    fputs(t->n_options ? "" : "-", out);
    fprintf(out,
            "</td></tr>\n<tr><th>counts</th><td>%llu requests, %llu chunks, "
            "%llu bytes</td></tr>\n<tr><th>self-check</th><td>",
            (unsigned long long)t->requests, (unsigned long long)t->chunks,
            (unsigned long long)t->bytes);
    if (t->loop_lag_samples == 0)
        fputs("none in this trace", out);
    else
        fprintf(out,
                "%s: the recorder woke up late by p50 %.3f ms, p99 %.3f ms, "
                "max %.3f ms (%llu wake-ups)",
                summary_self_lag_too_high(set, t)
                    ? "<span class=\"bad\">failed</span> (over 10% of the ITL "
                      "p50: these timings describe the client too)"
                    : "ok",
                (double)t->loop_lag_p50_ns / 1e6,
                (double)t->loop_lag_p99_ns / 1e6,
                (double)t->loop_lag_max_ns / 1e6,
                (unsigned long long)t->loop_lag_samples);
    if (summary_kernel_times(t))
        fprintf(out,
                "; chunk times are the kernel's receive times: libcurl "
                "handed the chunks over p50 %.3f ms, p99 %.3f ms, max %.3f "
                "ms later, which is not in these numbers%s",
                (double)t->receive_lag_p50_ns / 1e6,
                (double)t->receive_lag_p99_ns / 1e6,
                (double)t->receive_lag_max_ns / 1e6,
                summary_reads_merged(set, t)
                    ? " (<span class=\"bad\">over half the ITL p50</span>: "
                      "a read may take several events of a stream)"
                    : "");
    fputs("</td></tr>\n<tr><th>state</th><td>", out);
    if (t->damage) {
        fputs("damaged: ", out);
        esc(out, t->damage);
    } else if (t->interrupted) {
        fputs("interrupted", out);
    } else {
        fputs(t->has_footer ? "complete"
                            : "no footer (recorder stopped early?)",
              out);
    }
    fputs("</td></tr>\n</table>\n", out);
}

/* Sorting by a click on a header: numbers by data-v, text by content;
 * a second click reverses. No network, no library. */
const char plot_html_sort_script[] =
    "<script>\n"
    "document.querySelectorAll('table.sortable').forEach(function (t) {\n"
    "  t.querySelectorAll('thead th').forEach(function (th, i) {\n"
    "    th.tabIndex = 0; th.title = 'sort';\n"
    "    function sort() {\n"
    "      var body = t.tBodies[0], rows = Array.from(body.rows);\n"
    "      var up = th.getAttribute('aria-sort') !== 'ascending';\n"
    "      t.querySelectorAll('thead th').forEach(function (h) {\n"
    "        h.removeAttribute('aria-sort'); });\n"
    "      th.setAttribute('aria-sort', up ? 'ascending' : 'descending');\n"
    "      rows.sort(function (a, b) {\n"
    "        var x = a.cells[i], y = b.cells[i];\n"
    "        var u = x.dataset.v, v = y.dataset.v, c;\n"
    "        if (u !== undefined && v !== undefined)\n"
    "          c = (u === '' ? Infinity : +u) - (v === '' ? Infinity : +v);\n"
    "        else c = x.textContent.localeCompare(y.textContent);\n"
    "        return up ? c : -c; });\n"
    "      rows.forEach(function (r) { body.appendChild(r); });\n"
    "    }\n"
    "    th.addEventListener('click', sort);\n"
    "    th.addEventListener('keydown', function (e) {\n"
    "      if (e.key === 'Enter') sort(); });\n"
    "  });\n"
    "});\n"
    /* report.html#sort-summary-4 (or -4-desc): sorted on opening */
    "var m = /^#sort-(\\w+)-(\\d+)(-desc)?$/.exec(location.hash);\n"
    "var st = m && document.getElementById(m[1]);\n"
    "if (st) { var h = st.tHead.rows[0].cells[+m[2]];\n"
    "  if (h) { h.click(); if (m[3]) h.click(); } }\n"
    "document.body.dataset.ready = 'yes';\n"
    "</script>\n";
