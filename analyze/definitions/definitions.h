/* definitions: other benchmark tools' published metric definitions (vLLM,
 * SGLang, AIPerf, GuideLLM, LLMPerf, genai-bench) recomputed from the same
 * stream facts tokentrace measures with (docs/definitions.md says where
 * each was read). Pure: one request's facts in, each tool's numbers out;
 * a collector keeps the values per tool and metric for the percentiles.
 *
 * Ownership: defs_facts borrows everything it points to. A defs_collect
 * owns its vectors (defs_collect_free). Durations are ms, NAN when the
 * tool would report none for that request. */
#ifndef TT_DEFINITIONS_H
#define TT_DEFINITIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api_kind.h"
#include "stats.h"
#include "stream_events.h"

enum defs_tool {
    DEFS_TOKENTRACE = 0,
    DEFS_VLLM,
    DEFS_SGLANG,
    DEFS_AIPERF,
    DEFS_GUIDELLM,
    DEFS_LLMPERF,
    DEFS_GENAI_BENCH,
    DEFS_N_TOOLS
};

/* The metric families compared (each tool names them its own way). */
enum defs_metric {
    DEFS_TTFT = 0,
    DEFS_TPOT,
    DEFS_ITL,
    DEFS_E2E,
    DEFS_N_METRICS
};

/* How a tool turns values into percentiles. */
enum defs_percentile {
    DEFS_PCT_LINEAR,       /* numpy's default (Hyndman-Fan type 7) */
    DEFS_PCT_INVERTED_CDF, /* GuideLLM: smallest value whose CDF >= p */
};

struct defs_tool_info {
    const char *name;   /* as given to --as: "vllm" */
    const char *label;  /* "vLLM" */
    const char *source; /* files the definitions were read from */
    enum defs_percentile percentile;
    /* The tool's own name of each metric; NULL when it reports none. */
    const char *metric_name[DEFS_N_METRICS];
    /* How its definition differs from tokentrace's, one line each. */
    const char *why[DEFS_N_METRICS];
    bool itl_pooled; /* ITL = every gap of every request, not one value per
                        request */
    /* API kinds whose streams its client cannot read (a bit per enum
     * api_kind): its numbers leave those requests out, and say so. */
    unsigned cannot_parse;
    /* What makes the tool itself fail a request that tokentrace counts
     * ok, NULL when nothing known does (defs_result.would_fail). */
    const char *fails_when;
};

/* The static description of a tool. t must be < DEFS_N_TOOLS. */
const struct defs_tool_info *defs_tool(enum defs_tool t);

/* Looks a tool up by its --as name. Returns 0 and sets *out, or -1. */
int defs_tool_from_name(const char *name, enum defs_tool *out);

/* What one successful request's trace records said. */
struct defs_facts {
    int64_t start_ns; /* handed to libcurl */
    int64_t end_ns;   /* end of the transfer (the connection's last byte) */
    const struct stream_token *tokens; /* token events in order */
    size_t n_tokens;
    const int64_t *bare_ns; /* events with choices and no text, in order */
    size_t n_bare;
    int64_t usage_output_tokens;      /* -1 none */
    int64_t usage_ns;                 /* arrival of the usage event, -1 none */
    int64_t usage_bare_output_tokens; /* usage from an event without
                                         choices, -1 none */
    int64_t done_ns;                  /* [DONE] / message_stop, -1 none */
    int64_t last_feed_ns;             /* last bytes received */
    int64_t max_tokens;               /* requested, -1 not sent */
    enum api_kind api;                /* the stream's API kind */
    uint64_t json_events;             /* SSE data events that parsed as JSON */
    uint64_t empty_choices;           /* events with "choices": [] */
    /* events with a delta.tool_calls element, their first and last time,
     * and the first and last that named the function (-1 none) */
    uint64_t tool_call_events;
    int64_t tool_call_first_ns, tool_call_last_ns;
    int64_t tool_name_first_ns, tool_name_last_ns;
    /* tokentrace's own numbers (analyze/metrics) and its ITL gaps. */
    double tt_ttft_ms, tt_tpot_ms, tt_latency_ms;
    const double *tt_itl_ms;
    size_t tt_n_itl;
};

