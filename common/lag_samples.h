/* lag_samples: a distribution of lateness samples (ns) for the self-checks
 * (record/run/self_lag.h, wake_probe.h) and the receive lag of chunks
 * stamped with the kernel's time (record/net/transfer.c): the first
 * LAG_SAMPLES_MAX kept, the count and the maximum over all. */
#ifndef TT_LAG_SAMPLES_H
#define TT_LAG_SAMPLES_H

#include <stdint.h>

struct lag_samples {
    int64_t *v; /* the kept samples, owned */
    uint64_t n_kept, cap;
    uint64_t count; /* every sample, kept or not */
    int64_t max_ns;
};

#define LAG_SAMPLES_MAX ((uint64_t)1 << 20)

/* Adds one sample (negative counts as 0). Out of memory only stops the
 * keeping; the count and the maximum go on. */
void lag_samples_add(struct lag_samples *s, int64_t late);

/* p50/p99/max in ns and the number of samples; -1 and 0 when none. Sorts
 * the kept samples. */
void lag_samples_result(struct lag_samples *s, int64_t *p50, int64_t *p99,
                        int64_t *max, uint64_t *n);

/* Like lag_samples_result, over the samples kept since mark (an n_kept
 * read earlier) only, leaving their order alone. Out of memory gives -1
 * and 0 too. */
void lag_samples_since(const struct lag_samples *s, uint64_t mark, int64_t *p50,
                       int64_t *p99, int64_t *max, uint64_t *n);

/* Frees the samples; the struct is empty again. NULL-safe. */
void lag_samples_free(struct lag_samples *s);

#endif
