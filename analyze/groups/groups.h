/* groups: collects request metrics into groups (--by model,class,
 * label:KEY, trace) and an overall group, for summary, compare and trend. */
#ifndef TT_GROUPS_H
#define TT_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "group_index.h"
#include "load.h"
#include "session_waits.h"
#include "stage_window.h"
#include "stats.h"

/* Distributions kept per group. The order is the order of every output. */
enum metric_id {
    M_TTFT,
    M_TTFT_CONTENT,
    M_SERVER_TTFT,
    M_TPOT,
    M_ITL,
    M_LATENCY,
    M_STREAM_END,
    M_OUTPUT_TOKENS,
    M_INPUT_TOKENS,     /* the server's usage */
    M_INPUT_TOKENS_EST, /* the recorder's estimate, where usage is none */
    M_TPS,
    M_REASONING_EVENTS,
    M_TOKENS_PER_CHUNK,
    M_SEND_LAG,
    M_RESPONSE_TTFT,
    M_RESPONSE_LATENCY,
    M_SERVER_PROMPT,   /* the server's own prompt time (llama.cpp timings) */
    M_SERVER_TPOT,     /* the server's own ms per generated token */
    M_CLIENT_OVERHEAD, /* TTFT - server prompt time */
    /* From here on, optional: JSON and CSV show them only when the group
     * has values (metric_optional), so outputs without them stay as they
     * were. */
    M_CACHED_TOKENS,      /* input tokens the server read from its cache */
    M_FIRST_TOOL,         /* time to the first tool call */
    M_ASKED_INPUT_TOKENS, /* --input-tokens: the input tokens asked */
    M_INPUT_ERROR_PCT,    /* |usage input - asked| / asked, % */
    /* Where TTFT went (analyze/metrics/waterfall.h): requests with
     * libcurl's phases only. */
    M_WF_CLIENT,        /* libcurl's start and its own setup */
    M_WF_NETWORK,       /* DNS, connect, TLS, upload, one RTT */
    M_WF_SERVER,        /* server-reported processing */
    M_WF_GATEWAY,       /* before the headers, accounted for by none */
    M_WF_AFTER_HEADERS, /* headers -> first token */
    M_WF_UNACCOUNTED,   /* TTFT - client - network - server */
    M_TCP_RTT,          /* the kernel's smoothed RTT of the connection */
    /* tokentrace-proxy traces: the time inside the proxy before the
     * request went upstream, and for the first token's chunk */
    M_WF_PROXY_IN,
    M_WF_PROXY_OUT,
    M_INPUT_BYTES, /* the request body's bytes (images included) */
    M_COUNT
};

/* True for the metrics (M_CACHED_TOKENS on) that JSON and CSV outputs
 * leave out when a group has no value of them. */
#define metric_optional(m) ((m) >= M_CACHED_TOKENS)

struct metric_def {
    const char *json_key; /* key in summary --format json ("ttft_ms") */
    const char *title;    /* row title in tables ("TTFT") */
    const char *unit;     /* "ms", "tokens", "tok/s", "" */
    bool open_loop_only;  /* shown only when the group has open-loop data */
};

extern const struct metric_def metric_defs[M_COUNT];

#define GROUP_MAX_DIMS 4

enum group_dim {
    DIM_MODEL,
    DIM_CLASS,
    DIM_LABEL,
    DIM_TRACE,
    DIM_STAGE,
    DIM_HEADER,
    DIM_TURN /* a session's turn index (docs/workloads.md) */
};

struct group_by {
    enum group_dim dims[GROUP_MAX_DIMS];
    char *label_keys[GROUP_MAX_DIMS]; /* DIM_LABEL's key, DIM_HEADER's name */
    size_t n;
    bool measured_class; /* DIM_CLASS uses the measured class */
};

/* --slo thresholds in ms (NAN when not set). */
struct slo {
    double ttft_ms, tpot_ms, latency_ms, itl_ms;
    bool any;
};

