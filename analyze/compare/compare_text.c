/* compare_text: what every text of a comparison starts with (the one-line
 * verdict) and `compare`'s default table, narrow enough for a terminal:
 * p50 and p99 rows with their own intervals and verdicts, every line
 * wrapped at the width (the full table with p90 is compare --wide). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "printable.h"
#include "text_out.h"

/* True for the metrics that are times (a rise is "slower"). */
static bool is_time(int m)
{
    return strcmp(compare_metrics[m].unit, "ms") == 0;
}

void compare_overall_line(struct buf *b, const struct compare_result *r)
{
    size_t slower = 0, faster = 0, mixed = 0, few = 0;
    for (size_t i = 0; i < r->n_pairs; i++) {
        bool up = false, down = false, too_few = false;
        for (int m = 0; m < CMP_COUNT; m++) {
            const struct compare_cell *c = &r->pairs[i].cell[m];
            if (!is_time(m))
                continue;
            too_few |= c->verdict == VERDICT_TOO_FEW;
            if (c->verdict == VERDICT_REAL)
                *(c->ci.lo > 0 ? &up : &down) = true;
            if (c->verdict99 == VERDICT_REAL)
                *(c->ci99.lo > 0 ? &up : &down) = true;
        }
        for (size_t k = 0; r->pairs[i].pctl && k < r->n_pctl; k++) {
            const struct compare_pctl_cell *c = &r->pairs[i].pctl[k];
            if (is_time(r->pctl[k].m) && c->verdict == VERDICT_REAL)
                *(c->ci.lo > 0 ? &up : &down) = true;
        }
        slower += up && !down;
        faster += down && !up;
        mixed += up && down;
        few += !up && !down && too_few;
    }
    buf_printf(b,
               "verdict: %zu of %zu group%s slower, %zu faster, %zu mixed, "
               "%zu no real change",
               slower, r->n_pairs, r->n_pairs == 1 ? "" : "s", faster, mixed,
               r->n_pairs - slower - faster - mixed - few);
    if (few)
        buf_printf(b, ", %zu too few", few);
    buf_puts(b, "\n");
}

/* One row of the narrow table: a percentile (0: p50, 2: p99) of a cell. */
static void narrow_row(struct buf *b, const struct compare_cell *c, int m,
                       int q)
{
    const double vb = q ? c->base->p99 : c->base->p50,
                 vn = q ? c->new_->p99 : c->new_->p50;
    const struct stats_ci *ci = q ? &c->ci99 : &c->ci;
    bool has = q ? c->has_ci99 : c->has_ci;
    enum compare_verdict v = q ? c->verdict99 : c->verdict;
    char base[24], nw[24], diff[32], pct[32], lo[32], hi[32], cis[80],
        verdict[40];
    text_fmt_num(base, sizeof(base), c->base->n ? vb : NAN);
    text_fmt_num(nw, sizeof(nw), c->new_->n ? vn : NAN);
    text_fmt_signed(diff, sizeof(diff), c->diff[q ? 2 : 0]);
    text_fmt_pct(pct, sizeof(pct), c->pct[q ? 2 : 0]);
    snprintf(cis, sizeof(cis), "-");
    if (has) {
        text_fmt_signed(lo, sizeof(lo), ci->lo);
        text_fmt_signed(hi, sizeof(hi), ci->hi);
        snprintf(cis, sizeof(cis), "[%s, %s]", lo, hi);
    }
    if (v == VERDICT_REAL)
        snprintf(verdict, sizeof(verdict), "real, %s",
                 ci->lo > 0 ? compare_metrics[m].up : compare_metrics[m].down);
    else
        snprintf(verdict, sizeof(verdict), "%s", compare_verdict_name(v));
    buf_printf(b, "  %-7s %3s %8s %8s %8s %6s  %-17s %s\n",
               q                        ? ""
               : m == CMP_OUTPUT_TOKENS ? "tokens"
                                        : compare_metrics[m].title,
               q ? "p99" : "p50", base, nw, diff, pct, cis, verdict);
}

