/* load: streams trace files through the SSE/token parser and hands out one
 * request_metrics (analyze/metrics/metrics.h) per request, and one
 * trace_info per trace read. */
#ifndef TT_LOAD_H
#define TT_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrics.h"
#include "phase_runs.h"
#include "server_sample.h"
#include "trace.h"

/* One stage of a sweep, from its stage records (docs/capacity.md): the
 * one written when it began, then the one written when it ended. */
struct stage_info {
    uint32_t id;
    char mode[16]; /* "concurrency", "rate", or "" when unknown */
    double load;
    int64_t start_ns, end_ns; /* end -1 while only the first is read */
    uint64_t sent;
    int64_t loop_lag_p50_ns, loop_lag_p99_ns, loop_lag_max_ns;
    uint64_t loop_lag_samples;
    int64_t cpu_ns;  /* recorder CPU time during the stage, -1 unknown */
    int64_t ramp_ns; /* --ramp of the stage, 0 none */
};

#define LOAD_PROXY_SAMPLES ((size_t)1 << 20)

/* What one trace said about itself, kept for every trace read. */
struct trace_info {
    unsigned index; /* position among all traces read, from 0 */
    char *file;     /* the file it came from ("<stdin>") */
    char *trace_id;
    char *api;
    char *endpoint;
    char *host;
    char *tool_version;
    uint32_t format_version; /* the header's trace format version */
    char *workload;
    char **models;
    size_t n_models;
    struct trace_kv *labels; /* owned copies */
    size_t n_labels;
    struct trace_kv *options;
    size_t n_options;
    struct trace_kv *shared; /* what `share` did; n_shared 0: a recording */
    size_t n_shared;
    int64_t mono_zero_ns;
    int64_t real_zero_ns;
    /* The recorder's own event-loop lateness, from the footer (ns; -1 and
     * 0 samples when the trace has none). */
    int64_t loop_lag_p50_ns, loop_lag_p99_ns, loop_lag_max_ns;
    uint64_t loop_lag_samples;
    /* The cross-CPU wake-up probe, from the footer (the same; newer
     * traces only). */
    int64_t wake_probe_p50_ns, wake_probe_p99_ns, wake_probe_max_ns;
    uint64_t wake_probe_samples;
    /* Chunks stamped with the kernel's receive time (header option
     * chunk_time=kernel): how long after it libcurl handed them over, from
     * the footer (the same; newer traces only). */
    int64_t receive_lag_p50_ns, receive_lag_p99_ns, receive_lag_max_ns;
    uint64_t receive_lag_samples;
    /* Chunks of many streams received together (phase_runs.h): when most
     * are, the self-check above cannot be trusted. */
    struct phase_runs phase;
    bool has_footer;
    bool interrupted;
    char *footer_reason;
    /* --keep-awake auto's footer (docs/trace-format.md): the mode at the
     * end (NULL: not auto, or an older trace) and the changes */
    char *keep_awake_end;
    uint64_t keep_awake_changes;
    /* tokentrace-proxy's cap that stopped the recording (NULL: none) and
     * the requests it forwarded unrecorded after it */
    char *recording_stopped;
    uint64_t unrecorded;
    char *damage; /* the reader's error message when the file is damaged */
    uint64_t requests, chunks, bytes;
    uint64_t retried; /* attempts superseded by a retry (--retry) */
    int64_t first_start_ns, last_end_ns; /* span of the run */
    /* Span of the measured requests (warmup left out, retried attempts
     * in), monotonic ns; -1 when the trace has none. */
    int64_t measured_start_ns, measured_end_ns;
    /* tokentrace-proxy traces: the time each chunk spent inside the proxy
     * (received from the upstream to on the client's socket), from the
     * handed records; proxy_chunks 0 (and -1 times) for other traces.
     * Percentiles over the first LOAD_PROXY_SAMPLES chunks, the max over
     * all. */
    uint64_t proxy_chunks;
    int64_t proxy_p50_ns, proxy_p99_ns, proxy_max_ns;
    struct stage_info *stages; /* in the order first seen */
    size_t n_stages;
    /* --server-metrics: the scrapes, per URL (n 0: none); samples left
     * out for lack of memory are counted */
    struct server_metrics server;
    uint64_t server_lost;
};

/* Called once per request, in the order requests end in the trace (then
 * unfinished ones at the end of each trace). A request the recorder retried
 * (--retry) is its last attempt; the attempts before it are superseded and
 * reach the sink only with load_options.with_superseded. m and everything
 * it points to are valid during the call only. Return 0 to go on. */
typedef int (*request_sink)(void *ctx, const struct request_metrics *m);

/* Called once per trace after its last request. May be NULL. */
typedef void (*trace_sink)(void *ctx, const struct trace_info *t);

struct load_options {
    enum token_mode tokens;
    bool classify_measured; /* --classify measured */
    bool with_superseded;   /* also hand superseded attempts to the sink
                               (m->superseded set); else they are only
                               counted in trace_info.retried */
    /* --keep-repeated: read every copy of a repeated trace. Else a trace
     * already read (same trace id and both clock zeros: `a a`, `cat a a`)
     * is skipped with a warning, so it is counted once. */
    bool keep_repeated;
};

/* Reads every trace in path ("-" stdin; concatenated traces are several),
 * computing request metrics and handing them to sink. trace_info structs
 * are appended to *infos (caller frees with load_free_infos). Returns 0
 * when the file read whole, 1 when it was damaged or unreadable (a warning
 * naming the file and offset is printed; what came before is delivered). */
int load_trace_file(const char *path, const struct load_options *opt,
                    request_sink sink, trace_sink tsink, void *ctx,
                    struct trace_info ***infos, size_t *n_infos);

/* load_trace_file over paths[0..n_paths), in order, as one input: a trace
 * repeated anywhere in them is read once (unless opt->keep_repeated).
 * Returns the OR of the files' results. */
int load_trace_files(char *const *paths, size_t n_paths,
                     const struct load_options *opt, request_sink sink,
                     trace_sink tsink, void *ctx, struct trace_info ***infos,
                     size_t *n_infos);

/* The value of the header option key of t (NULL t, or none: NULL). */
const char *trace_info_option(const struct trace_info *t, const char *key);

/* Frees what load_trace_file appended. NULL-safe. */
void load_free_infos(struct trace_info **infos, size_t n);

/* The stage of t with that id, or NULL. */
const struct stage_info *trace_info_stage(const struct trace_info *t,
                                          uint32_t id);

/* Writes a stage's name, "concurrency=4" or "rate=2.5" ("stage N" when
 * its record is missing, "(none)" for id 0) into out. */
void stage_info_name(const struct trace_info *t, uint32_t id, char *out,
                     size_t size);

/* Writes the label of a stage as a group shows it: its load and its id,
 * "concurrency=4 #3" (short enough for the table), so two stages of the same
 * load stay two
 * ("stage N" when its record is missing, "(none)" for id 0). */
void stage_info_label(const struct trace_info *t, uint32_t id, char *out,
                      size_t size);

/* Looks up a label of a trace; NULL when absent. */
const char *trace_info_label(const struct trace_info *t, const char *key);

#endif
