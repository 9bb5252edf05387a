/* compare: BASE against NEW traces per model x class: p50/p90/p99 of TTFT,
 * TPOT, ITL, latency and output tokens side by side, their differences, and
 * a seeded percentile-bootstrap confidence interval of the difference of
 * medians that tells a real change from noise (docs/metrics.md, "Comparisons
 * and trends"). */
#ifndef TT_COMPARE_H
#define TT_COMPARE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "buf.h"
#include "groups.h"
#include "stats.h"

enum compare_metric {
    CMP_TTFT,
    CMP_TPOT,
    CMP_ITL,
    CMP_LATENCY,
    CMP_OUTPUT_TOKENS,
    CMP_COUNT
};

struct compare_metric_def {
    const char *key;       /* JSON key, "ttft_ms" */
    const char *title;     /* "TTFT" */
    const char *unit;      /* "ms", "tok" */
    enum metric_id metric; /* the distribution shown (groups.h) */
    const char *up, *down; /* words for a rise and a fall: "slower" */
};

extern const struct compare_metric_def compare_metrics[CMP_COUNT];

/* Confidence level of the intervals, and the fewest samples per side for a
 * verdict (below it the interval is shown but called "too few"). */
#define COMPARE_LEVEL 0.95
#define COMPARE_MIN_SAMPLES 5
/* The fewest samples a side for a verdict on percentile q: 5, and enough
 * for one value beyond it (p99: 100; below that the p99 is the maximum). */
size_t compare_min_samples(double q);

/* The -n (requests per model and class) that gives `min` samples at a
 * side's rate of samples per request (failures and 1-token replies keep
 * their share); 0 when it has enough or none at all. */
unsigned long long compare_needed_n(size_t samples, unsigned long long requests,
                                    size_t min);

/* summary of two or more models (grouped by model, class): per class, the
 * fastest model by TTFT p50 against each other, "A is faster than B on
 * TTFT p50 by X ms [CI] — real, p99 by Y ms [CI] — too few (p99 of 40
 * values; record -n 100)", then TPOT and latency lines the same way, from
 * compare_samples_verdict (seed 1). how: AB_TEXT (lines wrapped at width,
 * 0: never), AB_MARKDOWN (a heading and a list), AB_JSON (",\"ab\":[...]"
 * to go inside summary's object: one object per class, pair, metric and
 * percentile). Appends nothing for one model or another grouping.
 * Returns 0, or -1 out of memory (compare_models.c). */
enum { AB_TEXT, AB_MARKDOWN, AB_JSON };
int compare_models_put(struct buf *b, const struct group_set *set, int width,
                       int how);

/* compare_models_put as text or markdown, written to out. Returns 0, or
 * -1 when out could not be written. */
int compare_models_write(FILE *out, const struct group_set *set, int width,
                         bool markdown);

/* One side: everything read from one FILE argument (which may hold several
 * concatenated traces), grouped by model x class (or by --by). */
struct compare_side {
    const char *file;
    struct group_set set;
    struct compare_itl *itl; /* per-request median ITL, per group */
    size_t n_itl;
    bool nomem; /* a request could not be stored */
};

enum compare_verdict {
    VERDICT_NOISE,   /* the interval holds 0 */
    VERDICT_REAL,    /* the interval excludes 0 */
    VERDICT_TOO_FEW, /* fewer than COMPARE_MIN_SAMPLES on a side */
    VERDICT_NONE,    /* no value on a side */
};

/* One metric of one group present on both sides. */
struct compare_cell {
    const struct stats_summary *base, *new_; /* shown percentiles */
    double diff[3]; /* new - base of p50, p90, p99; NaN when undefined */
    double pct[3];  /* diff / base * 100; NaN when base is 0 or undefined */
    struct stats_ci ci;
    bool has_ci;
    size_t n_base, n_new; /* bootstrap samples per side */
    enum compare_verdict verdict;
    /* The same for p99 (the interval of the difference of p99s; "too few"
     * below compare_min_samples(99) a side). */
    struct stats_ci ci99;
    bool has_ci99;
    enum compare_verdict verdict99;
};

/* compare --metric: one more percentile verdict per group ("ttft_p95"). */
#define COMPARE_MAX_PCTL 16
struct compare_pctl {
    enum compare_metric m;
    double q;      /* the percentile, above 0 and below 100 */
    char name[32]; /* "ttft_p95", "itl_p99.9": METRIC_pSTAT, %g */
};

