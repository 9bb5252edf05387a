/* summary_openmetrics: summary --format openmetrics, the OpenMetrics text
 * exposition (a Prometheus Pushgateway or node_exporter's textfile
 * collector takes it): each timing distribution as a summary family in
 * seconds with quantiles 0.5, 0.9, 0.99; token distributions in tokens;
 * request and error counters; run-level gauges. Groups are labelled by
 * their --by keys; the overall series carries no group label. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "doc_out.h"
#include "summary_output.h"
#include "utf8.h"

/* Appends s as an OpenMetrics label value: backslash, quote and newline
 * escaped; other control characters as spaces and invalid UTF-8 as
 * U+FFFD, so the exposition stays valid UTF-8 on one line. */
static void om_value(struct buf *b, const char *s)
{
    size_t len = s ? strlen(s) : 0;
    for (size_t i = 0; i < len;) {
        const unsigned char *u = (const unsigned char *)s + i;
        size_t n = utf8_seq_len(u, len - i);
        if (n == 0) {
            buf_puts(b, "\xef\xbf\xbd");
            i++;
        } else if (*u == '\\' || *u == '"') {
            buf_printf(b, "\\%c", *u);
            i++;
        } else if (*u == '\n') {
            buf_puts(b, "\\n");
            i++;
        } else if (utf8_is_control(u, n)) {
            buf_puts(b, " ");
            i += n;
        } else {
            buf_append(b, s + i, n);
            i += n;
        }
    }
}

/* Appends a label name made of the dimension's name: [a-zA-Z0-9_] kept,
 * anything else "_" ("label:week" -> "label_week"). */
static void om_label_name(struct buf *b, const char *name)
{
    for (const char *p = name; *p; p++) {
        char c = *p;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                  (c >= '0' && c <= '9' && p != name) || c == '_';
        buf_append(b, ok ? &c : "_", 1);
    }
}

/* The label set of g ("" for the overall group), extra (one more label,
 * already formatted, or NULL) at the end, with braces when not empty. */
static void om_labels(struct buf *b, const struct group_set *set,
                      const struct group *g, const char *extra)
{
    char tmp[128];
    bool any = false;
    if (g != &set->overall)
        for (size_t i = 0; i < g->n_keys && i < set->by.n; i++) {
            buf_puts(b, any ? "," : "{");
            om_label_name(b, group_dim_name(set, i, tmp, sizeof tmp));
            buf_puts(b, "=\"");
            om_value(b, g->keys[i]);
            buf_puts(b, "\"");
            any = true;
        }
    if (extra) {
        buf_puts(b, any ? "," : "{");
        buf_puts(b, extra);
        any = true;
    }
    if (any)
        buf_puts(b, "}");
}

/* A number as OpenMetrics writes it: shortest round-trip text, NaN as
 * "NaN". */
static void om_num(struct buf *b, double x)
{
    if (isnan(x))
        buf_puts(b, "NaN");
    else
        buf_printf(b, "%.17g", x);
}

/* The family name of metric m: the JSON key with "_ms" made "_seconds". */
static void om_family(char *out, size_t size, int m)
{
    const char *key = metric_defs[m].json_key;
    size_t n = strlen(key);
    if (n > 3 && strcmp(key + n - 3, "_ms") == 0)
        snprintf(out, size, "tokentrace_%.*s_seconds", (int)(n - 3), key);
    else
        snprintf(out, size, "tokentrace_%s", key);
}

static bool is_ms(int m)
{
    return strcmp(metric_defs[m].unit, "ms") == 0;
}

static void om_summary_sample(struct buf *b, const struct group_set *set,
                              const struct group *g, int m)
{
    static const struct {
        const char *q;
        size_t off;
    } qs[] = {
        {"quantile=\"0.5\"", offsetof(struct stats_summary, p50)},
        {"quantile=\"0.9\"", offsetof(struct stats_summary, p90)},
        {"quantile=\"0.99\"", offsetof(struct stats_summary, p99)},
    };
    const struct stats_summary *s = &g->sum[m];
    double scale = is_ms(m) ? 1e-3 : 1;
    char fam[96];
    if (s->n == 0)
        return;
    om_family(fam, sizeof fam, m);
    for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) {
        double v;
        memcpy(&v, (const char *)s + qs[i].off, sizeof v);
        buf_puts(b, fam);
        om_labels(b, set, g, qs[i].q);
        buf_puts(b, " ");
        om_num(b, v * scale);
        buf_puts(b, "\n");
    }
    buf_printf(b, "%s_count", fam);
    om_labels(b, set, g, NULL);
    buf_printf(b, " %zu\n%s_sum", s->n, fam);
    om_labels(b, set, g, NULL);
    buf_puts(b, " ");
    om_num(b, s->mean * (double)s->n * scale);
    buf_puts(b, "\n");
}

