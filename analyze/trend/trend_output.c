/* trend_output: the formats of `tokentrace-analyze trend`: an aligned table,
 * markdown, CSV (one row per period x model x class, for charts) and JSON. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "clock.h"
#include "doc_out.h"
#include "json_writer.h"
#include "printable.h"
#include "text_out.h"
#include "trend.h"

/* Widest model / class cell of the table. */
#define TREND_MAX_WIDTH 40

/* Writes b whole, or nothing and says why (doc_out); frees b. */
static int write_buf(FILE *out, struct buf *b, const char *what)
{
    int rc = doc_out_write(out, b, what);
    buf_free(b);
    return rc;
}

/* "N interrupted ..." when the runs were stopped while requests streamed:
 * those are neither n nor failed, as in summary. */
static void interrupted_line(struct buf *b, const struct trend_set *set,
                             const char *lead)
{
    uint64_t n = 0;
    for (size_t i = 0; i < set->n_rows; i++)
        n += set->rows[i]->interrupted;
    if (n)
        buf_printf(b,
                   "%s%llu request%s interrupted (the run was stopped while "
                   "%s streamed): not counted as failed\n",
                   lead, (unsigned long long)n, n == 1 ? "" : "s",
                   n == 1 ? "it" : "they");
}

static const char *period_name(const struct trend_set *set)
{
    return set->by_week ? "ISO week (UTC)" : "day (UTC)";
}

/* "2026-11-23T00:00:00Z" or "unknown". */
static const char *started(const struct trace_info *t, char *out, size_t size)
{
    if (t->real_zero_ns <= 0)
        return "unknown";
    return clock_format_utc(t->real_zero_ns, out, size);
}

/* The traces by recording time, one per line, for the human formats. */
static void trace_lines(struct buf *b, const struct trend_set *set, bool md)
{
    char when[40];
    for (size_t i = 0; i < set->n_traces; i++) {
        const struct trace_info *t = set->by_time[i];
        buf_printf(b, "%s%s  ", md ? "- " : "  ",
                   started(t, when, sizeof(when)));
        if (md)
            md_put(b, t->file, 0);
        else
            printable_put(b, t->file);
        buf_printf(b, " (trace %u, %llu requests)%s\n", t->index,
                   (unsigned long long)t->requests,
                   t->damage        ? ", damaged"
                   : !t->has_footer ? ", no footer"
                                    : "");
    }
}

int trend_write_table(FILE *out, const struct trend_set *set, int width)
{
    struct buf b;
    int wm = 5, wc = 5;
    char c[6][24];
    bool narrow = width > 0 && width < 120;
    doc_out_init(&b);
    trend_verdict_line(&b, set, width);
    buf_printf(
        &b,
        "trend by %s of each request's start; %zu trace%s by recording time:\n",
        period_name(set), set->n_traces, set->n_traces == 1 ? "" : "s");
    trace_lines(&b, set, false);
    if (narrow) {
        trend_write_narrow(&b, set);
        goto tail;
    }
    for (size_t i = 0; i < set->n_rows; i++) {
        char m[TREND_MAX_WIDTH * 2 + 8], k[TREND_MAX_WIDTH * 2 + 8];
        int lm = (int)strlen(printable_copy(m, sizeof(m), set->rows[i]->model)),
            lc = (int)strlen(
                printable_copy(k, sizeof(k), set->rows[i]->class_name));
        wm = lm > wm ? (lm > TREND_MAX_WIDTH ? TREND_MAX_WIDTH : lm) : wm;
        wc = lc > wc ? (lc > TREND_MAX_WIDTH ? TREND_MAX_WIDTH : lc) : wc;
    }
    buf_printf(&b, "\n%-10s  %-*s  %-*s", "period", wm, "model", wc, "class");
    if (set->mixed_api) /* chat and completions rows apart, and labelled */
        buf_printf(&b, "  %-18s", "api");
    buf_printf(&b, " %6s %6s %6s %9s %9s %9s %9s %9s %9s\n", "traces", "n",
               "failed", "TTFT p50", "TTFT p99", "TPOT p50", "TPOT p99",
               "lat p50", "lat p99");
    for (size_t i = 0; i < set->n_rows; i++) {
        const struct trend_row *r = set->rows[i];
        char model[TREND_MAX_WIDTH * 2 + 8],
            class_name[TREND_MAX_WIDTH * 2 + 8];
        printable_copy(model, sizeof(model), r->model);
        printable_copy(class_name, sizeof(class_name), r->class_name);
        for (int k = 0; k < TR_COUNT; k++) {
            text_fmt_num(c[2 * k], sizeof(c[0]),
                         r->sum[k].n ? r->sum[k].p50 : NAN);
            text_fmt_num(c[2 * k + 1], sizeof(c[0]),
                         r->sum[k].n ? r->sum[k].p99 : NAN);
        }
        buf_printf(&b, "%-10s  %-*.*s  %-*.*s", r->period, wm, TREND_MAX_WIDTH,
                   model, wc, TREND_MAX_WIDTH, class_name);
        if (set->mixed_api) {
            char api[TREND_MAX_WIDTH * 2 + 8];
            buf_printf(&b, "  %-18.*s", TREND_MAX_WIDTH,
                       printable_copy(api, sizeof(api), r->api));
        }
        buf_printf(&b, " %6zu %6llu %6llu %9s %9s %9s %9s %9s %9s\n",
                   r->n_traces, (unsigned long long)r->ok,
                   (unsigned long long)trend_row_failed(r), c[0], c[1], c[2],
                   c[3], c[4], c[5]);
    }
tail:
    if (set->mixed_api)
        buf_puts(&b, "\nrows of different API kinds are kept apart (a chat "
                     "and a completions run of one model are two rows)\n");
    buf_puts(&b, narrow ? "\ntimes in ms; n = requests that succeeded (warmup "
                          "excluded); chg = change from\nthe previous period; "
                          "TPOT and latency p99, traces: --wide\n"
                        : "\ntimes in ms; n = requests that succeeded (warmup "
                          "excluded)\n");
    interrupted_line(&b, set, "");
    return write_buf(out, &b, "trend");
}

