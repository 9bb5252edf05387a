/* capacity: how much load a server takes before an SLO breaks, from a
 * sweep's stages (tokentrace-record --sweep; docs/capacity.md). Requests
 * are collected per stage (capacity_collect.c), each stage's steady-state
 * window, goodput, percentiles and the recorder's own limits are worked
 * out (capacity_calc.c), then the knee and its bootstrap interval
 * (capacity_boot.c); capacity_output.c writes them.
 *
 * Ownership: a cap_set owns its rows and stages; cap_set_free frees them.
 * Times are CLOCK_MONOTONIC ns; durations ms; NAN when undefined. */
#ifndef TT_CAPACITY_H
#define TT_CAPACITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "groups.h"
#include "load.h"
#include "stats.h"

/* Rows kept at most (one per request, ~80 bytes). */
#define CAP_MAX_ROWS ((size_t)50 * 1000 * 1000)

/* One request of a stage: what the verdict needs. */
struct cap_row {
    uint32_t trace; /* trace index */
    uint32_t stage;
    bool ok;
    bool met;       /* ok and every SLO limit met (from the intended send) */
    bool transient; /* ramp-up or drain (capacity_calc) */
    int64_t start_ns, end_ns;
    double ttft_ms; /* from the intended send (open loop), else start */
    double tpot_ms;
    double latency_ms; /* likewise */
    double itl_p50_ms;
    double client_lag_ms; /* open loop: the recorder's own lateness */
};

/* The judgement's settings. */
struct cap_options {
    struct slo slo;         /* --slo (at least one limit) */
    double attain;          /* --attain: fraction of requests, 0.99 */
    bool include_transient; /* --include-transient */
    double max_send_lag_ms; /* --max-send-lag: client lag p99 limit */
    double max_cpu;         /* recorder CPU share of one core, 0.9 */
    double loop_lag_share;  /* loop lag p99 vs ITL p50, 0.1 */
    uint64_t seed;          /* bootstrap */
    size_t resamples;       /* bootstrap resamples, 1000 */
};

/* One stage, judged. */
struct cap_stage {
    uint32_t trace, id;
    char name[48];   /* "concurrency=4", "rate=2.5", "stage 3" */
    char mode[16];   /* "concurrency", "rate", "" unknown */
    double load;     /* NAN when unknown */
    size_t first, n; /* its rows in the set */
    uint64_t requests, ok, failed, transient, steady, met;
    int64_t window_start_ns, window_end_ns; /* the window its numbers use */
    int64_t ramp_end_ns; /* --ramp: sends before this are ramp-up, -1 */
    double window_s;
    double achieved_rps; /* ok requests in the window per second */
    double goodput_rps;  /* ... of them meeting the SLO, per second */
    double attainment;   /* met / steady (failures count against) */
    struct stats_summary ttft, tpot, latency;
    double itl_p50_ms;        /* median of the requests' ITL p50 */
    double client_lag_p99_ms; /* NAN in a closed loop */
    double loop_lag_p99_ms;   /* the stage record's; NAN unknown */
    /* chunk times are the kernel's: the loop's lag is not in them and
     * does not invalidate the stage (only reads merged do) */
    bool kernel_times;
    double cpu_share; /* recorder CPU / stage wall; NAN unknown */
    bool pass;        /* attainment >= attain */
    bool valid;       /* the server, not the client, set the load */
    char invalid_reason[200];
};

struct cap_set {
    struct cap_row *rows;
    size_t n_rows, cap_rows;
    bool rows_dropped; /* CAP_MAX_ROWS or memory ran out */
    struct cap_options opt;
    struct trace_info **traces;
    size_t n_traces;
    uint64_t no_stage;        /* requests outside any stage (not a sweep) */
    struct cap_stage *stages; /* by trace, then load */
    size_t n_stages;
    /* The knee: the heaviest valid stage that passes with every lighter
     * valid stage passing too; -1 when the lightest fails or none is
     * valid. all_pass: no valid stage failed (the knee is at least the
     * heaviest stage). */
    int knee;
    bool all_pass;
    bool mixed_modes; /* concurrency and rate stages together */
    /* Bootstrap: the knee's load over resamples of each stage's requests
     * (2.5% and 97.5%; NAN without a knee), and the knee stage's
     * attainment interval. */
    double knee_lo, knee_hi, attain_lo, attain_hi;
};

/* Starts an empty set judged with opt. Can't fail. */
void cap_set_init(struct cap_set *s, const struct cap_options *opt);

/* The load sink: keeps a request of a stage (warmup left out; one
 * outside any stage is only counted). Returns 0 (a full set is noted in
 * rows_dropped, not an error). */
int cap_collect(void *ctx, const struct request_metrics *m);

/* Sorts the rows and builds the stages: the transient requests, the
 * window, every number, each stage's validity and verdict (needs the
 * traces' stage records in s->traces). Returns 0, or STATS_E_NOMEM. */
int cap_set_judge(struct cap_set *s);

/* The knee and, with opt.resamples, its bootstrap interval. Call after
 * cap_set_judge. Returns 0 or STATS_E_NOMEM. */
int cap_set_knee(struct cap_set *s);

/* Frees rows, stages and the trace infos. NULL-safe. */
void cap_set_free(struct cap_set *s);

/* Writers (capacity_output.c): a table on out, or the JSON document
 * (schema in docs/capacity.md). Return 0 or -1 when out failed. */
int cap_write_table(const struct cap_set *s, FILE *out);
/* shard_check: a JSON value written as member "shard_check" (the
 * command's shard check, analyze/cmd/shard_gate.h); NULL: none. */
int cap_write_json(const struct cap_set *s, FILE *out, const char *shard_check);

#endif
