/* compare_calc: loads the sides of a comparison and computes differences,
 * bootstrap intervals and verdicts. */
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "printable.h"
#include "text_out.h"

const struct compare_metric_def compare_metrics[CMP_COUNT] = {
    [CMP_TTFT] = {"ttft_ms", "TTFT", "ms", M_TTFT, "slower", "faster"},
    [CMP_TPOT] = {"tpot_ms", "TPOT", "ms", M_TPOT, "slower", "faster"},
    [CMP_ITL] = {"itl_ms", "ITL", "ms", M_ITL, "slower", "faster"},
    [CMP_LATENCY] = {"latency_ms", "latency", "ms", M_LATENCY, "slower",
                     "faster"},
    [CMP_OUTPUT_TOKENS] = {"output_tokens", "output tokens", "tok",
                           M_OUTPUT_TOKENS, "more", "fewer"},
};

/* Per-request median ITL of one group: the ITL samples of the bootstrap.
 * Gaps within a request are not independent (one slow stream makes many
 * slow gaps), requests are; so each request contributes one value. */
struct compare_itl {
    const struct group *g;
    struct stats_vec v;
};

/* The group of set with these key values (both sides are grouped alike),
 * through the set's index: comparing many groups stays linear. */
static const struct group *find_group(const struct group_set *set,
                                      const struct group *like)
{
    return group_set_find(set, (const char *const *)like->keys, like->n_keys);
}

static struct stats_vec *itl_vec(struct compare_side *s, const struct group *g)
{
    struct compare_itl *p;
    for (size_t i = 0; i < s->n_itl; i++)
        if (s->itl[i].g == g)
            return &s->itl[i].v;
    p = realloc(s->itl, (s->n_itl + 1) * sizeof(*p));
    if (!p)
        return NULL;
    s->itl = p;
    p[s->n_itl].g = g;
    stats_vec_init(&p[s->n_itl].v, 0);
    return &p[s->n_itl++].v;
}

/* request_sink: the group set's own collection, plus the request's median
 * ITL. */
static int side_add(void *ctx, const struct request_metrics *m)
{
    struct compare_side *s = ctx;
    const struct group *g;
    struct stats_vec *v;
    if (group_set_add(&s->set, m) != 0)
        goto nomem;
    if (m->warmup || !m->ok || isnan(m->itl_p50_ms))
        return 0;
    g = group_set_group_of(&s->set, m);
    if (!g || !(v = itl_vec(s, g)))
        goto nomem;
    if (stats_vec_push(v, m->itl_p50_ms) == STATS_E_NOMEM)
        goto nomem;
    return 0;
nomem:
    s->nomem = true;
    return -1;
}

int compare_side_load(struct compare_side *side, const char *path,
                      const struct load_options *opt)
{
    return compare_side_load_by(side, path, opt, NULL, NULL, 0);
}

int compare_side_load_by(struct compare_side *side, const char *path,
                         const struct load_options *opt, const char *spec,
                         char *err, size_t err_size)
{
    struct group_by by;
    int rc;
    memset(side, 0, sizeof(*side));
    side->file = path;
    if (group_by_parse(spec ? spec : "model,class", &by, err, err_size) != 0)
        return spec ? -2 : -1;
    by.measured_class = opt->classify_measured;
    group_set_init(&side->set, &by, NULL);
    rc = load_trace_file(path, opt, side_add, NULL, side, &side->set.traces,
                         &side->set.n_traces);
    group_set_sort(&side->set);
    group_set_summarize(&side->set);
    return side->nomem ? -1 : rc;
}

void compare_group_name(const struct group_set *set, const struct group *g,
                        char *out, size_t size)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < g->n_keys && len < size; i++) {
        char tmp[64];
        const char *dim = group_dim_name(set, i, tmp, sizeof tmp);
        bool plain = strcmp(dim, "model") == 0 || strcmp(dim, "class") == 0;
        int n = snprintf(out + len, size - len, "%s%s%s%s", i ? " / " : "",
                         plain ? "" : dim, plain ? "" : " ", g->keys[i]);
        if (n < 0)
            break;
        len += (size_t)n;
    }
}

void compare_side_free(struct compare_side *side)
{
    group_set_free(&side->set);
    for (size_t i = 0; i < side->n_itl; i++)
        stats_vec_free(&side->itl[i].v);
    free(side->itl);
    memset(side, 0, sizeof(*side));
}