/* Zeroes f and fills what the stream of one request says (tokens, bare
 * choice events, usage, [DONE], the last bytes, API kind, tool-call and
 * empty-choices events); the caller sets the request's own times,
 * max_tokens and tokentrace's numbers. f borrows s's arrays. */
void defs_facts_from_stream(const struct stream_state *s, struct defs_facts *f);

/* One tool's numbers for one request. */
struct defs_result {
    double ms[DEFS_N_METRICS]; /* per request; ITL NAN when pooled */
    /* each value's weight in the tool's percentiles (1 but for GuideLLM's
     * token-weighted TPOT and ITL; 0 leaves the value out, as it does) */
    double weight[DEFS_N_METRICS];
    int64_t output_tokens;    /* the count its formulas divide by */
    const char *token_source; /* "usage", "max_tokens", "chunks" */
    bool cannot_parse;        /* the tool cannot read this API kind: no
                                 numbers */
    bool would_fail;          /* the tool itself would fail this request
                                 (defs_tool_info.fails_when) */
};

/* Computes tool t's numbers for f into *r. Pooled ITL gaps (itl_pooled
 * tools) are appended to gaps when it is not NULL. Returns 0, or
 * STATS_E_NOMEM / STATS_E_LIMIT when a gap could not be appended (the
 * other numbers are set). */
int defs_compute(enum defs_tool t, const struct defs_facts *f,
                 struct defs_result *r, struct stats_vec *gaps);

/* Percentiles and mean of one tool's values. */
struct defs_summary {
    size_t n;
    double mean, p50, p90, p99;
};

/* Summarizes n values (NaN skipped) by method, value i weighing w[i]
 * (w NULL: 1 each; only the inverted CDF reads weights, as GuideLLM's
 * from_values does). SORTS v (and w with it) IN PLACE. n = 0 gives NAN
 * everywhere. */
void defs_summarize(double *v, double *w, size_t n, enum defs_percentile method,
                    struct defs_summary *out);

/* Every tool's values over many requests (defs_collect_init). */
struct defs_collect {
    struct stats_vec v[DEFS_N_TOOLS][DEFS_N_METRICS];
    struct stats_vec w[DEFS_N_TOOLS][DEFS_N_METRICS]; /* weights of v */
    uint64_t requests;
    uint64_t role_first; /* requests whose first choices event had no text */
    uint64_t reasoning_first; /* requests whose first text was reasoning */
    uint64_t no_usage;        /* requests without a usage count */
    uint64_t packed;          /* usage tokens above the token events */
    uint64_t lost;            /* values not kept (memory, cap) */
    unsigned apis;            /* API kinds seen, a bit per enum api_kind */
    /* requests whose token count a tool would have taken from elsewhere
     * (a tokenizer, max_tokens, the chunks): see defs_result */
    uint64_t tokens_not_usage[DEFS_N_TOOLS];
    /* requests left out of a tool's numbers: an API kind it cannot read */
    uint64_t cannot_parse[DEFS_N_TOOLS];
    /* requests the tool itself would have failed (still in its numbers,
     * which are what they would have been) */
    uint64_t would_fail[DEFS_N_TOOLS];
};

/* Starts an empty collector. Cannot fail: memory comes with the values. */
void defs_collect_init(struct defs_collect *c);

/* Adds one successful request to every tool's values. Returns 0, or the
 * first stats error (counted in c->lost; the rest is kept). */
int defs_collect_add(struct defs_collect *c, const struct defs_facts *f);

/* Summarizes tool t's metric m. The values are sorted in place. */
void defs_collect_summary(struct defs_collect *c, enum defs_tool t,
                          enum defs_metric m, struct defs_summary *out);

/* Frees the vectors and zeroes c. NULL-safe. */
void defs_collect_free(struct defs_collect *c);

#endif