static void om_requests(struct buf *b, const struct group_set *set,
                        const struct group *g)
{
    const struct {
        const char *outcome;
        uint64_t n;
    } rows[] = {{"outcome=\"ok\"", g->ok},
                {"outcome=\"failed\"", group_failed(g)},
                {"outcome=\"interrupted\"", g->interrupted}};
    for (size_t i = 0; i < 3; i++) {
        buf_puts(b, "tokentrace_requests_total");
        om_labels(b, set, g, rows[i].outcome);
        buf_printf(b, " %llu\n", (unsigned long long)rows[i].n);
    }
}

static void om_errors(struct buf *b, const struct group_set *set,
                      const struct group *g)
{
    struct buf kind;
    buf_init(&kind, 0);
    for (size_t i = 0; i < g->n_errors; i++) {
        kind.len = 0;
        buf_puts(&kind, "kind=\"");
        om_value(&kind, g->errors[i].kind);
        buf_puts(&kind, "\"");
        if (buf_error(&kind) != BUF_OK) {
            buf_set_error(b, buf_error(&kind)); /* b lacks this row */
            break;
        }
        buf_puts(b, "tokentrace_errors_total");
        om_labels(b, set, g, kind.data);
        buf_printf(b, " %llu\n", (unsigned long long)g->errors[i].n);
    }
    buf_free(&kind);
}

/* Calls write for the overall group, then every group. */
static void each_group(struct buf *b, const struct group_set *set, int m,
                       void (*write)(struct buf *, const struct group_set *,
                                     const struct group *, int))
{
    write(b, set, &set->overall, m);
    for (size_t i = 0; i < set->n_groups; i++)
        write(b, set, set->groups[i], m);
}

static void requests_cb(struct buf *b, const struct group_set *set,
                        const struct group *g, int m)
{
    (void)m;
    om_requests(b, set, g);
}

static void errors_cb(struct buf *b, const struct group_set *set,
                      const struct group *g, int m)
{
    (void)m;
    om_errors(b, set, g);
}

static void gauge(struct buf *b, const char *name, const char *unit,
                  const char *help, double v)
{
    if (isnan(v))
        return;
    buf_printf(b, "# TYPE %s gauge\n", name);
    if (unit)
        buf_printf(b, "# UNIT %s %s\n", name, unit);
    buf_printf(b, "# HELP %s %s\n%s ", name, help, name);
    om_num(b, v);
    buf_puts(b, "\n");
}

int summary_write_openmetrics(FILE *out, const struct group_set *set)
{
    struct run_totals t;
    struct buf b;
    char fam[96];
    int rc;
    summary_totals(set, &t);
    doc_out_init(&b);
    for (int m = 0; m < M_COUNT; m++) {
        if (set->overall.sum[m].n == 0)
            continue;
        om_family(fam, sizeof fam, m);
        buf_printf(&b, "# TYPE %s summary\n", fam);
        if (is_ms(m))
            buf_printf(&b, "# UNIT %s seconds\n", fam);
        buf_printf(&b, "# HELP %s %s per request (tokentrace %s%s%s)\n", fam,
                   metric_defs[m].title, metric_defs[m].json_key,
                   metric_defs[m].unit[0] ? ", " : "",
                   is_ms(m) ? "in seconds" : metric_defs[m].unit);
        each_group(&b, set, m, om_summary_sample);
    }
    buf_puts(&b, "# TYPE tokentrace_requests counter\n"
                 "# HELP tokentrace_requests Requests by outcome (warmup and "
                 "superseded retries left out).\n");
    each_group(&b, set, 0, requests_cb);
    buf_puts(&b, "# TYPE tokentrace_errors counter\n"
                 "# HELP tokentrace_errors Failed requests by error kind.\n");
    each_group(&b, set, 0, errors_cb);
    gauge(&b, "tokentrace_run_wall_seconds", "seconds",
          "Wall span of the measured requests.", t.wall_s);
    gauge(&b, "tokentrace_run_requests_per_second", NULL,
          "Successful requests per second of wall span.", t.req_per_s);
    gauge(&b, "tokentrace_run_output_tokens_per_second", NULL,
          "Output tokens of successful requests per second of wall span.",
          t.output_tok_per_s);
    if (set->slo.any)
        gauge(&b, "tokentrace_run_goodput_requests_per_second", NULL,
              "Requests meeting every --slo threshold per second.",
              t.goodput_per_s);
    buf_puts(&b, "# EOF\n");
    rc = doc_out_write(out, &b, "summary --format openmetrics");
    buf_free(&b);
    return rc;
}