void compare_samples(const struct compare_side *s, const struct group *g,
                     enum compare_metric cm, const double **v, size_t *n)
{
    *v = NULL;
    *n = 0;
    if (cm == CMP_ITL) {
        for (size_t i = 0; i < s->n_itl; i++)
            if (s->itl[i].g == g) {
                *v = s->itl[i].v.v;
                *n = s->itl[i].v.n;
            }
        return;
    }
    /* Summarizing sorted the vector and moved NaN to the end: take n. */
    *v = g->v[compare_metrics[cm].metric].v;
    *n = g->sum[compare_metrics[cm].metric].n;
}

static double pct_of(double diff, double base)
{
    return isnan(diff) || base == 0 || isnan(base) ? NAN
                                                   : diff / fabs(base) * 100;
}

static int compare_cell_run(const struct compare_side *bs,
                            const struct group *gb,
                            const struct compare_side *ns,
                            const struct group *gn, enum compare_metric cm,
                            uint64_t seed, struct compare_cell *c)
{
    const struct stats_summary *a = &gb->sum[compare_metrics[cm].metric];
    const struct stats_summary *b = &gn->sum[compare_metrics[cm].metric];
    const double *va, *vb;
    const double pa[3] = {a->p50, a->p90, a->p99},
                 pb[3] = {b->p50, b->p90, b->p99};
    memset(c, 0, sizeof(*c));
    c->base = a;
    c->new_ = b;
    for (int i = 0; i < 3; i++) {
        c->diff[i] = a->n && b->n ? pb[i] - pa[i] : NAN;
        c->pct[i] = pct_of(c->diff[i], pa[i]);
    }
    compare_samples(bs, gb, cm, &va, &c->n_base);
    compare_samples(ns, gn, cm, &vb, &c->n_new);
    if (compare_samples_verdict(va, c->n_base, vb, c->n_new, 50, seed, &c->ci,
                                &c->has_ci, &c->verdict))
        return -1;
    return compare_samples_verdict(va, c->n_base, vb, c->n_new, 99, seed,
                                   &c->ci99, &c->has_ci99, &c->verdict99);
}

size_t compare_min_samples(double q)
{
    double tail = q < 100 ? 100 / (100 - q) : 1e9;
    size_t n = (size_t)ceil(tail - 1e-9);
    return n > COMPARE_MIN_SAMPLES ? n : COMPARE_MIN_SAMPLES;
}

int compare_samples_verdict(const double *a, size_t na, const double *b,
                            size_t nb, double q, uint64_t seed,
                            struct stats_ci *ci, bool *has_ci,
                            enum compare_verdict *verdict)
{
    int st;
    size_t min = compare_min_samples(q);
    *verdict = VERDICT_NONE;
    *has_ci = false;
    memset(ci, 0, sizeof(*ci));
    if (na == 0 || nb == 0)
        return 0;
    st = stats_bootstrap_quantile_diff(a, na, b, nb, q, seed, 0, COMPARE_LEVEL,
                                       ci);
    if (st == STATS_E_NOMEM)
        return -1;
    if (st != STATS_OK)
        return 0;
    *has_ci = true;
    if (na < min || nb < min)
        *verdict = VERDICT_TOO_FEW;
    else
        *verdict = ci->excludes_zero ? VERDICT_REAL : VERDICT_NOISE;
    return 0;
}

static int push_group(const struct group ***list, size_t *n,
                      const struct group *g)
{
    const struct group **p = realloc(*list, (*n + 1) * sizeof(*p));
    if (!p)
        return -1;
    *list = p;
    p[(*n)++] = g;
    return 0;
}

const char *compare_aspect_name(enum compare_aspect a)
{
    switch (a) {
    case CMP_ASPECT_API:
        return "API kind";
    case CMP_ASPECT_LOAD:
        return "load";
    case CMP_ASPECT_WORKLOAD:
        break;
    }
    return "workload";
}

/* One trace's value of an aspect: its API kind, its load as the recorder
 * set it ("concurrency=4", "rate=2", "sweep concurrency=1,2,4", "search
 * rate=1", "arrivals"), or its workload name. */
