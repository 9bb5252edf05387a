/* metrics: the per-request formulas of docs/metrics.md (TTFT, TPOT, ITL,
 * latency, send lag...). Pure: one request's facts in, its numbers out; no
 * I/O, and no memory but the token arrays of the caller's metrics_buf.
 *
 * Ownership: struct request_metrics borrows every pointer it holds. Its
 * token arrays (token_ns, itl_ms) live in the metrics_buf given to
 * metrics_compute and stay valid until the next call on that buf; its
 * strings and trace belong to whoever filled them (the loader: valid during
 * the sink callback only).
 *
 * Times are absolute CLOCK_MONOTONIC ns, -1 when unknown; durations are ms,
 * NAN when undefined. */
#ifndef TT_METRICS_H
#define TT_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stream_events.h"
#include "trace.h"
#include "waterfall.h"

struct trace_info; /* what a trace said about itself (analyze/load/load.h) */

/* Where output token counts come from (--tokens). */
enum token_mode {
    TOKENS_AUTO,   /* usage when the stream reports it, else token events */
    TOKENS_USAGE,  /* usage only: requests without usage have no count */
    TOKENS_CHUNKS, /* token events (chunks carrying text) */
};

/* Error codes (0 is success). */
enum metrics_err {
    METRICS_OK = 0,
    METRICS_E_NOMEM = 1, /* token arrays left out; every other number set */
};

/* Prompt-size thresholds of the measured class (--classify measured):
 * above them a side is "long". */
#define METRICS_LONG_INPUT 1024
#define METRICS_LONG_OUTPUT 256

/* Text bytes per token event from which a stream without usage looks
 * packed (4+ tokens of about 4 bytes per chunk), and the bytes per token
 * of the labelled estimate made from text size. */
#define METRICS_PACKED_BYTES_PER_EVENT 16
#define METRICS_BYTES_PER_TOKEN_EST 4

/* What one request's trace records said: the request, its result and the
 * stream facts of common/stream_events.h. Every field is an input. */
struct metrics_facts {
    bool ok; /* no error kind: timings are measured (else left NAN) */
    enum token_mode token_mode; /* where output_tokens comes from */

    /* The request record. */
    int64_t scheduled_ns;     /* intended send time; -1 closed loop */
    int64_t start_ns;         /* handed to libcurl */
    int64_t input_tokens_est; /* the recorder's estimate; -1 unknown */
    /* --input-tokens / --output-tokens: the lengths asked, -1 none */
    int64_t asked_input_tokens, asked_output_tokens;
    /* the request body's bytes (its images included), -1 unknown */
    int64_t input_bytes;
    int64_t cap_released_ns; /* -r -c: the cap let it go; <= 0 never held */

    /* The result record; has_result false when the trace never had one. */
    bool has_result;
    int64_t end_ns; /* the result's end of transfer */
    /* libcurl phases, ns after start_ns (-1 unknown): the request was fully
     * sent at post-transfer, else (older libcurl) at pre-transfer. */
    int64_t posttransfer_ns, pretransfer_ns;

    /* The stream. */
    const struct stream_token *tokens; /* stored token events, in order */
    size_t n_tokens;                   /* fewer than token_events past the
                                          parser's cap */
    uint64_t token_events;
    uint64_t reasoning_events;
    uint64_t text_bytes; /* generated text of all token events, UTF-8 */
    int64_t first_token_ns, first_content_ns, last_token_ns;
    bool done_seen;       /* [DONE] / message_stop arrived ... */
    int64_t done_ns;      /* ... at this time */
    int64_t last_feed_ns; /* last body bytes: the end of an unfinished one */
    int64_t usage_output_tokens; /* -1 when the stream reported none */
    int64_t usage_input_tokens;  /* -1 likewise; every prompt token, cached
                                    or not (Anthropic's three counts summed) */
    int64_t cached_tokens;       /* of them: read from the server's prompt cache
                                    (usage, else llama.cpp's cache_n, else
                                    derived); -1 unknown */
    bool cached_derived;         /* cached_tokens is usage.prompt_tokens −
                                    timings.prompt_n: the server named no cached
                                    count, but said how many it processed */
    /* The server's own timings (llama.cpp's "timings"), present or not. */
    struct stream_server_timings server;
    uint64_t comments; /* SSE comment lines (keep-alives) */
};

