/* progress: the live status line on stderr ("\r" redrawn, at most 4 times a
 * second) with done/total, errors, requests in flight, stalled streams
 * (when any), retries (when any), a live TTFT p50, the elapsed time, the
 * completion rate and an ETA. It fits the terminal's width: fields are
 * dropped from the right rather than wrapped (a wrapped line leaves a stale
 * row at every redraw). With two or more models (-m a,b) the TTFT p50 is
 * each model's ("TTFT p50 a 90 ms, b 400 ms, +2 more"), not one of them
 * all. Its memory is fixed however long the run: the TTFT samples are
 * counted in log-bucket histograms (the run's, and one per model allocated
 * at the start), not kept. */
#ifndef TT_RECORD_PROGRESS_H
#define TT_RECORD_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct run_outcome;
struct transfer;

/* TTFT histogram: bucket i holds [MIN * GROWTH^i, MIN * GROWTH^(i+1)) ms;
 * values below 1 us fall in the first bucket, values above ~5.8 h in the
 * last. A bucket is reported as its geometric middle, so the p50 is within
 * sqrt(1.02) - 1 < 1% (relative) of the exact median of the samples. */
#define PROGRESS_TTFT_MIN_MS 0.001
#define PROGRESS_TTFT_GROWTH 1.02
#define PROGRESS_TTFT_BUCKETS 1200
#define PROGRESS_TTFT_REL_ERR 0.01

/* A stream with no byte for this long is counted as stalled. */
#define PROGRESS_STALL_NS 5000000000LL

struct progress {
    bool enabled;
    bool drawn; /* a line is on screen */
    int64_t last_draw_ns;
    int64_t start_ns;
    uint64_t total;      /* UINT64_MAX: unbounded */
    uint64_t planned;    /* expected count when total is unbounded (rate x
                            duration), UINT64_MAX: none */
    int64_t plan_end_ns; /* when the schedule ends (open loop, --duration),
                            -1: ends when total is done */
    uint64_t done;
    uint64_t errors;
    uint64_t in_flight;
    uint64_t retries; /* attempts sent again (--retry) */
    uint64_t waiting; /* requests waiting for their next attempt */
    uint64_t stalled; /* in flight, no byte for >= PROGRESS_STALL_NS */
    bool finished;    /* the final line: no ETA */
    uint64_t n_ttft;  /* live TTFT samples counted */
    uint64_t ttft_hist[PROGRESS_TTFT_BUCKETS];
    /* Per model (progress_set_models), n_models of each; NULL: one. */
    size_t n_models;
    char **model_names;   /* terminal-safe copies */
    uint64_t *model_n;    /* samples per model */
    uint64_t *model_hist; /* model i's buckets at i * PROGRESS_TTFT_BUCKETS */
};

/* Starts a progress display; it only ever draws when enabled. */
void progress_init(struct progress *p, bool enabled, uint64_t total,
                   int64_t start_ns);

/* Tells the line how the run ends, for its ETA: planned is the expected
 * count when total is unbounded (UINT64_MAX: none), plan_end_ns the time
 * the schedule ends (-1: when total is done). */
void progress_set_plan(struct progress *p, uint64_t planned,
                       int64_t plan_end_ns);

/* Counts a live TTFT sample (first token time - start), in ns. Constant
 * time, no allocation. */
void progress_add_ttft(struct progress *p, int64_t ttft_ns);

/* With n >= 2 models (names, the run's -m order): one histogram each, so
 * the line shows each model's p50. Returns 0, or -1 out of memory: then
 * the line shows the run's p50 labelled "all models". progress_free
 * releases them. */
int progress_set_models(struct progress *p, const char *const *names, size_t n);

/* Counts a live TTFT sample of model index model (progress_set_models's
 * order) in the run's histogram and in the model's (when it has one). */
void progress_add_model_ttft(struct progress *p, size_t model, int64_t ttft_ns);

/* Model model's p50 in ms as progress_ttft_p50, -1 when it has none. */
double progress_model_ttft_p50(const struct progress *p, size_t model);

/* Frees what progress_set_models allocated (safe on a zeroed one). */
void progress_free(struct progress *p);

/* Redraws the line if enabled and 250 ms passed since the last draw (or
 * force). */
void progress_draw(struct progress *p, int64_t now_ns, bool force);

/* Writes the line's text for now_ns (no "\r", no erase) into out (cap
 * bytes, always terminated), at most columns - 1 characters wide (the last
 * column would wrap on some terminals): whole fields are dropped from the
 * right, the first is cut when even it does not fit. Returns its length. */
size_t progress_format(const struct progress *p, int64_t now_ns, int columns,
                       char *out, size_t cap);

/* The width of the terminal on stderr (TIOCGWINSZ), else $COLUMNS, else
 * 80. */
int progress_columns(void);

/* Draws the final state and ends the line (when enabled). */
void progress_finish(struct progress *p, int64_t now_ns);

/* The median of the samples in ms (within PROGRESS_TTFT_REL_ERR of the
 * exact one, interpolated like the analyzer's), or -1 when there are
 * none. */
double progress_ttft_p50(const struct progress *p);

/* Feeding the line the run's facts (it decides nothing): */

/* Counts t's first token (a fact transfer.c keeps) on p, once. */
void progress_take_ttft(struct progress *p, struct transfer *t);

/* Brings p up to date before it is drawn at now_ns: the first tokens of
 * the attempts in flight (the list from inflight, n_inflight long), the
 * streams with no byte for PROGRESS_STALL_NS, the counts of out, the
 * requests waiting to retry. */
void progress_update(struct progress *p, struct transfer *inflight,
                     uint64_t n_inflight, uint64_t waiting,
                     const struct run_outcome *out, int64_t now_ns);

#endif
