/* compare_pctl: compare --metric ttft_p95,itl_p99.9: a verdict per group at
 * any percentile (difference, bootstrap interval, real / noise / too few,
 * the -n each side needs), and its rows, notes and JSON. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "json_writer.h"
#include "quantile.h"
#include "text_out.h"

int compare_metric_named(const char *name)
{
    size_t n = strlen(name);
    for (int c = 0; c < CMP_COUNT; c++) {
        const char *key = compare_metrics[c].key;
        if (strncmp(key, name, n) == 0 &&
            (key[n] == '\0' || strcmp(key + n, "_ms") == 0))
            return c;
    }
    return -1;
}

/* The value at percentile q of metric cm of group g as summary shows it
 * (the group's sorted values; ITL: every gap), NaN when there is none. */
static double shown_at(const struct group *g, enum compare_metric cm, double q)
{
    enum metric_id id = compare_metrics[cm].metric;
    return g->sum[id].n ? quantile_sorted(g->v[id].v, g->sum[id].n, q) : NAN;
}

/* Item x's cell of pair p. Returns 0, or -1 out of memory. */
static int pctl_cell(const struct compare_result *r,
                     const struct compare_pair *p, const struct compare_pctl *x,
                     uint64_t seed, struct compare_pctl_cell *c)
{
    const double *va, *vb;
    size_t min = compare_min_samples(x->q);
    memset(c, 0, sizeof(*c));
    c->base = shown_at(p->base, x->m, x->q);
    c->new_ = shown_at(p->new_, x->m, x->q);
    c->diff = isnan(c->base) || isnan(c->new_) ? NAN : c->new_ - c->base;
    c->pct =
        isnan(c->diff) || c->base == 0 ? NAN : c->diff / fabs(c->base) * 100;
    compare_samples(r->base, p->base, x->m, &va, &c->n_base);
    compare_samples(r->new_, p->new_, x->m, &vb, &c->n_new);
    c->need_base = compare_needed_n(c->n_base, p->base->requests, min);
    c->need_new = compare_needed_n(c->n_new, p->new_->requests, min);
    return compare_samples_verdict(va, c->n_base, vb, c->n_new, x->q, seed,
                                   &c->ci, &c->has_ci, &c->verdict);
}

int compare_pctl_run(struct compare_result *r, const struct compare_pctl *x,
                     size_t n, uint64_t seed)
{
    if (n == 0)
        return 0;
    if (n > COMPARE_MAX_PCTL)
        n = COMPARE_MAX_PCTL; /* the caller refuses more */
    r->pctl = x;
    r->n_pctl = n;
    r->pctl_cells = calloc(r->n_pairs * n + 1, sizeof(*r->pctl_cells));
    if (!r->pctl_cells)
        return -1;
    for (size_t i = 0; i < r->n_pairs; i++) {
        struct compare_pctl_cell *cells = r->pctl_cells + i * n;
        r->pairs[i].pctl = cells;
        for (size_t k = 0; k < n; k++) {
            if (pctl_cell(r, &r->pairs[i], &x[k], seed, &cells[k]))
                return -1;
            if (cells[k].verdict != VERDICT_TOO_FEW)
                continue;
            r->pctl_too_few[k]++;
            if (cells[k].need_base > r->pctl_needed[k])
                r->pctl_needed[k] = cells[k].need_base;
            if (cells[k].need_new > r->pctl_needed[k])
                r->pctl_needed[k] = cells[k].need_new;
        }
    }
    return 0;
}

/* The verdict cell: "real, slower", "noise", "too few", "n/a". */
static void verdict_cell(char *out, size_t size,
                         const struct compare_pctl_cell *c,
                         enum compare_metric m)
{
    if (c->verdict == VERDICT_REAL)
        snprintf(out, size, "real, %s",
                 c->ci.lo > 0 ? compare_metrics[m].up
                              : compare_metrics[m].down);
    else
        snprintf(out, size, "%s", compare_verdict_name(c->verdict));
}

void compare_pctl_rows(struct buf *b, const struct compare_result *r,
                       const struct compare_pair *p, int m, int how)
{
    char label[16], base[24], nw[24], diff[32], pct[32], lo[32], hi[32], ci[80],
        verdict[40];
    for (size_t k = 0; p->pctl && k < r->n_pctl; k++) {
        const struct compare_pctl_cell *c = &p->pctl[k];
        if ((int)r->pctl[k].m != m)
            continue;
        snprintf(label, sizeof label, "p%g", r->pctl[k].q);
        text_fmt_num(base, sizeof base, c->base);
        text_fmt_num(nw, sizeof nw, c->new_);
        text_fmt_signed(diff, sizeof diff, c->diff);
        text_fmt_pct(pct, sizeof pct, c->pct);
        snprintf(ci, sizeof ci, "-");
        if (c->has_ci) {
            text_fmt_signed(lo, sizeof lo, c->ci.lo);
            text_fmt_signed(hi, sizeof hi, c->ci.hi);
            snprintf(ci, sizeof ci, "[%s, %s]", lo, hi);
        }
        verdict_cell(verdict, sizeof verdict, c, (enum compare_metric)m);
        if (how == COMPARE_ROW_MARKDOWN)
            buf_printf(b, "| | %s | %s | %s | %s | %s | %s | %s |\n", label,
                       base, nw, diff, pct, ci, verdict);
        else if (how == COMPARE_ROW_WIDE)
            buf_printf(b, "  %23s %9s %9s %9s %7s  %-20s %s\n", label, base, nw,
                       diff, pct, ci, verdict);
        else
            buf_printf(b, "  %11s %8s %8s %8s %6s  %-17s %s\n", label, base, nw,
                       diff, pct, ci, verdict);
    }
}