int trend_write_markdown(FILE *out, const struct trend_set *set)
{
    struct buf b;
    char c[6][24];
    doc_out_init(&b);
    buf_printf(
        &b, "## tokentrace trend by %s\n\n%zu trace%s by recording time:\n\n",
        period_name(set), set->n_traces, set->n_traces == 1 ? "" : "s");
    trace_lines(&b, set, true);
    buf_printf(
        &b,
        "\n| period | model | class |%s traces | n | failed | TTFT p50 (ms) | "
        "TTFT p99 (ms) | TPOT p50 (ms) | TPOT p99 (ms) | latency p50 (ms) | "
        "latency p99 (ms) "
        "|\n|---|---|---|%s--:|--:|--:|--:|--:|--:|--:|--:|--:|\n",
        set->mixed_api ? " api |" : "", set->mixed_api ? "---|" : "");
    for (size_t i = 0; i < set->n_rows; i++) {
        const struct trend_row *r = set->rows[i];
        for (int k = 0; k < TR_COUNT; k++) {
            text_fmt_num(c[2 * k], sizeof(c[0]),
                         r->sum[k].n ? r->sum[k].p50 : NAN);
            text_fmt_num(c[2 * k + 1], sizeof(c[0]),
                         r->sum[k].n ? r->sum[k].p99 : NAN);
        }
        buf_printf(&b, "| %s | ", r->period);
        md_put(&b, r->model, 0);
        buf_puts(&b, " | ");
        md_put(&b, r->class_name, 0);
        if (set->mixed_api) {
            buf_puts(&b, " | ");
            md_put(&b, r->api, 0);
        }
        buf_printf(&b, " | %zu | %llu | %llu | %s | %s | %s | %s | %s | %s |\n",
                   r->n_traces, (unsigned long long)r->ok,
                   (unsigned long long)trend_row_failed(r), c[0], c[1], c[2],
                   c[3], c[4], c[5]);
    }
    interrupted_line(&b, set, "\n");
    return write_buf(out, &b, "trend --format markdown");
}

