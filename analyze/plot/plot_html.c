/* plot_html: writes report.html with inline SVG charts, offline-viewable. */
#include "plot_html.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "out_error.h"
#include "plot_escape.h"
#include "plot_html_tables.h"
#include "summary_output.h"

/* Largest SVG inlined. */
#define SVG_MAX ((size_t)64 << 20)

/* Writes a NUL-terminated string HTML-escaped (NULL writes nothing). */
static void esc(FILE *out, const char *s)
{
    if (s)
        plot_html_escape(out, s, strlen(s));
}

/* Reads a whole file (NULL when missing, unreadable or too big). */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *data = NULL;
    long size;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 &&
        (size_t)size <= SVG_MAX && fseek(f, 0, SEEK_SET) == 0 &&
        (data = malloc((size_t)size + 1)) != NULL) {
        *len = fread(data, 1, (size_t)size, f);
        data[*len] = '\0';
    }
    fclose(f);
    return data;
}

/* Copies the <svg> element of gnuplot's file: drops the XML prolog and
 * DOCTYPE before it and the xmlns attributes of its start tag (not needed
 * inline in HTML, and they name remote URLs). */
static bool inline_svg(FILE *out, const char *svg, size_t len)
{
    const char *start = strstr(svg, "<svg"), *p, *tag_end;
    if (!start)
        return false;
    tag_end = strchr(start, '>');
    if (!tag_end)
        return false;
    fputs("<svg", out);
    p = start + 4;
    while (p < tag_end) {
        const char *name = p, *q;
        char quote;
        while (p < tag_end &&
               (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
            p++;
        name = p;
        while (p < tag_end && *p != '=' && *p != ' ' && *p != '\n')
            p++;
        if (p < tag_end && *p == '=' && (p[1] == '"' || p[1] == '\'')) {
            quote = p[1];
            q = memchr(p + 2, quote, (size_t)(tag_end - p - 2));
            p = q ? q + 1 : tag_end;
        }
        if (p == name) { /* a stray character: skip it */
            p++;
            continue;
        }
        if (strncmp(name, "xmlns", 5) != 0) {
            fputc(' ', out);
            fwrite(name, 1, (size_t)(p - name), out);
        }
    }
    fwrite(tag_end, 1, len - (size_t)(tag_end - svg), out);
    return true;
}

/* One chart: its heading, its SVG inline (or a note), its files. */
static void chart_section(FILE *out, const char *dir,
                          const struct plot_chart *ch, const char *missing)
{
    char path[4096];
    size_t len = 0;
    char *svg;
    fprintf(out, "<section id=\"chart-%s\">\n<h3>", ch->name);
    esc(out, ch->title);
    fputs("</h3>\n", out);
    snprintf(path, sizeof(path), "%s/%s.svg", dir, ch->name);
    svg = read_file(path, &len);
    fputs("<figure>\n", out);
    if (!svg || !inline_svg(out, svg, len)) {
        fputs("<p class=\"missing\">", out);
        esc(out, missing ? missing : "gnuplot did not draw this chart");
        fputs("</p>", out);
    }
    fprintf(out,
            "\n<figcaption>gnuplot script %s.gp, data %s.dat</figcaption>\n"
            "</figure>\n</section>\n",
            ch->name, ch->name);
    free(svg);
}

int plot_html_write(const char *dir, const struct plot_data *d,
                    const struct plot_chart *const *charts, size_t n,
                    const char *missing, const struct plot_html_extra *extra)
{
    char path[4096];
    FILE *out;
    const struct group *o = &d->set.overall;
    snprintf(path, sizeof(path), "%s/report.html", dir);
    if (!(out = fopen(path, "w"))) {
        out_error_log(path, errno);
        return 1;
    }
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
          "charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, "
          "initial-scale=1\">\n"
          /* self-contained: the page may load nothing from anywhere */
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
          "'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
          "img-src data:\">\n"
          "<title>tokentrace report</title>\n<style>\n"
          "body{font-family:system-ui,sans-serif;max-width:1200px;margin:1.5em "
          "auto;padding:0 1em;color:#222;line-height:1.4}\n"
          "h1{font-size:1.6em}h2{margin-top:1.6em;border-bottom:1px solid "
          "#ddd}\n"
          ".scroll{overflow-x:auto;margin:0 0 1em}\n"
          "table{border-collapse:collapse}\n"
          "table.data th,table.data td{border-bottom:1px solid #e3e3e3;"
          "padding:3px 6px;white-space:nowrap}\n"
          "table.data thead th{background:#f3f3f3;position:sticky;top:0;"
          "cursor:pointer;text-align:left}\n"
          /* headers wrap ("TTFT p50 (ms)" on two lines), so the summary
           * fits a 1,280 px window without scrolling sideways */
          "table.data thead th{white-space:normal;vertical-align:bottom;"
          "min-width:3.2em}\n"
          "table.data td:not(.n){white-space:normal;overflow-wrap:anywhere;"
          "min-width:4em}\n"
          "table.data th[aria-sort=ascending]::after{content:' \\25B2'}\n"
          "table.data th[aria-sort=descending]::after{content:' \\25BC'}\n"
          ".n{text-align:right;font-variant-numeric:tabular-nums}\n"
          "table.data th.n{text-align:right}\n"
          ".bad{color:#b00020;font-weight:600}\n"
          ".good{color:#1b7f3b;font-weight:600}\n"
          "tbody tr:nth-child(even){background:#fafafa}\n"
          "table.info{margin:0 0 1.5em}\n"
          "table.info th,table.info td{border:1px solid #ccc;padding:2px 8px;"
          "text-align:left;vertical-align:top}\n"
          "table.info th{background:#f3f3f3;font-weight:normal;width:9em}\n"
          "table.info td{word-break:break-word}\n"
          "ul.findings li{margin:.2em 0}\n"
          "figure{margin:1em 0}\nfigure svg{width:100%;height:auto}\n"
          /* one font on the page: the charts' text takes the page's (a
           * CSS rule beats the SVG's font-family attribute, a font the
           * browser may not have: it drew serif) */
          "figure svg,figure svg *{font-family:inherit}\n"
          "figcaption,.missing{color:#666;font-size:90%}\n"
          "@media (max-width:640px){body{padding:0 .5em}"
          "table.data th,table.data td{padding:2px 4px;font-size:90%}}\n"
          "@media print{body{max-width:none;margin:0}"
          "table.data thead th{position:static}.scroll{overflow:visible}"
          "section,table,figure{break-inside:avoid}a{color:inherit}}\n"
          "</style>\n</head>\n<body>\n<h1>tokentrace report</h1>\n",
          out);
    fprintf(out,
            "<p>%zu trace%s, %llu requests (%llu ok, %llu failed). Charts "
            "drawn by gnuplot from the scripts and data beside this page; "
            "click a column header to sort.</p>\n",
            d->set.n_traces, d->set.n_traces == 1 ? "" : "s",
            (unsigned long long)o->requests, (unsigned long long)o->ok,
            (unsigned long long)group_failed(o));
    /* the answer first: what changed, how it went over time */
    if (extra && extra->n_cmp) {
        fputs("<h2 id=\"comparison\">Comparison</h2>\n", out);
        plot_html_compare(out, extra->cmp, extra->n_cmp);
    }
    if (extra && extra->trend) {
        fputs("<h2 id=\"trend-table\">Trend</h2>\n", out);
        plot_html_trend(out, extra->trend);
    }
    fputs("<h2>Summary</h2>\n", out);
    plot_html_summary_table(out, &d->set);
    plot_html_findings(out, &d->set);
    plot_html_waterfall(out, &d->set);
    fputs("<h2>Failures</h2>\n", out);
    plot_html_failures(out, &d->set);
    fputs("<h2>Charts</h2>\n", out);
    for (size_t i = 0; i < n; i++)
        chart_section(out, dir, charts[i], missing);
    fputs("<h2>Run</h2>\n", out);
    for (size_t i = 0; i < d->set.n_traces; i++)
        plot_html_trace_facts(out, &d->set, d->set.traces[i]);
    fputs(plot_html_sort_script, out);
    fputs("</body>\n</html>\n", out);
    if (ferror(out) | (fclose(out) != 0)) {
        out_error_log(path, errno);
        return 1;
    }
    return 0;
}