struct request_metrics {
    /* Who the request was: filled by the loader, never by metrics_compute. */
    const struct trace_info *trace;
    uint32_t id;
    const char *x_request_id; /* X-Request-Id sent; NULL when off */
    const char *model;
    const char *class_name; /* declared class */
    int64_t prompt_index;
    bool warmup;
    uint32_t attempt;       /* 1, or the attempt number of a retry (--retry) */
    uint32_t retry_of;      /* id of the request's first attempt, 0 on it */
    bool superseded;        /* a failed attempt the recorder sent again: not a
                               request of its own (only with with_superseded) */
    uint32_t stage;         /* --sweep stage (from 1), 0: none */
    uint32_t session;       /* a session workload's session (from 1), 0: none */
    uint32_t turn;          /* its turn in the session (from 1), 0: none */
    const char *error_kind; /* NULL when ok */
    const char *error_message;
    /* The server's own words about a failure, read from the bytes: the
     * message of an error reply's JSON (or its text), else of the first
     * error inside the stream; one line, at most 200 bytes; NULL when the
     * server said none. */
    const char *server_message;
    int http_status;
    int64_t max_tokens; /* sent in the request; -1 when not sent */
    /* The last finish_reason / stop_reason of the stream, as the server
     * wrote it ("stop", "length", "end_turn"...); NULL when none. */
    const char *finish_reason;
    const struct trace_kv *headers; /* kept response headers (trace.h) */
    size_t n_headers;
    /* The parsed stream itself, for readers that need more than the
     * numbers below (analyze/definitions: peers' definitions). */
    const struct stream_state *stream;

    /* Everything below is set by metrics_compute. */
    bool ok;        /* succeeded: counted in timing distributions */
    bool open_loop; /* had a scheduled send time */
    const char *measured_class;

    /* Absolute CLOCK_MONOTONIC times (-1 when unknown). */
    int64_t scheduled_ns, start_ns, first_token_ns, first_content_ns,
        last_token_ns, end_ns, stream_end_ns;

    /* Milliseconds; NAN when undefined (e.g. TPOT with < 2 tokens). Failed
     * requests keep only stream_end_ms, send_lag_ms and tokens_per_chunk:
     * they stay out of the timing distributions. */
    double ttft_ms;         /* first token event - start */
    double ttft_content_ms; /* first answer (non-reasoning) token - start */
    double server_ttft_ms;  /* first token - request fully sent */
    /* TPOT under coalescing: span / (output_tokens - first_event_tokens);
     * the classic (last - first) / (output_tokens - 1) beside it, for
     * comparison with other tools (biased low when events carry several
     * tokens). */
    double tpot_ms, tpot_classic_ms;
    double first_event_tokens; /* tokens the first event carried (usage and
                                  text share; 1 without coalescing) */
    double latency_ms;         /* last token event - start */
    double stream_end_ms;      /* [DONE] / end of connection - start */
    double response_ttft_ms;   /* open loop: first token - scheduled */
    double response_latency_ms;
    double send_lag_ms; /* open loop: start - scheduled */
    /* Open loop: of send_lag_ms, the wait for a place under the in-flight
     * cap (-r with -c; 0 when it never waited) and the rest, the
     * recorder's own lateness (start - max(scheduled, released)). */
    double cap_wait_ms, client_lag_ms;
    double tps;              /* output tokens / latency (tokens/s) */
    double tokens_per_chunk; /* usage tokens / token events, NAN unknown */