int trend_write_csv(FILE *out, const struct trend_set *set)
{
    struct buf b;
    doc_out_init(&b);
    buf_puts(&b, "period,model,class,traces,requests,ok,failed");
    for (int k = 0; k < TR_COUNT; k++) {
        const char *key = trend_metrics[k].key;
        size_t n = strlen(key) - 3; /* without "_ms" */
        buf_printf(&b, ",%.*s_n,%.*s_p50_ms,%.*s_p99_ms", (int)n, key, (int)n,
                   key, (int)n, key);
    }
    /* appended: older columns keep their place */
    buf_puts(&b, ",api,interrupted\n");
    for (size_t i = 0; i < set->n_rows; i++) {
        const struct trend_row *r = set->rows[i];
        csv_put_field(&b, r->period);
        buf_puts(&b, ",");
        csv_put_field(&b, r->model);
        buf_puts(&b, ",");
        csv_put_field(&b, r->class_name);
        buf_printf(&b, ",%zu,%llu,%llu,%llu", r->n_traces,
                   (unsigned long long)r->requests, (unsigned long long)r->ok,
                   (unsigned long long)trend_row_failed(r));
        for (int k = 0; k < TR_COUNT; k++) {
            buf_printf(&b, ",%zu,", r->sum[k].n);
            num_put(&b, r->sum[k].n ? r->sum[k].p50 : NAN, 6);
            buf_puts(&b, ",");
            num_put(&b, r->sum[k].n ? r->sum[k].p99 : NAN, 6);
        }
        buf_puts(&b, ",");
        csv_put_field(&b, r->api);
        buf_printf(&b, ",%llu\n", (unsigned long long)r->interrupted);
    }
    return write_buf(out, &b, "trend --format csv");
}

int trend_write_json(FILE *out, const struct trend_set *set,
                     const char *shard_check)
{
    struct buf b;
    char when[40];
    doc_out_init(&b);
    buf_printf(&b,
               "{\"tool\":\"tokentrace\",\"schema\":1,\"command\":\"trend\","
               "\"by\":\"%s\",\"traces\":[",
               set->by_week ? "week" : "day");
    for (size_t i = 0; i < set->n_traces; i++) {
        const struct trace_info *t = set->by_time[i];
        buf_printf(&b, "%s{\"index\":%u,\"file\":", i ? "," : "", t->index);
        json_put_cstr(&b, t->file);
        buf_puts(&b, ",\"trace_id\":");
        json_put_cstr(&b, t->trace_id);
        buf_puts(&b, ",\"started\":");
        json_put_cstr(&b, t->real_zero_ns > 0 ? started(t, when, sizeof(when))
                                              : NULL);
        buf_printf(&b, ",\"requests\":%llu,\"complete\":%s,\"damage\":",
                   (unsigned long long)t->requests,
                   t->has_footer && !t->damage ? "true" : "false");
        json_put_cstr(&b, t->damage);
        buf_puts(&b, "}");
    }
    buf_puts(&b, "],\"rows\":[");
    for (size_t i = 0; i < set->n_rows; i++) {
        const struct trend_row *r = set->rows[i];
        buf_puts(&b, i ? ",{\"period\":" : "{\"period\":");
        json_put_cstr(&b, r->period);
        buf_puts(&b, ",\"model\":");
        json_put_cstr(&b, r->model);
        buf_puts(&b, ",\"class\":");
        json_put_cstr(&b, r->class_name);
        buf_puts(&b, ",\"api\":");
        json_put_cstr(&b, r->api);
        buf_puts(&b, ",\"traces\":[");
        for (size_t k = 0; k < r->n_traces; k++)
            buf_printf(&b, "%s%u", k ? "," : "", r->traces[k]);
        buf_printf(&b, "],\"requests\":%llu,\"ok\":%llu,\"interrupted\":%llu",
                   (unsigned long long)r->requests, (unsigned long long)r->ok,
                   (unsigned long long)r->interrupted);
        for (int k = 0; k < TR_COUNT; k++) {
            buf_printf(&b, ",\"%s\":{\"n\":%zu,\"p50\":", trend_metrics[k].key,
                       r->sum[k].n);
            json_put_double(&b, r->sum[k].n ? r->sum[k].p50 : NAN);
            buf_puts(&b, ",\"p99\":");
            json_put_double(&b, r->sum[k].n ? r->sum[k].p99 : NAN);
            buf_puts(&b, "}");
        }
        buf_puts(&b, "}");
    }
    buf_puts(&b, "]");
    if (shard_check)
        buf_printf(&b, ",\"shard_check\":%s", shard_check);
    buf_puts(&b, "}\n");
    return write_buf(out, &b, "trend --format json");
}