/* Its verdict in one pair: the percentile of each side (of the values
 * summary shows: ITL's gaps pooled; NaN: no value), their difference,
 * the bootstrap interval of the difference (of the bootstrap samples:
 * ITL's per-request medians), "too few" below compare_min_samples(q) a
 * side, and the -n each side needs for that many (0: it has enough, or no
 * value at all) at its own samples per request. */
struct compare_pctl_cell {
    double base, new_, diff, pct;
    struct stats_ci ci;
    bool has_ci;
    size_t n_base, n_new; /* bootstrap samples */
    unsigned long long need_base, need_new;
    enum compare_verdict verdict;
};

struct compare_pair {
    const struct group *base, *new_;
    const struct group_set *set; /* the base's, for its dimensions' names */
    struct compare_cell cell[CMP_COUNT];
    /* compare --metric: one cell per item of the result's pctl (NULL:
     * none asked) */
    const struct compare_pctl_cell *pctl;
};

/* What the sides ran, compared: API kind, load, workload. */
enum compare_aspect { CMP_ASPECT_API, CMP_ASPECT_LOAD, CMP_ASPECT_WORKLOAD };
#define COMPARE_ASPECTS 3

struct compare_result {
    const struct compare_side *base, *new_;
    struct compare_pair *pairs; /* in the base's group order */
    size_t n_pairs;
    const struct group **only_base, **only_new;
    size_t n_only_base, n_only_new;
    /* Pairs with a metric below COMPARE_MIN_SAMPLES on a side, and the
     * -n (requests per model and class) that would give every such
     * metric enough at the sides' own success rates (0: none). */
    size_t n_too_few;
    unsigned long long needed_n;
    /* The same for the p99 verdicts. */
    size_t n_too_few_p99;
    unsigned long long needed_n_p99;
    /* Where the sides differ in what they ran: each aspect's values on
     * each side ("openai-chat", "concurrency=4", "builtin"; several
     * comma-separated when a side's traces differ), and whether they
     * differ. Compared all the same; the outputs warn. */
    char aspect_base[COMPARE_ASPECTS][200], aspect_new[COMPARE_ASPECTS][200];
    bool aspect_differs[COMPARE_ASPECTS];
    /* compare --metric (compare_pctl_run; n_pctl 0: none): the items,
     * the cells of every pair (n_pairs x n_pctl, owned), and per item the
     * pairs "too few" at it and the -n that gives every side enough. */
    const struct compare_pctl *pctl;
    size_t n_pctl;
    struct compare_pctl_cell *pctl_cells;
    size_t pctl_too_few[COMPARE_MAX_PCTL];
    unsigned long long pctl_needed[COMPARE_MAX_PCTL];
};

/* "API kind", "load", "workload". */
const char *compare_aspect_name(enum compare_aspect a);

/* Writes the one-line warnings of r (no verdict for too few requests,
 * sides that differ) through log_warn, loudly and once per result. */
void compare_warn(const struct compare_result *r);

/* Reads path into side (grouped by model x class, measured classes with
 * opt->classify_measured). Returns 0, 1 when the file was damaged or
 * unreadable (a warning was printed; what came before is kept), or -1 out
 * of memory. Free with compare_side_free even on error. */
int compare_side_load(struct compare_side *side, const char *path,
                      const struct load_options *opt);

/* compare_side_load grouped by a --by spec instead (NULL: "model,class";
 * "turn": a session's turn, so two runs of the same sessions compare turn
 * by turn). Returns as compare_side_load; -2 when by is not a --by spec
 * (err, err_size: why). */
int compare_side_load_by(struct compare_side *side, const char *path,
                         const struct load_options *opt, const char *by,
                         char *err, size_t err_size);

/* A group's name for outputs: its key values joined by " / ", those of
 * dimensions other than model and class named ("turn 3"). */
void compare_group_name(const struct group_set *set, const struct group *g,
                        char *out, size_t size);

/* Frees a side. NULL-safe on a zeroed side. */
void compare_side_free(struct compare_side *side);

/* The verdict on b against a (samples of one metric, as the group
 * summaries leave them; NaN-free) for percentile q (50: the median), the
 * one every output of a comparison uses (tables, charts, summary): the
 * seeded bootstrap interval of pq(b) - pq(a) into ci (*has_ci when there
 * is one), "too few" below compare_min_samples(q) a side, "n/a" when a
 * side is empty. Returns 0, or -1 out of memory. */
int compare_samples_verdict(const double *a, size_t na, const double *b,
                            size_t nb, double q, uint64_t seed,
                            struct stats_ci *ci, bool *has_ci,
                            enum compare_verdict *verdict);