    int64_t output_tokens;       /* from token_source; -1 unknown */
    const char *token_source;    /* "usage" or "chunks" */
    int64_t usage_output_tokens; /* -1 when the stream reported none */
    int64_t token_events;
    int64_t reasoning_events;
    /* Two meanings, kept apart: the server's count (usage prompt tokens,
     * -1 when it reported none, as for most failures) and the recorder's
     * estimate of the prompt (about 4 characters a token, -1 unknown). */
    int64_t input_tokens;
    int64_t input_tokens_est;
    int64_t input_bytes; /* the request body's bytes, -1 unknown */
    /* Of input_tokens, those the server says it read from its prompt
     * cache; -1 when it said nothing. cached_derived: not said but
     * derived, usage.prompt_tokens − timings.prompt_n (llama.cpp builds
     * without a cached field). */
    int64_t cached_tokens;
    bool cached_derived;
    /* Exact lengths (docs/workloads.md): the input and output tokens
     * asked (-1: none), and how far the server's input count is from the
     * asked, |input_tokens - asked| / asked in % (NAN: either missing). */
    int64_t asked_input_tokens, asked_output_tokens;
    double input_error_pct;
    /* Time to the first tool call: the first token event that carried
     * tool-call arguments (OpenAI tool_calls, Anthropic input_json_delta)
     * - start; NAN when the reply called no tool. */
    double first_tool_ms;
    bool usage_disagrees; /* usage and token events differ */
    /* Generated text of all token events (UTF-8 bytes) and its mean
     * per event (NAN without events): a server that packs several tokens
     * into each chunk and reports no usage shows here (about 4 bytes are
     * one token of English text). */
    int64_t text_bytes;
    double text_bytes_per_event;

    /* The server's own account of the request, where the stream carries
     * it (llama.cpp's "timings" object; NAN / -1 otherwise): prompt
     * processing, generation, ms per generated token, the token counts;
     * and what came on top of the prompt processing before the first
     * token reached the client (network, gateway, queue, client): TTFT -
     * server prompt time. */
    double server_prompt_ms, server_decode_ms, server_tpot_ms;
    int64_t server_prompt_n, server_predicted_n, server_cache_n;
    double client_overhead_ms;

    /* Gateway forensics: the share of token-event gaps inside bursts
     * (NAN without gaps), whether the request looks buffered on the way
     * (common/stream_bursts.h, or an ITL p50 below a quarter of the
     * server's own time per token), and the keep-alive comment lines. */
    double burst_share;
    bool buffered;
    int64_t keepalives;

    /* Where the first token's time went (waterfall.h); set by the loader
     * (waterfall_compute), not by metrics_compute. */
    struct waterfall waterfall;

    /* Arrival time of every stored token event, absolute ns, in order
     * (failed requests too). In the metrics_buf. */
    const int64_t *token_ns;
    size_t n_token_ns;
    /* Gaps between consecutive token events, ms (n_itl = n_token_ns - 1;
     * 0 on failed requests). In the metrics_buf. */
    const double *itl_ms;
    size_t n_itl;
    /* The median (type 7, as stats_summarize) and the largest of those
     * gaps; NAN without gaps. */
    double itl_p50_ms, itl_max_ms;
};

/* The token arrays a request_metrics points into, kept by the caller and
 * reused from request to request. Zero it to start; it grows to the
 * largest stream seen (two arrays of n_tokens entries, 16 bytes a token
 * event; the parser caps n_tokens at STREAM_MAX_TOKEN_EVENTS). */
struct metrics_buf {
    int64_t *token_ns;
    double *itl_ms;
    size_t cap; /* entries allocated in each */
};

/* Computes the numbers of one request from f into the metrics fields of m
 * (see the struct), leaving the loader's fields as they are. m->token_ns
 * and m->itl_ms point into buf. Returns METRICS_OK, or METRICS_E_NOMEM when
 * buf could not grow: then the token arrays are empty (n_token_ns = n_itl =
 * 0, itl_p50_ms = itl_max_ms = NAN) and every other number is set. */
int metrics_compute(const struct metrics_facts *f, struct metrics_buf *buf,
                    struct request_metrics *m);

/* Frees buf's arrays and zeroes it. NULL-safe. */
void metrics_buf_free(struct metrics_buf *buf);

/* What became of a request, counted one way by every command (summary,
 * compare, trend, info, plot): ok; interrupted, when the run was stopped
 * while it streamed (error kind "interrupted": the client's doing, neither
 * ok nor a failure of the server); else failed. */
enum metrics_outcome {
    METRICS_OUTCOME_OK,
    METRICS_OUTCOME_FAILED,
    METRICS_OUTCOME_INTERRUPTED,
};

/* m's outcome (m computed by metrics_compute). Can't fail. */
enum metrics_outcome metrics_outcome(const struct request_metrics *m);

#endif
