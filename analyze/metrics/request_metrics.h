/* request_metrics: the per-request numbers of docs/metrics.md, computed
 * offline from a trace's request, chunk and result records. */
#ifndef TT_REQUEST_METRICS_H
#define TT_REQUEST_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace.h"

/* Where output token counts come from (--tokens). */
enum token_mode {
    TOKENS_AUTO,   /* usage when the stream reports it, else token events */
    TOKENS_USAGE,  /* usage only: requests without usage have no count */
    TOKENS_CHUNKS, /* token events (chunks carrying text) */
};

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
    int64_t mono_zero_ns;
    int64_t real_zero_ns;
    /* The recorder's own event-loop lateness, from the footer (ns; -1 and
     * 0 samples when the trace has none). */
    int64_t loop_lag_p50_ns, loop_lag_p99_ns, loop_lag_max_ns;
    uint64_t loop_lag_samples;
    bool has_footer;
    bool interrupted;
    char *footer_reason;
    char *damage; /* the reader's error message when the file is damaged */
    uint64_t requests, chunks, bytes;
    uint64_t retried; /* attempts superseded by a retry (--retry) */
    int64_t first_start_ns, last_end_ns; /* span of the run */
};

struct request_metrics {
    const struct trace_info *trace;
    uint32_t id;
    const char *x_request_id; /* X-Request-Id sent; NULL when off. Valid
                                 during the callback only */
    const char *model;        /* valid during the callback only */
    const char *class_name;   /* declared class */
    const char *measured_class;
    int64_t prompt_index;
    bool warmup;
    uint32_t attempt;       /* 1, or the attempt number of a retry (--retry) */
    uint32_t retry_of;      /* id of the request's first attempt, 0 on it */
    bool superseded;        /* a failed attempt the recorder sent again: not a
                               request of its own (only with with_superseded) */
    bool ok;                /* succeeded: counted in timing distributions */
    const char *error_kind; /* NULL when ok */
    const char *error_message;
    int http_status;
    bool open_loop; /* had a scheduled send time */

    /* Absolute CLOCK_MONOTONIC times (-1 when unknown). */
    int64_t scheduled_ns, start_ns, first_token_ns, first_content_ns,
        last_token_ns, end_ns, stream_end_ns;

    /* Milliseconds; NAN when undefined (e.g. TPOT with < 2 tokens). */
    double ttft_ms;         /* first token event - start */
    double ttft_content_ms; /* first answer (non-reasoning) token - start */
    double server_ttft_ms;  /* first token - request fully sent */
    double tpot_ms;
    double latency_ms;       /* last token event - start */
    double stream_end_ms;    /* [DONE] / end of connection - start */
    double response_ttft_ms; /* open loop: first token - scheduled */
    double response_latency_ms;
    double send_lag_ms;      /* open loop: start - scheduled */
    double tps;              /* output tokens / latency (tokens/s) */
    double tokens_per_chunk; /* usage tokens / token events, NAN unknown */

    int64_t output_tokens;       /* from token_source; -1 unknown */
    const char *token_source;    /* "usage" or "chunks" */
    int64_t usage_output_tokens; /* -1 when the stream reported none */
    int64_t token_events;
    int64_t reasoning_events;
    int64_t input_tokens; /* usage prompt tokens, else the estimate */
    bool usage_disagrees; /* usage and token events differ */

    /* Gaps between consecutive token events, ms (n_itl = events - 1). Valid
     * during the callback only. */
    const double *itl_ms;
    size_t n_itl;
};

/* Called once per request, in the order requests end in the trace (then
 * unfinished ones at the end of each trace). A request the recorder retried
 * (--retry) is its last attempt; the attempts before it are superseded and
 * reach the sink only with load_options.with_superseded. Return 0 to go
 * on. */
typedef int (*request_sink)(void *ctx, const struct request_metrics *m);

/* Called once per trace after its last request. May be NULL. */
typedef void (*trace_sink)(void *ctx, const struct trace_info *t);

struct load_options {
    enum token_mode tokens;
    bool classify_measured; /* --classify measured */
    bool with_superseded;   /* also hand superseded attempts to the sink
                               (m->superseded set); else they are only
                               counted in trace_info.retried */
};

/* Reads every trace in path ("-" stdin; concatenated traces are several),
 * computing request metrics and handing them to sink. trace_info structs
 * are appended to *infos (caller frees with load_free_infos). Returns 0
 * when the file read whole, 1 when it was damaged or unreadable (a warning
 * naming the file and offset is printed; what came before is delivered). */
int load_trace_file(const char *path, const struct load_options *opt,
                    request_sink sink, trace_sink tsink, void *ctx,
                    struct trace_info ***infos, size_t *n_infos);

/* Frees what load_trace_file appended. NULL-safe. */
void load_free_infos(struct trace_info **infos, size_t n);

/* Looks up a label of a trace; NULL when absent. */
const char *trace_info_label(const struct trace_info *t, const char *key);

#endif
