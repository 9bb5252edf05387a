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
#include "json_writer.h"
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

/* The metrics judged A against B, in the order of their lines. */
static const enum compare_metric ab_metrics[] = {CMP_TTFT, CMP_TPOT,
                                                 CMP_LATENCY};

/* One A-against-B fact: percentile q of metric m, b against a. */
struct ab_fact {
    enum compare_metric m;
    double q;
    struct stats_ci ci;
    bool has;
    enum compare_verdict v;
    size_t na, nb;
    unsigned long long need; /* the -n a "too few" needs; else 0 */
    double pct;              /* estimate / a's pq * 100; NaN when none */
};

/* Fills f for metric m, percentile q of b against a with
 * compare_samples_verdict (seed 1). Returns 0, or -1 out of memory. */
static int ab_fact(const struct group *a, const struct group *b,
                   enum compare_metric m, double q, struct ab_fact *f)
{
    enum metric_id id = compare_metrics[m].metric;
    size_t min = compare_min_samples(q);
    double base = q == 50 ? a->sum[id].p50 : a->sum[id].p99;
    memset(f, 0, sizeof *f);
    f->m = m;
    f->q = q;
    f->na = a->sum[id].n;
    f->nb = b->sum[id].n;
    if (compare_samples_verdict(a->v[id].v, f->na, b->v[id].v, f->nb, q,
                                MODELS_SEED, &f->ci, &f->has, &f->v))
        return -1;
    f->pct = f->has && base > 0 ? f->ci.estimate / base * 100 : NAN;
    if (f->v == VERDICT_TOO_FEW) {
        unsigned long long na = compare_needed_n(f->na, a->requests, min),
                           nb = compare_needed_n(f->nb, b->requests, min);
        f->need = na > nb ? na : nb;
        f->need = f->need ? f->need : (unsigned long long)min;
    }
    return 0;
}

/* Appends " p50 by 58.0 ms [+52.0, +63.5] — real" of f. */
static void part_text(struct buf *line, const struct ab_fact *f)
{
    char d[32], lo[32], hi[32];
    if (!f->has) {
        buf_printf(line, " p%.0f n/a", f->q);
        return;
    }
    text_fmt_signed(d, sizeof d, f->ci.estimate);
    text_fmt_signed(lo, sizeof lo, f->ci.lo);
    text_fmt_signed(hi, sizeof hi, f->ci.hi);
    buf_printf(line, " p%.0f by %s ms [%s, %s] \xe2\x80\x94 %s", f->q,
               d[0] == '+' ? d + 1 : d, lo, hi, compare_verdict_name(f->v));
    if (f->v == VERDICT_TOO_FEW)
        buf_printf(line, " (p%.0f of %zu values; record -n %llu)", f->q,
                   f->na < f->nb ? f->na : f->nb, f->need);
}

/* Appends one JSON object of f for the pair a, b in class cls. */
static void part_json(struct buf *b, const char *cls, const struct group *ga,
                      const struct group *gb, const struct ab_fact *f)
{
    buf_puts(b, "{\"class\":");
    json_put_cstr(b, cls);
    buf_puts(b, ",\"a\":");
    json_put_cstr(b, ga->keys[0]);
    buf_puts(b, ",\"b\":");
    json_put_cstr(b, gb->keys[0]);
    buf_printf(b, ",\"metric\":\"%s\",\"percentile\":%.0f,\"pct\":",
               compare_metrics[f->m].key, f->q);
    json_put_double(b, f->pct);
    buf_puts(b, ",\"diff_ms\":");
    json_put_double(b, f->has ? f->ci.estimate : NAN);
    buf_puts(b, ",\"ci\":");
    if (f->has) {
        buf_puts(b, "[");
        json_put_double(b, f->ci.lo);
        buf_puts(b, ",");
        json_put_double(b, f->ci.hi);
        buf_puts(b, "]");
    } else {
        buf_puts(b, "null");
    }
    buf_printf(b, ",\"verdict\":\"%s\",\"n_a\":%zu,\"n_b\":%zu",
               compare_verdict_name(f->v), f->na, f->nb);
    if (f->need)
        buf_printf(b, ",\"record_n\":%llu", f->need);
    buf_puts(b, "}");
}

/* The facts of one pair as text: the TTFT line ("cls: A is faster than B
 * on TTFT p50 ..., p99 ...", "against" when the p50 is not real), then one
 * indented line each for TPOT and latency; in markdown a list item each. */
