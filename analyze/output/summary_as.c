/* summary_as: peers' numbers beside tokentrace's, one tool or all. */
#include "summary_as.h"

#include <math.h>
#include <string.h>

#include "buf.h"
#include "doc_out.h"
#include "json_writer.h"
#include "text_out.h"

static const char *const family[DEFS_N_METRICS] = {"ttft", "tpot", "itl",
                                                   "e2e"};

/* Every tool's summaries, computed once (summarizing sorts the values). */
struct all_sums {
    struct defs_summary s[DEFS_N_TOOLS][DEFS_N_METRICS];
};

static void summarize_all(struct defs_collect *c, struct all_sums *a)
{
    for (int t = 0; t < DEFS_N_TOOLS; t++)
        for (int m = 0; m < DEFS_N_METRICS; m++)
            defs_collect_summary(c, (enum defs_tool)t, (enum defs_metric)m,
                                 &a->s[t][m]);
}

/* A number of the table, 9 characters at most, "-" for none; signed when
 * diff. */
static void cell(char *out, size_t size, double x, bool diff)
{
    char num[16];
    text_fmt_num(num, sizeof(num), fabs(x));
    if (!diff || isnan(x) || size < sizeof(num) + 1)
        text_fmt_num(out, size, x);
    else
        snprintf(out, size, "%c%.15s", x < 0 ? '-' : '+', num);
}

/* What the requests looked like: the shapes that explain differences. */
static void shape_line(struct buf *b, const struct defs_collect *c)
{
    buf_printf(b,
               "%llu requests: %llu began with a chunk without text (role "
               "only), %llu with reasoning, %llu without usage, %llu with "
               "more usage tokens than chunks",
               (unsigned long long)c->requests,
               (unsigned long long)c->role_first,
               (unsigned long long)c->reasoning_first,
               (unsigned long long)c->no_usage, (unsigned long long)c->packed);
}

/* Lines on the requests a tool would itself have failed, or could not
 * read at all (left out of its numbers); nothing when there are none. */
static void tool_notes(struct buf *b, const struct defs_collect *c,
                       enum defs_tool t)
{
    const struct defs_tool_info *d = defs_tool(t);
    if (c->would_fail[t])
        buf_printf(b,
                   "%s itself would fail %llu of these requests: %s; its "
                   "numbers here are what they would have had\n",
                   d->label, (unsigned long long)c->would_fail[t],
                   d->fails_when ? d->fails_when : "?");
    if (c->cannot_parse[t])
        buf_printf(b,
                   "%s's client cannot read %llu of these requests (their "
                   "API kind): left out of its numbers\n",
                   d->label, (unsigned long long)c->cannot_parse[t]);
}

static void one_tool_table(struct buf *b, const struct defs_collect *c,
                           const struct all_sums *a, enum defs_tool t)
{
    const struct defs_tool_info *d = defs_tool(t);
    buf_printf(b, "%s definitions (%s; docs/definitions.md)\n", d->label,
               d->source);
    shape_line(b, c);
    buf_printf(b, "\npercentiles: %s; token count not from usage in %llu\n",
               d->percentile == DEFS_PCT_LINEAR ? "linear (numpy default)"
                                                : "inverted CDF",
               (unsigned long long)c->tokens_not_usage[t]);
    tool_notes(b, c, t);
    buf_printf(b, "%-24s %7s %9s %9s %9s %9s %11s\n", "metric (ms)", "n",
               "mean", "p50", "p90", "p99", "tokentrace");
    for (int m = 0; m < DEFS_N_METRICS; m++) {
        const struct defs_summary *s = &a->s[t][m];
        char v[5][20];
        if (!d->metric_name[m])
            continue;
        cell(v[0], sizeof(v[0]), s->mean, false);
        cell(v[1], sizeof(v[1]), s->p50, false);
        cell(v[2], sizeof(v[2]), s->p90, false);
        cell(v[3], sizeof(v[3]), s->p99, false);
        cell(v[4], sizeof(v[4]), a->s[DEFS_TOKENTRACE][m].p50, false);
        buf_printf(b, "%-24s %7zu %9s %9s %9s %9s %11s\n", d->metric_name[m],
                   s->n, v[0], v[1], v[2], v[3], v[4]);
    }
    buf_puts(b, "tokentrace: its p50 of the same metric (TTFT, TPOT, ITL, "
                "latency)\n");
}

