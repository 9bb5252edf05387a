/* server_report: one URL's samples against the measured requests' window:
 * which samples bracket it, the gauges over it (min, median, max), the
 * histograms and counters as deltas over it (count, sum, mean, estimated
 * percentiles from the buckets). docs/server-metrics.md, "Analysis". Pure. */
#ifndef TT_SERVER_REPORT_H
#define TT_SERVER_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "server_sample.h"

struct server_gauge {
    size_t n; /* samples with a finite value of the gauge; 0: none */
    double min, median, max;
    size_t nonfinite; /* samples where it was NaN or ±Inf: left out */
};

struct server_delta {
    bool present;            /* both bracketing samples have it */
    bool reset;              /* it went down: a restart, no delta */
    double count, sum, mean; /* histograms (count 0: no observation) */
    double p50, p90, p99;    /* estimated from the buckets, NAN none */
    double value;            /* counters (and token histograms' sum) */
    const char *family;      /* what it was read from */
};

struct server_report {
    const struct server_series *series;
    size_t used;         /* successful samples from start to end sample */
    size_t ok_samples;   /* successful samples in the trace */
    int64_t from_ns;     /* the start sample's end, -1 none */
    int64_t to_ns;       /* the end sample's start, -1 none */
    bool bracketed_from; /* the start sample ended before the window */
    bool bracketed_to;   /* the end sample began after it */
    struct server_gauge gauge[SQ_COUNT]; /* running, waiting, KV use */
    struct server_delta delta[SQ_COUNT]; /* the others */
};

/* Reports series over the window [win_start_ns, win_end_ns] (the
 * measured requests' span; -1 unknown: all samples). A series without a
 * successful sample reports used 0. */
void server_report_make(const struct server_series *series,
                        int64_t win_start_ns, int64_t win_end_ns,
                        struct server_report *out);

/* The q-quantile (0..1) of the observations in cumulative buckets
 * (le[], cum[] of n, ascending) the way Prometheus' histogram_quantile
 * estimates it: linear inside the bucket holding the rank, from 0 for the
 * first bucket (or its bound when that is <= 0); a rank in the +Inf bucket
 * answers the highest finite bound. NAN when there is no observation. */
double server_hist_quantile(const double *le, const double *cum, size_t n,
                            double q);

#endif