static void pair_text(struct buf *b, const char *cls, const struct group *a,
                      const struct group *g, const struct ab_fact *f, int width,
                      bool md)
{
    char ma[200], mb[200], cn[200];
    for (size_t k = 0; k < sizeof ab_metrics / sizeof *ab_metrics; k++) {
        struct buf line;
        buf_init(&line, 0);
        if (k == 0) /* "faster" only when the p50's interval says so */
            buf_printf(&line, "%s%s: %s %s %s on TTFT", md ? "- " : "",
                       printable_copy(cn, sizeof cn, cls),
                       printable_copy(ma, sizeof ma, a->keys[0]),
                       f[0].v == VERDICT_REAL ? "is faster than" : "against",
                       printable_copy(mb, sizeof mb, g->keys[0]));
        else
            buf_printf(&line, "%s%s", md ? "  - " : "  ",
                       compare_metrics[ab_metrics[k]].title);
        part_text(&line, &f[2 * k]);
        buf_puts(&line, ",");
        part_text(&line, &f[2 * k + 1]);
        text_wrap_put(b, line.data ? line.data : "", md ? 0 : width,
                      md ? 0 : 2);
        buf_set_error(b, buf_error(&line));
        buf_free(&line);
    }
}

/* The facts of one class: its fastest model by TTFT p50 against each
 * other model with TTFT values, as text (json false) or JSON objects
 * (*first: no comma before the next). Returns 0, or -1 out of memory. */
static int class_facts(struct buf *b, const struct group_set *set,
                       const char *cls, int width, int how, bool *first)
{
    const struct group *best = NULL;
    for (size_t i = 0; i < set->n_groups; i++) {
        const struct group *g = set->groups[i];
        if (strcmp(g->keys[1], cls) == 0 && g->sum[M_TTFT].n &&
            (!best || g->sum[M_TTFT].p50 < best->sum[M_TTFT].p50))
            best = g;
    }
    for (size_t i = 0; best && i < set->n_groups; i++) {
        const struct group *g = set->groups[i];
        struct ab_fact f[6];
        if (g == best || strcmp(g->keys[1], cls) != 0 || !g->sum[M_TTFT].n)
            continue;
        for (size_t k = 0; k < 6; k++)
            if (ab_fact(best, g, ab_metrics[k / 2], k % 2 ? 99 : 50, &f[k]))
                return -1;
        if (how != AB_JSON) {
            pair_text(b, cls, best, g, f, width, how == AB_MARKDOWN);
            continue;
        }
        for (size_t k = 0; k < 6; k++) {
            if (!*first)
                buf_puts(b, ",");
            *first = false;
            part_json(b, cls, best, g, &f[k]);
        }
    }
    return 0;
}

/* The classes of set in set order into seen (n_groups long); returns how
 * many, and the number of models into *models. */
static size_t set_classes(const struct group_set *set, const char **seen,
                          size_t *models)
{
    size_t n_seen = 0;
    *models = 0;
    for (size_t i = 0; i < set->n_groups; i++) {
        bool known = false;
        for (size_t k = 0; k < n_seen && !known; k++)
            known = strcmp(seen[k], set->groups[i]->keys[1]) == 0;
        if (!known)
            seen[n_seen++] = set->groups[i]->keys[1];
        *models += i == 0 || strcmp(set->groups[i]->keys[0],
                                    set->groups[i - 1]->keys[0]) != 0;
    }
    return n_seen;
}

int compare_models_put(struct buf *b, const struct group_set *set, int width,
                       int how)
{
    const char **seen;
    size_t n_seen, models;
    bool first = true;
    char line[400];
    if (!by_model_class(set))
        return 0;
    seen = calloc(set->n_groups, sizeof(*seen));
    if (!seen)
        return -1;
    n_seen = set_classes(set, seen, &models);
    if (models < 2) {
        free(seen);
        return 0;
    }
    snprintf(line, sizeof line,
             "%sA against B per class (the difference B - A, its %.0f%% "
             "bootstrap CI, %u resamples, seed %d, and verdict, as compare; "
             "p99 needs %zu values a side):",
             how == AB_MARKDOWN ? "\n### " : "\n", COMPARE_LEVEL * 100,
             STATS_BOOTSTRAP_ITERATIONS, MODELS_SEED, compare_min_samples(99));
    if (how == AB_JSON)
        buf_puts(b, ",\"ab\":[");
    else
        text_wrap_put(b, line, how == AB_MARKDOWN ? 0 : width, 0);
    if (how == AB_MARKDOWN)
        buf_puts(b, "\n");
    for (size_t k = 0; k < n_seen; k++)
        if (class_facts(b, set, seen[k], width, how, &first)) {
            free(seen);
            return -1;
        }
    if (how == AB_JSON)
        buf_puts(b, "]");
    free(seen);
    return 0;
}

int compare_models_write(FILE *out, const struct group_set *set, int width,
                         bool markdown)
{
    struct buf b;
    int rc;
    doc_out_init(&b);
    if (compare_models_put(&b, set, width, markdown ? AB_MARKDOWN : AB_TEXT)) {
        buf_free(&b);
        return -1;
    }
    rc = b.len ? doc_out_write(out, &b, "summary") : 0;
    buf_free(&b);
    return rc;
}