static void aspect_of(const struct trace_info *t, enum compare_aspect a,
                      char *out, size_t size)
{
    const char *v;
    out[0] = '\0';
    switch (a) {
    case CMP_ASPECT_API:
        snprintf(out, size, "%s", t->api ? t->api : "unknown");
        return;
    case CMP_ASPECT_WORKLOAD:
        snprintf(out, size, "%s", t->workload ? t->workload : "unknown");
        return;
    case CMP_ASPECT_LOAD:
        break;
    }
    if ((v = trace_info_option(t, "sweep")))
        snprintf(out, size, "sweep %s", v);
    else if ((v = trace_info_option(t, "search")))
        snprintf(out, size, "search %s", v);
    else if ((v = trace_info_option(t, "arrivals")))
        snprintf(out, size, "arrivals");
    else if ((v = trace_info_option(t, "rate")))
        snprintf(out, size, "rate=%s", v);
    else if ((v = trace_info_option(t, "concurrency")))
        snprintf(out, size, "concurrency=%s", v);
    else
        snprintf(out, size, "unknown");
    if ((v = trace_info_option(t, "concurrency_cap"))) {
        size_t n = strlen(out);
        snprintf(out + n, size - n, " -c %s", v);
    }
}

/* The distinct values of an aspect over a side's traces, comma-separated
 * in the order first seen (cut at size). */
static void side_aspect(const struct compare_side *s, enum compare_aspect a,
                        char *out, size_t size)
{
    char one[200];
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < s->set.n_traces; i++) {
        const char *p = out;
        size_t n;
        bool seen = false;
        aspect_of(s->set.traces[i], a, one, sizeof one);
        n = strlen(one);
        while (*p) { /* already in the list? */
            size_t k = strcspn(p, ",");
            if (k == n && strncmp(p, one, n) == 0)
                seen = true;
            p += k + (p[k] == ',');
        }
        if (seen || len + n + 2 >= size)
            continue;
        len += (size_t)snprintf(out + len, size - len, "%s%s", len ? "," : "",
                                one);
    }
}

unsigned long long compare_needed_n(size_t samples, unsigned long long requests,
                                    size_t min)
{
    if (samples == 0 || samples >= min || requests == 0)
        return 0;
    /* ceil(MIN x requests / samples): failures and 1-token replies keep
     * their share */
    return (min * requests + samples - 1) / samples;
}

/* Raises *need to what cell c of pair p needs for `min` samples a side. */
static void need_more(const struct compare_pair *p,
                      const struct compare_cell *c, size_t min,
                      unsigned long long *need)
{
    unsigned long long nb = compare_needed_n(c->n_base, p->base->requests, min),
                       nn = compare_needed_n(c->n_new, p->new_->requests, min);
    if (nb > *need)
        *need = nb;
    if (nn > *need)
        *need = nn;
}

/* Counts the too-few pairs of out (p50 and p99 verdicts) and the -n that
 * would be needed. */
static void too_few(struct compare_result *out)
{
    for (size_t i = 0; i < out->n_pairs; i++) {
        const struct compare_pair *p = &out->pairs[i];
        bool any = false, any99 = false;
        for (int m = 0; m < CMP_COUNT; m++) {
            const struct compare_cell *c = &p->cell[m];
            if (c->verdict99 == VERDICT_TOO_FEW) {
                any99 = true;
                need_more(p, c, compare_min_samples(99), &out->needed_n_p99);
            }
            if (c->verdict != VERDICT_TOO_FEW)
                continue;
            any = true;
            need_more(p, c, COMPARE_MIN_SAMPLES, &out->needed_n);
        }
        out->n_too_few += any;
        out->n_too_few_p99 += any99;
    }
}

void compare_warn(const struct compare_result *r)
{
    if (r->n_too_few)
        log_warn("compare: NO VERDICT for %zu of %zu group%s: fewer than %d "
                 "requests on a side give no verdict (\"too few\"); record "
                 "each side with -n %llu or more (requests per model and "
                 "class; the default is 3)",
                 r->n_too_few, r->n_pairs, r->n_pairs == 1 ? "" : "s",
                 COMPARE_MIN_SAMPLES,
                 r->needed_n > COMPARE_MIN_SAMPLES
                     ? r->needed_n
                     : (unsigned long long)COMPARE_MIN_SAMPLES);
    for (int a = 0; a < COMPARE_ASPECTS; a++)
        if (r->aspect_differs[a]) {
            char b[220], n[220];
            log_warn("compare: the sides differ in %s: base %s, new %s; "
                     "compared all the same, but a difference may be the "
                     "setup's, not the server's",
                     compare_aspect_name((enum compare_aspect)a),
                     printable_copy(b, sizeof b, r->aspect_base[a]),
                     printable_copy(n, sizeof n, r->aspect_new[a]));
        }
}