/* Categories of how a request ended (group.finish[]). */
enum finish_kind {
    FINISH_STOP,       /* stop, end_turn, stop_sequence, eos */
    FINISH_LENGTH,     /* length, max_tokens */
    FINISH_TOOL_CALLS, /* tool_calls, tool_use, function_call */
    FINISH_OTHER,      /* any other value (content_filter, ...) */
    FINISH_NONE,       /* ok, but the server named no reason */
    FINISH_ERROR,      /* failed (interrupted ones are not counted) */
    FINISH_COUNT
};

/* The names of enum finish_kind ("stop", "length", ...). */
extern const char *const finish_kind_names[FINISH_COUNT];

struct error_count {
    char *kind;
    uint64_t n;
    /* What the first failure of the kind said: the server's own words
     * (server true) when it said any, else the recorder's message; NULL
     * when neither. */
    char *message;
    bool server;
};

struct group {
    char *keys[GROUP_MAX_DIMS]; /* values, one per dim */
    /* Sort rank of keys[i] (the class order for a class key, else 0): what
     * group_set_sort needs besides the keys, so it sorts without context. */
    int64_t key_rank[GROUP_MAX_DIMS];
    size_t n_keys;
    uint64_t requests; /* non-warmup requests */
    uint64_t ok;
    /* Of requests: stopped by the recorder (Ctrl-C, SIGTERM: error kind
     * interrupted), neither ok nor failed, not in errors. Failed requests
     * are requests - ok - interrupted. */
    uint64_t interrupted;
    uint64_t warmup;  /* excluded */
    uint64_t retried; /* attempts superseded by a retry: not requests */
    uint64_t src_usage, src_chunks, usage_disagree;
    /* Of the ok requests whose usage and token events disagree: their
     * usage output tokens and token events, summed (how far apart). */
    uint64_t disagree_usage_tokens, disagree_events;
    /* How requests ended (finish_reason / stop_reason, by category):
     * FINISH_* counts of the group's requests. */
    uint64_t finish[6];
    /* --ignore-eos runs: ok requests that stopped before the max_tokens
     * they asked for. */
    uint64_t ignore_eos_ok, ignore_eos_early;
    /* Ok requests without usage whose chunks carry many text bytes each
     * (METRICS_PACKED_BYTES_PER_EVENT): token counts from chunks are low. */
    uint64_t packed_no_usage, packed_text_bytes;
    uint64_t buffered; /* successful requests that look gateway-buffered */
    uint64_t cached_derived; /* ok requests whose cached tokens were
                                derived (metrics.h) */
    uint64_t slo_met;
    uint64_t output_tokens_total;
    struct error_count *errors;
    size_t n_errors;
    struct stats_vec v[M_COUNT];
    struct stats_summary sum[M_COUNT]; /* filled by group_set_summarize */
    /* Values v[] refused (its cap, or out of memory): not in sum[].n. */
    uint64_t dropped[M_COUNT];
    bool out_of_memory; /* some of dropped[] were for lack of memory */
    bool open_loop;
    /* Requests of a stage's ramp-up or drain (group_set.window): left out
     * of every count and distribution above, or with keep_transient in
     * them and counted here too. */
    uint64_t transient;
};

struct group_set {
    struct group_by by;
    struct slo slo;
    struct group **groups;
    size_t n_groups;
    struct group overall;
    struct trace_info **traces;
    size_t n_traces;
    size_t value_limit; /* cap of each distribution (group_set_limit_values) */
    struct group_index index; /* groups by key, error kinds by group */
    /* Each trace's own ITL (by trace index): its ok requests' ITL
     * medians, and their median once summarized (NAN: none); and the
     * trace's own counts and send lag, for the per-shard table. */
    struct trace_itl {
        struct stats_vec v;
        double p50;
        uint64_t requests, failed; /* measured (no warmup, no superseded);
                                      failed: neither ok nor interrupted */
        struct stats_vec lag;      /* open loop: send lag ms */
        double lag_p50, lag_p99;   /* NAN: none */
    } * trace_itl;
    size_t n_trace_itl;
    /* The stages' transient requests (owned, malloc'd, freed by
     * group_set_free; NULL: none marked), and whether they stay in
     * (--include-transient) or are left out. */
    struct stage_window *window;
    bool keep_transient;
    /* What the transient requests left out (not keep_transient) would
     * have added: the requests and their output tokens. The server's
     * counters count them, so its block adds them back to compare like
     * with like. */
    uint64_t left_out_requests, left_out_output_tokens;
    /* Session workloads: each session's total wait (session_waits.h). */
    struct session_waits sessions;
};