/* The narrow table's lines on too few requests for a verdict. */
static void narrow_caveats(struct buf *b, const struct compare_result *r,
                           int width)
{
    char line[400];
    if (r->n_too_few) {
        snprintf(line, sizeof(line),
                 "NO VERDICT for %zu of %zu group%s: fewer than %d requests "
                 "on a side; record each side with -n %llu or more",
                 r->n_too_few, r->n_pairs, r->n_pairs == 1 ? "" : "s",
                 COMPARE_MIN_SAMPLES,
                 r->needed_n > COMPARE_MIN_SAMPLES
                     ? r->needed_n
                     : (unsigned long long)COMPARE_MIN_SAMPLES);
        text_wrap_put(b, line, width, 2);
    }
    if (r->n_too_few_p99) {
        snprintf(line, sizeof(line),
                 "p99 rests on fewer than %zu values in %zu of %zu group%s "
                 "(\"too few\"); for a p99 verdict record each side with -n "
                 "%llu or more",
                 compare_min_samples(99), r->n_too_few_p99, r->n_pairs,
                 r->n_pairs == 1 ? "" : "s",
                 r->needed_n_p99 ? r->needed_n_p99
                                 : (unsigned long long)compare_min_samples(99));
        text_wrap_put(b, line, width, 2);
    }
}

void compare_write_narrow(struct buf *b, const struct compare_result *r,
                          uint64_t seed, int width)
{
    char name[600], line[700];
    struct buf v;
    snprintf(line, sizeof(line),
             "slower / faster: a real change of a time's p50 or p99. "
             "differences are new - base; %.0f%% CI: percentile bootstrap of "
             "the difference of the p50s (p99s), %u resamples, seed %llu (ITL: "
             "per-request median ITL); times in ms, tokens: output tokens; "
             "p90 and more: --wide",
             COMPARE_LEVEL * 100, STATS_BOOTSTRAP_ITERATIONS,
             (unsigned long long)seed);
    text_wrap_put(b, line, width, 0);
    narrow_caveats(b, r, width);
    compare_pctl_notes(b, r, width, false);
    for (size_t i = 0; i < r->n_pairs; i++) {
        const struct compare_pair *p = &r->pairs[i];
        compare_group_name(p->set, p->base, name, sizeof(name));
        buf_puts(b, "\n");
        printable_put(b, name);
        buf_printf(b, ": base %llu ok of %llu, new %llu ok of %llu\n",
                   (unsigned long long)p->base->ok,
                   (unsigned long long)p->base->requests,
                   (unsigned long long)p->new_->ok,
                   (unsigned long long)p->new_->requests);
        buf_printf(b, "  %-7s %3s %8s %8s %8s %6s  %-17s %s\n", "metric", "",
                   "base", "new", "diff", "%", "95% CI of diff", "verdict");
        for (int m = 0; m < CMP_COUNT; m++) {
            for (int q = 0; q < 2; q++)
                narrow_row(b, &p->cell[m], m, q);
            compare_pctl_rows(b, r, p, m, COMPARE_ROW_NARROW);
        }
        buf_init(&v, 0);
        buf_puts(&v, "  => ");
        printable_put(&v, name); /* a name from the trace, made printable */
        buf_puts(&v, ":");
        compare_verdict_text(&v, p);
        text_wrap_put(b, v.data ? v.data : "", width, 5);
        buf_set_error(b, buf_error(&v));
        buf_free(&v);
        /* which part of TTFT moved (compare_waterfall.c), when measured */
        buf_init(&v, 0);
        buf_puts(&v, "  where: ");
        if (compare_waterfall_line(&v, p))
            text_wrap_put(b, v.data ? v.data : "", width, 9);
        buf_set_error(b, buf_error(&v));
        buf_free(&v);
    }
}