/* Compares two loaded sides; every bootstrap is seeded with seed, so the
 * same inputs give the same intervals. Returns 0 or -1 out of memory. */
int compare_run(const struct compare_side *base,
                const struct compare_side *new_, uint64_t seed,
                struct compare_result *out);

void compare_result_free(struct compare_result *r);

/* The bootstrap samples of metric cm of group g of side s (ITL: the
 * per-request medians), sorted, NaN-free: *v (borrowed) and *n. */
void compare_samples(const struct compare_side *s, const struct group *g,
                     enum compare_metric cm, const double **v, size_t *n);

/* The metric a --metric or --fail-on name means ("ttft", "itl",
 * "output_tokens": a key without "_ms"), or -1 (compare_pctl.c). */
int compare_metric_named(const char *name);

/* Adds to r the verdicts of the n items of x (the caller keeps x alive as
 * long as r), every bootstrap seeded with seed. Returns 0, or -1 out of
 * memory. */
int compare_pctl_run(struct compare_result *r, const struct compare_pctl *x,
                     size_t n, uint64_t seed);

/* Appends pair p's --metric rows of metric m, one per item of r on m:
 * how COMPARE_ROW_NARROW (the 80-column table's columns),
 * COMPARE_ROW_WIDE (compare --wide's) or COMPARE_ROW_MARKDOWN. */
enum { COMPARE_ROW_NARROW, COMPARE_ROW_WIDE, COMPARE_ROW_MARKDOWN };
void compare_pctl_rows(struct buf *b, const struct compare_result *r,
                       const struct compare_pair *p, int m, int how);

/* Appends, per --metric item too few in some group, the line that says so
 * and the -n its verdict needs, wrapped at width (0: never); md: as a
 * markdown quote. */
void compare_pctl_notes(struct buf *b, const struct compare_result *r,
                        int width, bool md);

/* Appends pair i's ",\"percentiles\":[...]" of r (nothing without
 * --metric). */
void compare_pctl_json_pair(struct buf *b, const struct compare_result *r,
                            size_t i);

/* Appends r's ",\"too_few_percentiles\":[...]" (nothing without
 * --metric). */
void compare_pctl_json_result(struct buf *b, const struct compare_result *r);

/* Appends which part of TTFT changed between the pair's groups, from the
 * means of the waterfall's parts ("TTFT mean +40.2 ms: all before the
 * response headers (...); server processing unchanged"). Returns false,
 * appending nothing, when a side has no waterfall (older traces). */
bool compare_waterfall_line(struct buf *b, const struct compare_pair *p);

/* "real", "noise", "too few", "n/a". */
const char *compare_verdict_name(enum compare_verdict v);

/* Appends the one-line verdict of a pair ("model-a / short-short: TTFT p50
 * +45.2 ms (+38%, CI [+40.1, +50.3]) slower — real; TPOT noise; ..."). */
void compare_verdict_line(struct buf *b, const struct compare_pair *p);

/* The same without the group name (" TTFT p50 ...; TPOT noise"): nothing
 * in it comes from the trace. */
void compare_verdict_text(struct buf *b, const struct compare_pair *p);

/* The output formats: n results (one per NEW) of the same base. Return 0,
 * or -1 when out could not be written. The table is the narrow one
 * (compare_write_narrow) at a width below COMPARE_WIDE_AT, else (and at
 * width 0, --wide) the full one with p90. */
#define COMPARE_WIDE_AT 120
int compare_write_table(FILE *out, const struct compare_result *r, size_t n,
                        uint64_t seed, int width);

/* Appends the one-line verdict of r: of its groups how many got slower,
 * faster, both (mixed), neither, or had too few requests, from the real
 * p50 and p99 verdicts of the times (compare_text.c); under 80 columns. */
void compare_overall_line(struct buf *b, const struct compare_result *r);

/* Appends r as the narrow table (after its verdict and sides): the
 * method, the caveats, then per group p50
 * and p99 rows with their intervals and verdicts, every line of the
 * analyzer's own words wrapped at width (compare_text.c). */
void compare_write_narrow(struct buf *b, const struct compare_result *r,
                          uint64_t seed, int width);
int compare_write_markdown(FILE *out, const struct compare_result *r, size_t n,
                           uint64_t seed);
/* shard_check: a JSON value written as member "shard_check" (the
 * command's shard check, analyze/cmd/shard_gate.h); NULL: none. */
int compare_write_json(FILE *out, const struct compare_result *r, size_t n,
                       uint64_t seed, const char *shard_check);

#endif
