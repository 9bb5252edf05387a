/* trend_text: `trend`'s default table, narrow enough for a terminal: a
 * one-line verdict first, then a block per model x class with a row per
 * period, its TTFT p50/p99, TPOT p50 and latency p50, each with its change
 * from the previous period (the full table is trend --wide). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "printable.h"
#include "text_out.h"
#include "trend.h"

/* True when rows a and b are of the same model, class and API kind. */
static bool same_series(const struct trend_row *a, const struct trend_row *b)
{
    return strcmp(a->model, b->model) == 0 &&
           strcmp(a->class_name, b->class_name) == 0 &&
           strcmp(a->api ? a->api : "", b->api ? b->api : "") == 0;
}

/* The last row of row i's series (rows are sorted by period first). */
static size_t series_last(const struct trend_set *set, size_t i)
{
    size_t last = i;
    for (size_t j = i + 1; j < set->n_rows; j++)
        if (same_series(set->rows[i], set->rows[j]))
            last = j;
    return last;
}

void trend_verdict_line(struct buf *b, const struct trend_set *set, int width)
{
    size_t series = 0, up = 0, down = 0, with_prev = 0, at = 0;
    double top = NAN;
    char line[900], pct[32], model[200], cls[200];
    for (size_t i = 0; i < set->n_rows; i++) {
        size_t last;
        double c;
        if (trend_previous(set, i))
            continue; /* not the first row of its series */
        series++;
        last = series_last(set, i);
        c = trend_change_pct(set->rows[last], trend_previous(set, last),
                             TR_TTFT, 50);
        if (isnan(c))
            continue;
        with_prev++;
        up += c >= 10;
        down += c <= -10;
        if (isnan(top) || fabs(c) > fabs(top)) {
            top = c;
            at = last;
        }
    }
    if (with_prev == 0) {
        snprintf(line, sizeof(line),
                 "verdict: one period per model x class (%zu): no change to "
                 "show",
                 series);
    } else {
        const struct trend_row *r = set->rows[at];
        text_fmt_pct(pct, sizeof(pct), top);
        snprintf(line, sizeof(line),
                 "verdict: TTFT p50 vs the period before: up 10%%+ in %zu of "
                 "%zu, down 10%%+ in %zu",
                 up, with_prev, down);
        text_wrap_put(b, line, width, 2);
        snprintf(line, sizeof(line),
                 "largest TTFT p50 change: %s, %s / %s in %s", pct,
                 printable_copy(model, sizeof(model), r->model),
                 printable_copy(cls, sizeof(cls), r->class_name), r->period);
    }
    text_wrap_put(b, line, width, 2);
}

/* One row of a block: period, n, failed, and four values with their
 * changes from prev. */
static void narrow_row(struct buf *b, const struct trend_row *r,
                       const struct trend_row *prev, int pw)
{
    static const int metric[4] = {TR_TTFT, TR_TTFT, TR_TPOT, TR_LATENCY};
    static const int q[4] = {50, 99, 50, 50};
    buf_printf(b, "  %-*s %4llu %4llu", pw, r->period,
               (unsigned long long)r->ok,
               (unsigned long long)trend_row_failed(r));
    for (int k = 0; k < 4; k++) {
        const struct stats_summary *s = &r->sum[metric[k]];
        char v[24], c[32] = "";
        text_fmt_num(v, sizeof(v), s->n ? (q[k] == 99 ? s->p99 : s->p50) : NAN);
        if (prev) {
            double pct = trend_change_pct(r, prev, metric[k], q[k]);
            if (!isnan(pct) && pct != 0 && fabs(pct) < 0.05)
                snprintf(c, sizeof(c), "%c0.0%%", pct < 0 ? '-' : '+');
            else if (!isnan(pct)) /* a fall below 0.05 % keeps its sign */
                text_fmt_pct(c, sizeof(c), pct);
        }
        buf_printf(b, " %7s %5s", v, c);
    }
    while (b->len > 0 && b->data[b->len - 1] == ' ')
        b->data[--b->len] = '\0';
    buf_puts(b, "\n");
}

void trend_write_narrow(struct buf *b, const struct trend_set *set)
{
    int pw = 6; /* "period" */
    char model[200], cls[200], api[200];
    for (size_t i = 0; i < set->n_rows; i++) {
        int n = (int)strlen(set->rows[i]->period);
        pw = n > pw ? (n > 12 ? 12 : n) : pw;
    }
    for (size_t i = 0; i < set->n_rows; i++) {
        const struct trend_row *first = set->rows[i];
        if (trend_previous(set, i))
            continue; /* printed in its series' block */
        buf_printf(b, "\n%s / %s",
                   printable_copy(model, sizeof(model), first->model),
                   printable_copy(cls, sizeof(cls), first->class_name));
        if (set->mixed_api)
            buf_printf(b, " (%s)",
                       printable_copy(api, sizeof(api), first->api));
        buf_printf(b, "\n  %-*s %4s %4s %7s %5s %7s %5s %7s %5s %7s\n", pw, "",
                   "", "", "TTFT", "", "TTFT", "", "TPOT", "", "latency");
        buf_printf(b, "  %-*s %4s %4s %7s %5s %7s %5s %7s %5s %7s %5s\n", pw,
                   "period", "n", "fail", "p50", "chg", "p99", "chg", "p50",
                   "chg", "p50", "chg");
        for (size_t j = i; j < set->n_rows; j++)
            if (same_series(first, set->rows[j]))
                narrow_row(b, set->rows[j], trend_previous(set, j), pw);
    }
}