/* The typical ITL of trace index i alone, in ms: the median of its ok
 * requests' ITL medians (after group_set_summarize); NAN when it has
 * none. Multi-trace decisions about one trace use this, not the pooled
 * ITL of every trace. */
double group_set_trace_itl_p50(const struct group_set *set, unsigned i);

/* Trace index i's own facts (after group_set_summarize), or NULL when it
 * handed no request. */
const struct trace_itl *group_set_trace_own(const struct group_set *set,
                                            unsigned i);

/* The group whose key values (one per --by dimension, in order) are vals,
 * or NULL (also when n is not the set's number of dimensions). Constant
 * time. */
const struct group *group_set_find(const struct group_set *set,
                                   const char *const *vals, size_t n);

/* The group request m was added to (its key values under the set's
 * --by), or NULL when there is none yet. Constant time. */
const struct group *group_set_group_of(const struct group_set *set,
                                       const struct request_metrics *m);

/* Parses "--by" ("model,class", "label:week,model", "trace", "stage":
 * a sweep's stages, named by their load; "header:x-served-by": a kept
 * response header, case-insensitive). Returns 0, or -1 with a one-line
 * reason in err. */
int group_by_parse(const char *spec, struct group_by *by, char *err,
                   size_t err_size);

/* Parses "--slo ttft=500ms,tpot=50ms" (units ns, us, ms, s). Returns 0 or -1
 * with a reason in err. */
int slo_parse(const char *spec, struct slo *slo, char *err, size_t err_size);

/* Initializes an empty set that takes ownership of by's strings. */
void group_set_init(struct group_set *set, const struct group_by *by,
                    const struct slo *slo);

/* Caps every distribution of the set at limit values (0: the default,
 * STATS_VEC_DEFAULT_LIMIT). Call before the first group_set_add. */
void group_set_limit_values(struct group_set *set, size_t limit);

/* Adds one request (a request_sink); a superseded attempt only counts in
 * retried. A value a distribution refuses (at its cap, or out of memory) is
 * counted in the group's dropped[]. Returns 0 (or -1 out of memory). */
int group_set_add(void *set, const struct request_metrics *m);

/* Computes every group's distributions (sorts the vectors in place), and
 * warns on stderr, per group and metric, of values dropped at a cap. */
void group_set_summarize(struct group_set *set);

/* Orders prompt class names canonically: short-short, short-long,
 * long-short, then any others alphabetically (strcmp-style result). */
int class_name_cmp(const char *a, const char *b);

/* Sorts groups by their keys so output is deterministic: class keys in
 * class_name_cmp order, every other key alphabetically. */
void group_set_sort(struct group_set *set);

/* Describes a group's keys as "model-a / short-short" into out. */
void group_describe(const struct group *g, char *out, size_t size);

/* Name of dimension i of the set ("model", "class", "label:week", "trace"). */
const char *group_dim_name(const struct group_set *set, size_t i, char *tmp,
                           size_t tmp_size);

/* The token source of a group: "usage", "chunks" or "mixed". */
const char *group_token_source(const struct group *g);

/* g's failed requests: neither ok nor interrupted. */
uint64_t group_failed(const struct group *g);

/* g's requests that ran to their end (ok or failed, not interrupted):
 * goodput's denominator. */
uint64_t group_finished(const struct group *g);

/* Wall span of all runs in seconds: the union of the traces' measured
 * intervals (warmup left out) on the real clock, so traces recorded at the
 * same time count once (analyze/metrics/run_span.h); NAN when unknown. */
double group_set_wall_s(const struct group_set *set);

/* Loads every path into the set (warnings for damaged files), superseded
 * attempts included (counted as retried). Returns 0 when all read whole, 1
 * when any was damaged or missing. */
int group_set_load(struct group_set *set, char **paths, size_t n_paths,
                   const struct load_options *opt);

/* Frees everything. */
void group_set_free(struct group_set *set);

#endif
