/* stats: summaries with type-7 percentiles (common/quantile.h), a capped
 * vector of doubles and a seeded bootstrap (common/rng.h's xoshiro256**),
 * identical on every machine.
 *
 * NaN marks "undefined" (e.g. TPOT with fewer than two tokens): summaries
 * skip NaN values and count only the others in n.
 */
#ifndef TT_STATS_H
#define TT_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "quantile.h"
#include "rng.h"

/* Error codes (0 is success). */
enum stats_err {
    STATS_OK = 0,
    STATS_E_NOMEM = 1,
    STATS_E_LIMIT = 2, /* a vector is full (its cap was reached) */
    STATS_E_EMPTY = 3, /* no (non-NaN) values to work on */
};

/* Returns a static description of a stats_err. */
const char *stats_strerror(int err);

/* ---- percentiles and summaries ----------------------------------------- */

struct stats_summary {
    size_t n; /* values that were not NaN */
    double p50, p90, p95, p99, p999;
    double mean;
    double stddev; /* sample standard deviation (n - 1); 0 when n == 1 */
    double min, max;
};

/* Summarizes n values. SORTS v IN PLACE (NaN values moved to the end and
 * excluded); copy first if the order matters. With no non-NaN value, fills
 * n = 0 and NAN everywhere, and returns STATS_E_EMPTY; else STATS_OK. */
int stats_summarize(double *v, size_t n, struct stats_summary *out);

/* ---- a growable vector of doubles -------------------------------------- */

struct stats_vec {
    double *v;
    size_t n;
    size_t cap;   /* allocated entries */
    size_t limit; /* growth refused beyond this many entries */
};

/* Default cap on a vector's entries (a run-level ITL list can be long). */
#define STATS_VEC_DEFAULT_LIMIT ((size_t)100 * 1000 * 1000)

/* Initializes an empty vector holding at most limit values (0: default).
 * Cannot fail. */
void stats_vec_init(struct stats_vec *sv, size_t limit);

/* Appends x. Returns STATS_OK, STATS_E_LIMIT or STATS_E_NOMEM (nothing
 * appended on error). */
int stats_vec_push(struct stats_vec *sv, double x);

/* Empties the vector, keeping its memory. */
void stats_vec_reset(struct stats_vec *sv);

/* Frees the memory. NULL-safe. */
void stats_vec_free(struct stats_vec *sv);

/* ---- bootstrap --------------------------------------------------------- */

struct stats_ci {
    double estimate; /* median(b) - median(a) on the samples themselves */
    double lo, hi;   /* percentile bootstrap interval */
    double level;    /* e.g. 0.95 */
    unsigned iterations;
    int excludes_zero; /* 1 when lo > 0 or hi < 0: a real difference */
};

/* Default number of bootstrap resamples. */
#define STATS_BOOTSTRAP_ITERATIONS 2000u

/* Percentile-bootstrap confidence interval of median(b) - median(a):
 * resamples a and b with replacement `iterations` times (0: default) with
 * the PRNG seeded by seed, and takes the type-7 percentiles (1-level)/2 and
 * (1+level)/2 of the differences (level 0: 0.95). Inputs are not modified
 * and must not contain NaN. Returns STATS_OK, STATS_E_EMPTY (na or nb is 0)
 * or STATS_E_NOMEM. */
int stats_bootstrap_median_diff(const double *a, size_t na, const double *b,
                                size_t nb, uint64_t seed, unsigned iterations,
                                double level, struct stats_ci *out);

/* The same for the type-7 percentile q (0..100) instead of the median
 * (q = 50 gives stats_bootstrap_median_diff's interval, bit for bit);
 * out->estimate is pq(b) - pq(a). */
int stats_bootstrap_quantile_diff(const double *a, size_t na, const double *b,
                                  size_t nb, double q, uint64_t seed,
                                  unsigned iterations, double level,
                                  struct stats_ci *out);

#endif
