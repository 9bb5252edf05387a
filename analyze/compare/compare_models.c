/* compare_models: A against B within one recording, for `summary` of two
 * or more models: per prompt class, the fastest model by TTFT p50 against
 * each other, p50 and p99, with compare's own bootstrap interval and
 * verdict (compare_samples_verdict, seed 1 as compare's default), so a
 * bug report needs one run and one command. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "doc_out.h"
#include "printable.h"
#include "text_out.h"

#define MODELS_SEED 1

/* True when the set is grouped by model, then class (summary's default). */
static bool by_model_class(const struct group_set *set)
{
    char tmp[64];
    return set->n_groups > 0 && set->groups[0]->n_keys == 2 &&
           strcmp(group_dim_name(set, 0, tmp, sizeof tmp), "model") == 0 &&
           strcmp(group_dim_name(set, 1, tmp, sizeof tmp), "class") == 0;
}

/* The TTFT samples of g (summarized: sorted, NaN-free, n of them). */
static const double *ttft(const struct group *g, size_t *n)
{
    *n = g->sum[M_TTFT].n;
    return g->v[M_TTFT].v;
}

/* Appends " p50 by 58.0 ms [+52.0, +63.5] — real" for percentile q of b's
 * TTFT against a's, its verdict in *out; -1 out of memory. */
static int part(struct buf *line, const struct group *a, const struct group *b,
                double q, enum compare_verdict *out)
{
    size_t na, nb, min = compare_min_samples(q);
    const double *va = ttft(a, &na), *vb = ttft(b, &nb);
    struct stats_ci ci;
    bool has;
    enum compare_verdict v;
    char d[32], lo[32], hi[32];
    if (compare_samples_verdict(va, na, vb, nb, q, MODELS_SEED, &ci, &has, &v))
        return -1;
    *out = v;
    if (!has) {
        buf_printf(line, " p%.0f n/a", q);
        return 0;
    }
    text_fmt_signed(d, sizeof d, ci.estimate);
    text_fmt_signed(lo, sizeof lo, ci.lo);
    text_fmt_signed(hi, sizeof hi, ci.hi);
    buf_printf(line, " p%.0f by %s ms [%s, %s] \xe2\x80\x94 %s", q,
               d[0] == '+' ? d + 1 : d, lo, hi, compare_verdict_name(v));
    if (v == VERDICT_TOO_FEW) {
        unsigned long long need = 0, n;
        n = compare_needed_n(na, a->requests, min);
        need = n > need ? n : need;
        n = compare_needed_n(nb, b->requests, min);
        need = n > need ? n : need;
        buf_printf(line, " (p%.0f of %zu values; record -n %llu)", q,
                   na < nb ? na : nb, need ? need : (unsigned long long)min);
    }
    return 0;
}

/* The lines of one class: its fastest model by TTFT p50 against each
 * other model with TTFT values. */
static int class_lines(struct buf *b, const struct group_set *set,
                       const char *cls, int width)
{
    const struct group *best = NULL;
    char ma[200], mb[200], cn[200];
    for (size_t i = 0; i < set->n_groups; i++) {
        const struct group *g = set->groups[i];
        if (strcmp(g->keys[1], cls) == 0 && g->sum[M_TTFT].n &&
            (!best || g->sum[M_TTFT].p50 < best->sum[M_TTFT].p50))
            best = g;
    }
    for (size_t i = 0; best && i < set->n_groups; i++) {
        const struct group *g = set->groups[i];
        struct buf line, p50;
        enum compare_verdict v = VERDICT_NONE, v99;
        int rc;
        if (g == best || strcmp(g->keys[1], cls) != 0 || !g->sum[M_TTFT].n)
            continue;
        buf_init(&line, 0);
        buf_init(&p50, 0);
        rc = part(&p50, best, g, 50, &v);
        /* "faster" only when the p50's interval says so */
        buf_printf(&line, "%s: %s %s %s on TTFT",
                   printable_copy(cn, sizeof cn, cls),
                   printable_copy(ma, sizeof ma, best->keys[0]),
                   v == VERDICT_REAL ? "is faster than" : "against",
                   printable_copy(mb, sizeof mb, g->keys[0]));
        buf_puts(&line, p50.data ? p50.data : "");
        buf_set_error(&line, buf_error(&p50));
        buf_free(&p50);
        buf_puts(&line, ",");
        rc = rc ? rc : part(&line, best, g, 99, &v99);
        if (!rc)
            text_wrap_put(b, line.data ? line.data : "", width, 2);
        buf_set_error(b, buf_error(&line));
        buf_free(&line);
        if (rc)
            return -1;
    }
    return 0;
}

int compare_models_write(FILE *out, const struct group_set *set, int width)
{
    struct buf b;
    const char **seen;
    size_t n_seen = 0, models = 0;
    char line[400];
    if (!by_model_class(set))
        return 0;
    seen = calloc(set->n_groups, sizeof(*seen));
    if (!seen)
        return -1;
    for (size_t i = 0; i < set->n_groups; i++) { /* classes, in set order */
        bool known = false;
        for (size_t k = 0; k < n_seen && !known; k++)
            known = strcmp(seen[k], set->groups[i]->keys[1]) == 0;
        if (!known)
            seen[n_seen++] = set->groups[i]->keys[1];
        models += i == 0 || strcmp(set->groups[i]->keys[0],
                                   set->groups[i - 1]->keys[0]) != 0;
    }
    if (models < 2) {
        free(seen);
        return 0;
    }
    doc_out_init(&b);
    snprintf(line, sizeof line,
             "\nA against B per class (the difference B - A, its %.0f%% "
             "bootstrap CI, %u resamples, seed %d, and verdict, as compare; "
             "p99 needs %zu values a side):",
             COMPARE_LEVEL * 100, STATS_BOOTSTRAP_ITERATIONS, MODELS_SEED,
             compare_min_samples(99));
    text_wrap_put(&b, line, width, 0);
    for (size_t k = 0; k < n_seen; k++)
        if (class_lines(&b, set, seen[k], width)) {
            free(seen);
            buf_free(&b);
            return -1;
        }
    free(seen);
    int rc = doc_out_write(out, &b, "summary");
    buf_free(&b);
    return rc;
}