/* The reconciliation table: a row per tool and metric. md: markdown. */
static void reconcile(struct buf *b, const struct defs_collect *c,
                      const struct all_sums *a, const enum defs_tool *tools,
                      size_t n, bool md)
{
    if (md)
        buf_puts(b, "| tool | metric | p50 | tokentrace p50 | diff | p99 | "
                    "tokentrace p99 | diff | why |\n"
                    "|---|---|--:|--:|--:|--:|--:|--:|---|\n");
    else {
        buf_puts(b, "reconciliation (ms; diff = tool - tokentrace): ");
        shape_line(b, c);
        buf_printf(b, "\n%-12s %-22s %9s %9s %9s %9s %9s %9s  %s\n", "tool",
                   "metric", "p50", "tt p50", "diff", "p99", "tt p99", "diff",
                   "why");
    }
    for (size_t i = 0; i < n; i++) {
        const struct defs_tool_info *d = defs_tool(tools[i]);
        if (tools[i] == DEFS_TOKENTRACE)
            continue;
        for (int m = 0; m < DEFS_N_METRICS; m++) {
            const struct defs_summary *s = &a->s[tools[i]][m];
            const struct defs_summary *tt = &a->s[DEFS_TOKENTRACE][m];
            char v[6][20];
            bool same = s->n > 0 && s->p50 == tt->p50 && s->p99 == tt->p99;
            if (!d->metric_name[m])
                continue;
            cell(v[0], sizeof(v[0]), s->p50, false);
            cell(v[1], sizeof(v[1]), tt->p50, false);
            cell(v[2], sizeof(v[2]), s->p50 - tt->p50, true);
            cell(v[3], sizeof(v[3]), s->p99, false);
            cell(v[4], sizeof(v[4]), tt->p99, false);
            cell(v[5], sizeof(v[5]), s->p99 - tt->p99, true);
            if (md) {
                buf_puts(b, "| ");
                md_put(b, d->label, 0);
                buf_puts(b, " | ");
                md_put(b, d->metric_name[m], 0);
                buf_printf(b, " | %s | %s | %s | %s | %s | %s | ", v[0], v[1],
                           v[2], v[3], v[4], v[5]);
                md_put(b, same ? "same on this trace" : d->why[m], 0);
                buf_puts(b, " |\n");
            } else {
                buf_printf(b, "%-12s %-22s %9s %9s %9s %9s %9s %9s  %s\n",
                           d->label, d->metric_name[m], v[0], v[1], v[2], v[3],
                           v[4], v[5], same ? "same on this trace" : d->why[m]);
            }
        }
    }
    if (md) {
        buf_puts(b, "\n");
        shape_line(b, c);
        buf_puts(b, "\n");
    }
    for (size_t i = 0; i < n; i++)
        if (tools[i] != DEFS_TOKENTRACE) {
            if (md && (c->would_fail[tools[i]] || c->cannot_parse[tools[i]]))
                buf_puts(b, "\n");
            tool_notes(b, c, tools[i]);
        }
}

static void json_summary(struct buf *b, const struct defs_summary *s)
{
    buf_printf(b, "{\"n\":%zu,\"mean\":", s->n);
    json_put_double(b, s->mean);
    buf_puts(b, ",\"p50\":");
    json_put_double(b, s->p50);
    buf_puts(b, ",\"p90\":");
    json_put_double(b, s->p90);
    buf_puts(b, ",\"p99\":");
    json_put_double(b, s->p99);
    buf_puts(b, "}");
}

static void json_all(struct buf *b, const struct defs_collect *c,
                     const struct all_sums *a, const enum defs_tool *tools,
                     size_t n)
{
    buf_printf(b,
               "{\"schema\":1,\"requests\":%llu,\"shape\":{\"role_first\":"
               "%llu,\"reasoning_first\":%llu,\"no_usage\":%llu,\"packed\":"
               "%llu},\"tools\":[",
               (unsigned long long)c->requests,
               (unsigned long long)c->role_first,
               (unsigned long long)c->reasoning_first,
               (unsigned long long)c->no_usage, (unsigned long long)c->packed);
    for (size_t i = 0; i < n; i++) {
        const struct defs_tool_info *d = defs_tool(tools[i]);
        bool first = true;
        buf_printf(b, "%s{\"name\":", i ? "," : "");
        json_put_cstr(b, d->name);
        buf_puts(b, ",\"source\":");
        json_put_cstr(b, d->source);
        buf_printf(b,
                   ",\"percentile\":\"%s\",\"tokens_not_usage\":%llu,"
                   "\"would_fail\":%llu,\"cannot_parse\":%llu,",
                   d->percentile == DEFS_PCT_LINEAR ? "linear" : "inverted_cdf",
                   (unsigned long long)c->tokens_not_usage[tools[i]],
                   (unsigned long long)c->would_fail[tools[i]],
                   (unsigned long long)c->cannot_parse[tools[i]]);
        buf_puts(b, "\"fails_when\":");
        if (d->fails_when)
            json_put_cstr(b, d->fails_when);
        else
            buf_puts(b, "null");
        buf_puts(b, ",\"metrics\":{");
        for (int m = 0; m < DEFS_N_METRICS; m++) {
            const struct defs_summary *s = &a->s[tools[i]][m];
            const struct defs_summary *tt = &a->s[DEFS_TOKENTRACE][m];
            if (!d->metric_name[m])
                continue;
            buf_printf(b, "%s\"%s\":{\"name\":", first ? "" : ",", family[m]);
            first = false;
            json_put_cstr(b, d->metric_name[m]);
            buf_puts(b, ",\"ms\":");
            json_summary(b, s);
            buf_puts(b, ",\"tokentrace_ms\":");
            json_summary(b, tt);
            buf_puts(b, ",\"diff_p50_ms\":");
            json_put_double(b, s->p50 - tt->p50);
            buf_puts(b, ",\"why\":");
            json_put_cstr(b, d->why[m]);
            buf_puts(b, "}");
        }
        buf_puts(b, "}}");
    }
    buf_puts(b, "]}\n");
}

int summary_as_write(FILE *out, struct defs_collect *c,
                     const enum defs_tool *tools, size_t n, enum as_format fmt)
{
    struct all_sums a;
    struct buf b;
    int rc;
    summarize_all(c, &a);
    doc_out_init(&b);
    if (fmt == AS_JSON)
        json_all(&b, c, &a, tools, n);
    else if (n == 1 && fmt == AS_TABLE)
        one_tool_table(&b, c, &a, tools[0]);
    else
        reconcile(&b, c, &a, tools, n, fmt == AS_MARKDOWN);
    rc = doc_out_write(out, &b, "summary --as");
    buf_free(&b);
    return rc;
}
