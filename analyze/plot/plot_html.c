/* plot_html: writes report.html with inline SVG charts, offline-viewable. */
#include "plot_html.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "log.h"
#include "plot_escape.h"
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

/* One row of a trace's info table. */
static void info_row(FILE *out, const char *key, const char *value)
{
    fprintf(out, "<tr><th>%s</th><td>", key);
    esc(out, value && *value ? value : "-");
    fputs("</td></tr>\n", out);
}

/* The info block of one trace: where it came from and what it holds. */
static void trace_table(FILE *out, const struct trace_info *t)
{
    char when[64];
    fputs("<table class=\"info\">\n", out);
    info_row(out, "trace file", t->file);
    info_row(out, "trace id", t->trace_id);
    info_row(out, "api", t->api);
    info_row(out, "endpoint", t->endpoint);
    info_row(out, "host", t->host);
    info_row(out, "recorder", t->tool_version);
    info_row(out, "workload", t->workload);
    info_row(out, "started (UTC)",
             t->real_zero_ns > 0
                 ? clock_format_utc(t->real_zero_ns, when, sizeof(when))
                 : "");
    fputs("<tr><th>models</th><td>", out);
    for (size_t i = 0; i < t->n_models; i++) {
        if (i)
            fputs(", ", out);
        esc(out, t->models[i]);
    }
    fputs("</td></tr>\n<tr><th>labels</th><td>", out);
    for (size_t i = 0; i < t->n_labels; i++) {
        if (i)
            fputs(", ", out);
        esc(out, t->labels[i].key);
        fputc('=', out);
        esc(out, t->labels[i].value);
    }
    fprintf(out,
            "%s</td></tr>\n<tr><th>counts</th><td>%llu requests, %llu chunks, "
            "%llu bytes</td></tr>\n",
            t->n_labels ? "" : "-", (unsigned long long)t->requests,
            (unsigned long long)t->chunks, (unsigned long long)t->bytes);
    fputs("<tr><th>state</th><td>", out);
    if (t->damage) {
        fputs("damaged: ", out);
        esc(out, t->damage);
    } else if (t->interrupted)
        fputs("interrupted", out);
    else
        fputs(t->has_footer ? "complete"
                            : "no footer (recorder stopped early?)",
              out);
    fputs("</td></tr>\n</table>\n", out);
}

/* The summary table as text, escaped into a <pre>. */
static void summary_block(FILE *out, const struct plot_data *d)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return;
    summary_write_table(mem, &d->set);
    if (fclose(mem) == 0 && text) {
        fputs("<pre>", out);
        plot_html_escape(out, text, len);
        fputs("</pre>\n", out);
    }
    free(text);
}

/* One chart: its heading, its SVG inline (or a note), its files. */
static void chart_section(FILE *out, const char *dir,
                          const struct plot_chart *ch, const char *missing)
{
    char path[4096];
    size_t len = 0;
    char *svg;
    fputs("<section>\n<h3>", out);
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
                    const char *missing)
{
    char path[4096];
    FILE *out;
    const struct group *o = &d->set.overall;
    snprintf(path, sizeof(path), "%s/report.html", dir);
    if (!(out = fopen(path, "w"))) {
        log_error("%s: cannot write: %s", path, strerror(errno));
        return 1;
    }
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
          "charset=\"utf-8\">\n"
          "<title>tokentrace report</title>\n<style>\n"
          "body{font-family:sans-serif;max-width:1120px;margin:2em "
          "auto;padding:0 1em;color:#222}\n"
          "table.info{border-collapse:collapse;margin:0 0 1.5em}\n"
          "table.info th,table.info td{border:1px solid #ccc;padding:2px 8px;"
          "text-align:left;vertical-align:top}\n"
          "table.info th{background:#f3f3f3;font-weight:normal;width:9em}\n"
          "pre{background:#f6f6f6;padding:1em;overflow-x:auto;font-size:85%}\n"
          "figure{margin:1em 0}\nfigure svg{width:100%;height:auto}\n"
          "figcaption,.missing{color:#666;font-size:90%}\n"
          "</style>\n</head>\n<body>\n<h1>tokentrace report</h1>\n",
          out);
    fprintf(out,
            "<p>%zu trace%s, %llu requests (%llu ok). Charts drawn by gnuplot "
            "from the scripts and data beside this page.</p>\n",
            d->set.n_traces, d->set.n_traces == 1 ? "" : "s",
            (unsigned long long)o->requests, (unsigned long long)o->ok);
    fputs("<h2>Traces</h2>\n", out);
    for (size_t i = 0; i < d->set.n_traces; i++)
        trace_table(out, d->set.traces[i]);
    fputs("<h2>Summary</h2>\n", out);
    summary_block(out, d);
    fputs("<h2>Charts</h2>\n", out);
    for (size_t i = 0; i < n; i++)
        chart_section(out, dir, charts[i], missing);
    fputs("</body>\n</html>\n", out);
    if (ferror(out) | (fclose(out) != 0)) {
        log_error("%s: cannot write: %s", path, strerror(errno));
        return 1;
    }
    return 0;
}