int compare_run(const struct compare_side *base,
                const struct compare_side *new_, uint64_t seed,
                struct compare_result *out)
{
    memset(out, 0, sizeof(*out));
    out->base = base;
    out->new_ = new_;
    out->pairs = calloc(base->set.n_groups + 1, sizeof(*out->pairs));
    if (!out->pairs)
        return -1;
    for (size_t i = 0; i < base->set.n_groups; i++) {
        const struct group *gb = base->set.groups[i];
        const struct group *gn = find_group(&new_->set, gb);
        struct compare_pair *p = &out->pairs[out->n_pairs];
        if (!gn) {
            if (push_group(&out->only_base, &out->n_only_base, gb))
                return -1;
            continue;
        }
        p->base = gb;
        p->new_ = gn;
        p->set = &base->set;
        for (int m = 0; m < CMP_COUNT; m++)
            if (compare_cell_run(base, gb, new_, gn, (enum compare_metric)m,
                                 seed, &p->cell[m]))
                return -1;
        out->n_pairs++;
    }
    for (size_t i = 0; i < new_->set.n_groups; i++) {
        const struct group *gn = new_->set.groups[i];
        if (!find_group(&base->set, gn) &&
            push_group(&out->only_new, &out->n_only_new, gn))
            return -1;
    }
    too_few(out);
    for (int a = 0; a < COMPARE_ASPECTS; a++) {
        side_aspect(base, (enum compare_aspect)a, out->aspect_base[a],
                    sizeof out->aspect_base[a]);
        side_aspect(new_, (enum compare_aspect)a, out->aspect_new[a],
                    sizeof out->aspect_new[a]);
        out->aspect_differs[a] =
            base->set.n_traces && new_->set.n_traces &&
            strcmp(out->aspect_base[a], out->aspect_new[a]) != 0;
    }
    return 0;
}

void compare_result_free(struct compare_result *r)
{
    free(r->pairs);
    free(r->pctl_cells);
    free(r->only_base);
    free(r->only_new);
    memset(r, 0, sizeof(*r));
}

const char *compare_verdict_name(enum compare_verdict v)
{
    switch (v) {
    case VERDICT_NOISE:
        return "noise";
    case VERDICT_REAL:
        return "real";
    case VERDICT_TOO_FEW:
        return "too few";
    case VERDICT_NONE:
        break;
    }
    return "n/a";
}

void compare_verdict_line(struct buf *b, const struct compare_pair *p)
{
    char name[600];
    compare_group_name(p->set, p->base, name, sizeof(name));
    buf_printf(b, "%s:", name);
    compare_verdict_text(b, p);
}

void compare_verdict_text(struct buf *b, const struct compare_pair *p)
{
    char d[32], pc[32], lo[32], hi[32];
    for (int m = 0; m < CMP_COUNT; m++) {
        const struct compare_metric_def *def = &compare_metrics[m];
        const struct compare_cell *c = &p->cell[m];
        buf_printf(b, "%s %s", m ? ";" : "", def->title);
        if (c->verdict == VERDICT_REAL) {
            text_fmt_signed(d, sizeof(d), c->diff[0]);
            text_fmt_signed(lo, sizeof(lo), c->ci.lo);
            text_fmt_signed(hi, sizeof(hi), c->ci.hi);
            buf_printf(b, " p50 %s %s (", d, def->unit);
            if (!isnan(c->pct[0])) {
                text_fmt_pct(pc, sizeof(pc), c->pct[0]);
                buf_printf(b, "%s, ", pc);
            }
            buf_printf(b, "CI [%s, %s]) %s \xe2\x80\x94 real", lo, hi,
                       c->ci.lo > 0 ? def->up : def->down);
        } else if (c->verdict == VERDICT_TOO_FEW) {
            buf_printf(b, " too few samples (%zu vs %zu)", c->n_base, c->n_new);
        } else {
            buf_printf(b, " %s", compare_verdict_name(c->verdict));
        }
    }
}
