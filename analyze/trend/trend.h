/* trend: p50/p99 of TTFT, TPOT and latency per period (ISO week or day, UTC,
 * of each request's wall-clock start) x model x class x API kind, over many
 * traces: the table behind week-over-week charts. */
#ifndef TT_TREND_H
#define TT_TREND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "buf.h"
#include "group_index.h"
#include "load.h"
#include "stats.h"

enum trend_metric { TR_TTFT, TR_TPOT, TR_LATENCY, TR_COUNT };

struct trend_metric_def {
    const char *key;   /* "ttft_ms" */
    const char *title; /* "TTFT" */
};

extern const struct trend_metric_def trend_metrics[TR_COUNT];

struct trend_row {
    char *period; /* "2026-W48", "2026-11-30" or "unknown" */
    char *model, *class_name;
    /* The API kind of its traces ("openai-chat"): chat and completions
     * runs of one model are two rows, never merged. */
    char *api;
    uint64_t requests, ok; /* warmup excluded */
    uint64_t interrupted;  /* the run was stopped while they streamed:
                              not failed (metrics_outcome) */
    unsigned *traces;      /* indexes of the traces contributing */
    size_t n_traces;
    struct stats_vec v[TR_COUNT];
    struct stats_summary sum[TR_COUNT]; /* filled by trend_finish */
};

struct trend_set {
    bool by_week;
    bool measured_class;
    struct trend_row **rows; /* sorted by period, model, class after finish */
    size_t n_rows;
    struct trace_info **traces; /* in reading order (index order) */
    size_t n_traces;
    struct trace_info **by_time; /* the same, by recording time */
    struct trend_row *last;      /* lookup cache */
    struct group_index index;    /* rows by period, model, class, API */
    bool mixed_api; /* rows of more than one API kind (trend_finish) */
    bool nomem;     /* a request could not be stored */
};

/* Initializes an empty set. Cannot fail. */
void trend_init(struct trend_set *set, bool by_week, bool measured_class);

/* Reads every path into the set. Returns 0, 1 when a file was damaged or
 * unreadable (warned; what came before is kept), or -1 out of memory. */
int trend_load(struct trend_set *set, char **paths, size_t n_paths,
               const struct load_options *opt);

/* Sorts rows and traces and computes the percentiles. Returns 0 or -1 out
 * of memory. */
int trend_finish(struct trend_set *set);

/* Frees everything. */
void trend_free(struct trend_set *set);

/* r's failed requests: neither ok nor interrupted (as summary counts). */
uint64_t trend_row_failed(const struct trend_row *r);

/* The order of series (model, then class, then API kind) of rows a and
 * b: < 0, 0 (one series) or > 0. */
int trend_series_cmp(const struct trend_row *a, const struct trend_row *b);

/* For every rows[i], the latest row before it of its series (rows are
 * sorted by period first), NULL when none: an array of n_rows the caller
 * frees, found in O(n log n); NULL out of memory. */
const struct trend_row **trend_previous_all(const struct trend_set *set);

/* The change in % of metric m's percentile q (50 or 99) from prev to r;
 * NaN when either has none or prev's is 0. */
double trend_change_pct(const struct trend_row *r, const struct trend_row *prev,
                        int m, int q);

/* Output formats. Return 0 or -1 when out could not be written. The
 * table is the narrow one (trend_text.c: a block per model x class, a row
 * per period with the change from the previous one, wrapped at width)
 * when width is from 1 to 119, else (0: --wide) the full one. */
int trend_write_table(FILE *out, const struct trend_set *set, int width);

/* Appends the narrow table's blocks of set (trend_text.c). */
void trend_write_narrow(struct buf *b, const struct trend_set *set);

/* Appends the one-line verdict of set, wrapped at width (0: never): over
 * each model x class's latest period against the one before, in how many
 * TTFT p50 rose or fell by 10 % or more (the HTML report marks the same),
 * and the largest change (trend_text.c). */
void trend_verdict_line(struct buf *b, const struct trend_set *set, int width);
int trend_write_markdown(FILE *out, const struct trend_set *set);
int trend_write_csv(FILE *out, const struct trend_set *set);
/* shard_check: a JSON value written as member "shard_check" (the
 * command's shard check, analyze/cmd/shard_gate.h); NULL: none. */
int trend_write_json(FILE *out, const struct trend_set *set,
                     const char *shard_check);

#endif