void compare_pctl_notes(struct buf *b, const struct compare_result *r,
                        int width, bool md)
{
    char line[400];
    if (r->n_pctl) {
        snprintf(line, sizeof line,
                 "%s--metric: each percentile's row has the interval of the "
                 "difference of that percentile, \"too few\" below "
                 "100 / (100 - P) values a side; a real change of a time's "
                 "counts as slower / faster",
                 md ? "> " : "");
        text_wrap_put(b, line, width, md ? 0 : 2);
    }
    for (size_t k = 0; k < r->n_pctl; k++) {
        size_t min = compare_min_samples(r->pctl[k].q);
        if (!r->pctl_too_few[k])
            continue;
        snprintf(line, sizeof line,
                 "%s%s rests on fewer than %zu values in %zu of %zu group%s "
                 "(\"too few\"); for its verdict record each side with -n "
                 "%llu or more",
                 md ? "> " : "", r->pctl[k].name, min, r->pctl_too_few[k],
                 r->n_pairs, r->n_pairs == 1 ? "" : "s",
                 r->pctl_needed[k] ? r->pctl_needed[k]
                                   : (unsigned long long)min);
        text_wrap_put(b, line, width, 2);
    }
}

/* Appends a -n a side needs: the number, or null when it has enough. */
static void json_need(struct buf *b, unsigned long long n)
{
    if (n)
        buf_printf(b, "%llu", n);
    else
        buf_puts(b, "null");
}

void compare_pctl_json_pair(struct buf *b, const struct compare_result *r,
                            size_t i)
{
    const struct compare_pair *p = &r->pairs[i];
    if (!r->n_pctl || !p->pctl)
        return;
    buf_puts(b, ",\"percentiles\":[");
    for (size_t k = 0; k < r->n_pctl; k++) {
        const struct compare_pctl *x = &r->pctl[k];
        const struct compare_pctl_cell *c = &p->pctl[k];
        buf_printf(b, "%s{\"metric\":\"%s\",\"key\":\"%s\",\"percentile\":",
                   k ? "," : "", x->name, compare_metrics[x->m].key);
        json_put_double(b, x->q);
        buf_printf(b, ",\"unit\":\"%s\",\"base\":", compare_metrics[x->m].unit);
        json_put_double(b, c->base);
        buf_puts(b, ",\"new\":");
        json_put_double(b, c->new_);
        buf_puts(b, ",\"diff\":");
        json_put_double(b, c->diff);
        buf_puts(b, ",\"diff_pct\":");
        json_put_double(b, c->pct);
        buf_puts(b, ",\"diff_ci\":");
        if (c->has_ci) {
            buf_puts(b, "{\"estimate\":");
            json_put_double(b, c->ci.estimate);
            buf_puts(b, ",\"lo\":");
            json_put_double(b, c->ci.lo);
            buf_puts(b, ",\"hi\":");
            json_put_double(b, c->ci.hi);
            buf_puts(b, "}");
        } else {
            buf_puts(b, "null");
        }
        buf_printf(b,
                   ",\"samples_base\":%zu,\"samples_new\":%zu,"
                   "\"min_samples\":%zu,\"verdict\":\"%s\"",
                   c->n_base, c->n_new, compare_min_samples(x->q),
                   compare_verdict_name(c->verdict));
        if (c->verdict == VERDICT_REAL)
            buf_printf(b, ",\"direction\":\"%s\"",
                       c->ci.lo > 0 ? compare_metrics[x->m].up
                                    : compare_metrics[x->m].down);
        buf_puts(b, ",\"needed_n\":{\"base\":");
        json_need(b, c->need_base);
        buf_puts(b, ",\"new\":");
        json_need(b, c->need_new);
        buf_puts(b, "}}");
    }
    buf_puts(b, "]");
}

void compare_pctl_json_result(struct buf *b, const struct compare_result *r)
{
    if (!r->n_pctl)
        return;
    buf_puts(b, ",\"too_few_percentiles\":[");
    for (size_t k = 0; k < r->n_pctl; k++) {
        size_t min = compare_min_samples(r->pctl[k].q);
        buf_printf(b,
                   "%s{\"metric\":\"%s\",\"groups\":%zu,\"min_samples\":%zu,"
                   "\"needed_n\":",
                   k ? "," : "", r->pctl[k].name, r->pctl_too_few[k], min);
        if (r->pctl_too_few[k])
            buf_printf(b, "%llu}",
                       r->pctl_needed[k] ? r->pctl_needed[k]
                                         : (unsigned long long)min);
        else
            buf_puts(b, "null}");
    }
    buf_puts(b, "]");
}
