/* server_sample: one --server-metrics scrape of a trace (a kind 7 record's
 * kept lines) read into the quantities that matter, server-neutral
 * (common/server_metric_names.h): gauges summed over their series (KV-cache
 * use: the largest), counters summed, histograms summed bucket by bucket
 * over their series. A series of samples per URL is kept per trace
 * (trace_info.server). Pure: text in, numbers out. */
#ifndef TT_SERVER_SAMPLE_H
#define TT_SERVER_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "server_metric_names.h"
#include "trace.h"

/* Most buckets kept of one histogram (TGI has 100 for token counts). */
#define SERVER_MAX_BUCKETS 256

/* A histogram's cumulative buckets (le ascending, the last +Inf when the
 * server sent it), sum and count, summed over its series. */
struct server_hist {
    size_t n;
    double *le;  /* owned */
    double *cum; /* owned: observations <= le[i] */
    double sum, count;
};

struct server_sample {
    int64_t start_ns, end_ns;
    bool ok; /* the scrape worked (no error kind) */
    bool has[SQ_COUNT];
    double value[SQ_COUNT]; /* gauges and counters */
    /* the family each quantity came from (the first of the table a page
     * has), NULL when absent */
    const struct server_metric *src[SQ_COUNT];
    struct server_hist hist[SQ_COUNT]; /* histogram quantities */
    uint64_t bad_lines;                /* kept lines that did not parse */
};

/* The samples of one URL in a trace, in the order recorded. */
struct server_series {
    char *url;    /* owned */
    char *server; /* "vllm", "sglang", "tgi", "llamacpp", or "" */
    struct server_sample *s;
    size_t n, cap;
    uint64_t failed;       /* scrapes with an error kind */
    char first_error[160]; /* "http_500: HTTP 500" of the first, "" none */
    uint64_t truncated;    /* scrapes whose kept lines were cut */
};

/* Every URL's series of a trace. */
struct server_metrics {
    struct server_series *series;
    size_t n;
};

/* Reads record m into a new sample of its URL's series in *sm. Returns 0,
 * or -1 out of memory (the sample is left out). Never fails on bad text:
 * lines that do not parse are counted (bad_lines). */
int server_metrics_add(struct server_metrics *sm,
                       const struct trace_server_metrics *m);

/* Frees what server_metrics_add made. NULL-safe. */
void server_metrics_free(struct server_metrics *sm);

/* Parses a whole page of text into *out (times -1, ok true). Returns 0 or
 * -1 out of memory. Free with server_sample_free. */
int server_sample_parse(const char *text, size_t len,
                        struct server_sample *out);

/* Frees a sample's histograms. NULL-safe. */
void server_sample_free(struct server_sample *s);

#endif
