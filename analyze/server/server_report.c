/* server_report: a URL's samples against the measured requests' window. */
#include "server_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* True for the gauges (running, waiting, KV-cache use). */
static bool server_quantity_is_gauge(enum server_quantity q)
{
    return q == SQ_RUNNING || q == SQ_WAITING || q == SQ_KV_USAGE;
}

double server_hist_quantile(const double *le, const double *cum, size_t n,
                            double q)
{
    double total, rank, lo = 0, below = 0;
    size_t last_finite;
    if (n == 0)
        return NAN;
    total = cum[n - 1];
    if (!(total > 0))
        return NAN;
    rank = q * total;
    for (size_t i = 0; i < n; i++) {
        if (cum[i] >= rank) {
            double hi = le[i], in = cum[i] - below;
            if (isinf(hi)) { /* the +Inf bucket: the highest finite bound */
                last_finite = i;
                while (last_finite > 0 && isinf(le[last_finite]))
                    last_finite--;
                return isinf(le[last_finite]) ? NAN : le[last_finite];
            }
            if (i == 0 && hi <= 0)
                return hi;
            if (!(in > 0))
                return hi;
            return lo + (hi - lo) * (rank - below) / in;
        }
        lo = le[i];
        below = cum[i];
    }
    return le[n - 1];
}

/* Bucket deltas of b - a into le/cum (aligned by bound; a bound missing
 * from a counts 0 there). Returns the number of buckets, or -1 when a
 * bucket went down (a reset). le and cum hold SERVER_MAX_BUCKETS. */
static long bucket_delta(const struct server_hist *a,
                         const struct server_hist *b, double *le, double *cum)
{
    size_t k = 0;
    for (size_t i = 0; i < b->n; i++) {
        double before = 0;
        for (size_t j = 0; j < a->n; j++)
            if (a->le[j] == b->le[i])
                before = a->cum[j];
        if (b->cum[i] < before)
            return -1;
        le[k] = b->le[i];
        cum[k] = b->cum[i] - before;
        k++;
    }
    return (long)k;
}

static void hist_delta(const struct server_sample *a,
                       const struct server_sample *b, enum server_quantity q,
                       struct server_delta *d)
{
    static double le[SERVER_MAX_BUCKETS], cum[SERVER_MAX_BUCKETS];
    const struct server_hist *ha = &a->hist[q], *hb = &b->hist[q];
    long n;
    d->count = hb->count - ha->count;
    d->sum = hb->sum - ha->sum;
    d->value = d->sum;
    if (d->count < 0 || d->sum < 0 - 1e-9) {
        d->reset = true;
        return;
    }
    n = bucket_delta(ha, hb, le, cum);
    if (n < 0) {
        d->reset = true;
        return;
    }
    d->mean = d->count > 0 ? d->sum / d->count : NAN;
    d->p50 = server_hist_quantile(le, cum, (size_t)n, 0.50);
    d->p90 = server_hist_quantile(le, cum, (size_t)n, 0.90);
    d->p99 = server_hist_quantile(le, cum, (size_t)n, 0.99);
}

/* The start and end samples (indexes into se->s) for the window. */
static void bracket(const struct server_series *se, int64_t from, int64_t to,
                    long *ia, long *ib, struct server_report *r)
{
    *ia = *ib = -1;
    for (size_t i = 0; i < se->n; i++) {
        const struct server_sample *s = &se->s[i];
        if (!s->ok)
            continue;
        if (*ia < 0) /* the first stands in until a bracketing one */
            *ia = (long)i;
        if (from >= 0 && s->end_ns <= from) {
            *ia = (long)i;
            r->bracketed_from = true;
        }
    }
    for (size_t i = se->n; i-- > 0;) {
        const struct server_sample *s = &se->s[i];
        if (!s->ok)
            continue;
        if (*ib < 0)
            *ib = (long)i;
        if (to >= 0 && s->start_ns >= to) {
            *ib = (long)i;
            r->bracketed_to = true;
        }
    }
    if (from < 0) /* no window: the first and last samples */
        r->bracketed_from = r->bracketed_to = false;
}

static void gauge_stats(const struct server_series *se, long ia, long ib,
                        enum server_quantity q, struct server_gauge *g)
{
    double *v = malloc(se->n * sizeof *v);
    size_t n = 0;
    struct stats_summary s;
    memset(g, 0, sizeof *g);
    g->min = g->median = g->max = NAN;
    if (!v)
        return;
    for (long i = ia; i <= ib; i++)
        if (se->s[i].ok && se->s[i].has[q]) {
            if (!isfinite(se->s[i].value[q]))
                g->nonfinite++; /* a NaN / Inf sample: said, not summed */
            else
                v[n++] = se->s[i].value[q];
        }
    if (n && stats_summarize(v, n, &s) == STATS_OK) {
        g->n = s.n;
        g->min = s.min;
        g->median = s.p50;
        g->max = s.max;
    }
    free(v);
}

void server_report_make(const struct server_series *se, int64_t from,
                        int64_t to, struct server_report *r)
{
    long ia, ib;
    memset(r, 0, sizeof *r);
    r->series = se;
    r->from_ns = r->to_ns = -1;
    for (size_t i = 0; i < se->n; i++)
        r->ok_samples += se->s[i].ok;
    bracket(se, from, to, &ia, &ib, r);
    if (ia < 0 || ib < 0)
        return;
    if (ib < ia)
        ib = ia;
    r->from_ns = se->s[ia].end_ns;
    r->to_ns = se->s[ib].start_ns;
    for (long i = ia; i <= ib; i++)
        r->used += se->s[i].ok;
    for (int q = 0; q < SQ_COUNT; q++) {
        const struct server_sample *a = &se->s[ia], *b = &se->s[ib];
        struct server_delta *d = &r->delta[q];
        if (server_quantity_is_gauge((enum server_quantity)q)) {
            gauge_stats(se, ia, ib, (enum server_quantity)q, &r->gauge[q]);
            continue;
        }
        d->p50 = d->p90 = d->p99 = d->mean = NAN;
        if (!a->has[q] || !b->has[q] || a->src[q] != b->src[q])
            continue;
        d->present = true;
        d->family = b->src[q]->family;
        if (b->src[q]->type == SMT_HISTOGRAM) {
            hist_delta(a, b, (enum server_quantity)q, d);
        } else {
            d->value = b->value[q] - a->value[q];
            if (d->value < 0)
                d->reset = true;
        }
    }
}
