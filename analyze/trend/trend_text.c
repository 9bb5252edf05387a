/* trend_text: `trend`'s default table, narrow enough for a terminal: a
 * one-line verdict first, then a block per model x class with a row per
 * period, its TTFT p50/p99, TPOT p50 and latency p50, each with its change
 * from the previous period (the full table is trend --wide). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "printable.h"
#include "text_out.h"
#include "trend.h"

/* A row, its place in the set (rows are sorted by period, then model
 * and class in the canonical order) and the place of its series' first
 * row. */
struct placed {
    const struct trend_row *r;
    size_t at, first;
};

/* qsort order: series by their first row, then each series' rows. */
static int by_first(const void *pa, const void *pb)
{
    const struct placed *a = pa, *b = pb;
    if (a->first != b->first)
        return a->first < b->first ? -1 : 1;
    return a->at < b->at ? -1 : a->at > b->at;
}

/* qsort order: by series (model, class, API kind), then by place. */
static int by_series(const void *pa, const void *pb)
{
    const struct placed *a = pa, *b = pb;
    int c = trend_series_cmp(a->r, b->r);
    return c ? c : (a->at < b->at ? -1 : a->at > b->at);
}

/* The set's rows series by series (in the order their first rows come),
 * each series in period order (a row's previous period is the row before
 * it when of the same series), in O(n log n); NULL out of memory. */
static struct placed *series_order(const struct trend_set *set)
{
    struct placed *v = malloc((set->n_rows + 1) * sizeof(*v));
    if (!v)
        return NULL;
    for (size_t i = 0; i < set->n_rows; i++)
        v[i] = (struct placed){set->rows[i], i, i};
    qsort(v, set->n_rows, sizeof(*v), by_series);
    for (size_t i = 0; i < set->n_rows; i++)
        v[i].first = i && trend_series_cmp(v[i - 1].r, v[i].r) == 0
                         ? v[i - 1].first
                         : v[i].at;
    qsort(v, set->n_rows, sizeof(*v), by_first);
    return v;
}

/* The row before v[i] in its series, or NULL. */
static const struct trend_row *prev_of(const struct placed *v, size_t i)
{
    return i > 0 && trend_series_cmp(v[i - 1].r, v[i].r) == 0 ? v[i - 1].r
                                                              : NULL;
}

void trend_verdict_line(struct buf *b, const struct trend_set *set, int width)
{
    size_t series = 0, up = 0, down = 0, with_prev = 0;
    const struct trend_row *at = NULL;
    double top = NAN;
    char line[900], pct[32], model[200], cls[200];
    struct placed *v = series_order(set);
    if (!v) {
        buf_set_error(b, -1);
        return;
    }
    for (size_t i = 0; i < set->n_rows; i++) {
        double c;
        if (i + 1 < set->n_rows && trend_series_cmp(v[i].r, v[i + 1].r) == 0)
            continue; /* not its series' latest period */
        series++;
        c = trend_change_pct(v[i].r, prev_of(v, i), TR_TTFT, 50);
        if (isnan(c))
            continue;
        with_prev++;
        up += c >= 10;
        down += c <= -10;
        if (isnan(top) || fabs(c) > fabs(top)) {
            top = c;
            at = v[i].r;
        }
    }
    free(v);
    if (with_prev == 0 || !at) {
        snprintf(line, sizeof(line),
                 "verdict: one period per model x class (%zu): no change to "
                 "show",
                 series);
    } else {
        text_fmt_pct(pct, sizeof(pct), top);
        snprintf(line, sizeof(line),
                 "verdict: TTFT p50 vs the period before: up 10%%+ in %zu of "
                 "%zu, down 10%%+ in %zu",
                 up, with_prev, down);
        text_wrap_put(b, line, width, 2);
        snprintf(line, sizeof(line),
                 "largest TTFT p50 change: %s, %s / %s in %s", pct,
                 printable_copy(model, sizeof(model), at->model),
                 printable_copy(cls, sizeof(cls), at->class_name), at->period);
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
            if (!isnan(pct) && fabs(pct) < 0.1) /* a fall keeps its sign */
                snprintf(c, sizeof(c), "%c%.1f%%", pct < 0 ? '-' : '+',
                         fabs(pct));
            else if (!isnan(pct))
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
    struct placed *v = series_order(set);
    if (!v) {
        buf_set_error(b, -1);
        return;
    }
    for (size_t i = 0; i < set->n_rows; i++) {
        int n = (int)strlen(set->rows[i]->period);
        pw = n > pw ? (n > 12 ? 12 : n) : pw;
    }
    for (size_t i = 0; i < set->n_rows; i++) {
        const struct trend_row *r = v[i].r, *prev = prev_of(v, i);
        if (!prev) { /* a series starts: its block's header */
            buf_printf(b, "\n%s / %s",
                       printable_copy(model, sizeof(model), r->model),
                       printable_copy(cls, sizeof(cls), r->class_name));
            if (set->mixed_api)
                buf_printf(b, " (%s)",
                           printable_copy(api, sizeof(api), r->api));
            buf_printf(b, "\n  %-*s %4s %4s %7s %5s %7s %5s %7s %5s %7s\n", pw,
                       "", "", "", "TTFT", "", "TTFT", "", "TPOT", "",
                       "latency");
            buf_printf(b, "  %-*s %4s %4s %7s %5s %7s %5s %7s %5s %7s %5s\n",
                       pw, "period", "n", "fail", "p50", "chg", "p99", "chg",
                       "p50", "chg", "p50", "chg");
        }
        narrow_row(b, r, prev, pw);
    }
    free(v);
}
