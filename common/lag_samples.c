/* lag_samples: a capped store of lateness samples and their percentiles
 * (type 7, common/quantile.h). */
#include "lag_samples.h"

#include <stdlib.h>
#include <string.h>

#include "quantile.h"

void lag_samples_add(struct lag_samples *s, int64_t late)
{
    if (late < 0)
        late = 0;
    s->count++;
    if (late > s->max_ns)
        s->max_ns = late;
    if (s->n_kept == s->cap) {
        uint64_t ncap = s->cap ? s->cap * 2 : 1024;
        int64_t *p;
        if (ncap > LAG_SAMPLES_MAX)
            return;
        p = realloc(s->v, ncap * sizeof(*p));
        if (!p)
            return;
        s->v = p;
        s->cap = ncap;
    }
    s->v[s->n_kept++] = late;
}

void lag_samples_result(struct lag_samples *s, int64_t *p50, int64_t *p99,
                        int64_t *max, uint64_t *n)
{
    *n = s->count;
    if (s->n_kept == 0) {
        *p50 = *p99 = *max = -1;
        *n = 0;
        return;
    }
    qsort(s->v, s->n_kept, sizeof(*s->v), quantile_cmp_i64);
    *p50 = quantile_sorted_i64(s->v, s->n_kept, 50);
    *p99 = quantile_sorted_i64(s->v, s->n_kept, 99);
    *max = s->max_ns;
}

void lag_samples_since(const struct lag_samples *s, uint64_t mark, int64_t *p50,
                       int64_t *p99, int64_t *max, uint64_t *n)
{
    uint64_t k = s->n_kept > mark ? s->n_kept - mark : 0;
    int64_t *v = k ? malloc(k * sizeof *v) : NULL;
    *p50 = *p99 = *max = -1;
    *n = 0;
    if (!v)
        return;
    memcpy(v, s->v + mark, k * sizeof *v);
    qsort(v, k, sizeof *v, quantile_cmp_i64);
    *p50 = quantile_sorted_i64(v, k, 50);
    *p99 = quantile_sorted_i64(v, k, 99);
    *max = v[k - 1];
    *n = k;
    free(v);
}

void lag_samples_free(struct lag_samples *s)
{
    if (!s)
        return;
    free(s->v);
    memset(s, 0, sizeof(*s));
}
