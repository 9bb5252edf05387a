/* stream_events: turns one response's SSE events into token events and
 * stream facts (usage, [DONE], errors), per API kind. Pure: bytes and the
 * caller's timestamps in, facts out (docs/metrics.md, "Token events").
 *
 * Ownership: the state owns its token array and parser buffers; reuse one
 * state across requests with stream_state_reset to keep that memory.
 * Times are the caller's CLOCK_MONOTONIC ns; -1 means "none / unknown".
 */
#ifndef TT_STREAM_EVENTS_H
#define TT_STREAM_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api_kind.h"
#include "sse.h"

/* Error codes (0 is success). */
enum stream_err {
    STREAM_OK = 0,
    STREAM_E_NOMEM = 1,
    STREAM_E_TOO_MANY_TOKENS = 2, /* more token (or bare choice) events than
                                     max_token_events */
};

/* Flags of a token event. */
#define STREAM_TOK_REASONING 0x1u /* every piece was reasoning text */
#define STREAM_TOK_TOOL 0x2u      /* carried tool-call argument text */
#define STREAM_TOK_CONTENT                                                     \
    0x4u /* carried answer text (not reasoning, not                            \
            tool-call arguments) */

/* One token event: an SSE event that carried generated text. */
struct stream_token {
    int64_t t_ns;        /* the event's arrival time */
    uint32_t text_bytes; /* bytes of generated text it carried */
    uint16_t pieces;     /* non-empty text fields (one per choice/kind) */
    uint8_t flags;       /* STREAM_TOK_* */
};

/* llama.cpp's own per-request timings (the "timings" object of its last
 * chunk): what the server says it spent. Counts -1 and times NAN when
 * absent. */
struct stream_server_timings {
    bool present;
    int64_t t_ns;        /* arrival of the event that carried it */
    int64_t prompt_n;    /* prompt tokens processed (not cached) */
    double prompt_ms;    /* prompt processing time */
    int64_t predicted_n; /* tokens generated */
    double predicted_ms; /* generation time */
    double predicted_per_token_ms;
    int64_t cache_n; /* prompt tokens taken from the cache */
};

/* Default cap on token events per request: a clear error beyond it. */
#define STREAM_MAX_TOKEN_EVENTS ((size_t)10 * 1000 * 1000)

struct stream_state {
    enum api_kind api;
    struct sse_parser sse;
    size_t max_token_events; /* set by init; the caller may lower it */
    /* Parse every event with cJSON, never with the fast scan
     * (common/stream_scan.h). Set by init from TOKENTRACE_NO_FAST_PATH;
     * the caller may change it; kept by reset. The facts are the same
     * either way: tests/common/stream_scan_test.c compares them. */
    bool slow_json;
    /* Store every token event in tokens (true from init; kept by reset).
     * false: they are only counted (token_events, first/last times, bytes),
     * for a caller that needs the stream's facts but not its token array
     * (the recorder's receive path, common to record/net/stream_rx.h). */
    bool keep_tokens;

    /* Token events, in arrival order (none kept without keep_tokens). */
    struct stream_token *tokens;
    size_t n_tokens;
    size_t tokens_cap;        /* allocated entries */
    int64_t first_token_ns;   /* first token event (content or reasoning) */
    int64_t first_content_ns; /* first token event with non-reasoning text */
    int64_t last_token_ns;
    uint64_t token_events;     /* == n_tokens unless the cap was hit or
                                  keep_tokens is off */
    uint64_t reasoning_events; /* token events with only reasoning text */
    uint64_t text_bytes;       /* generated text, UTF-8 bytes */
    uint64_t text_chars;       /* generated text, UTF-8 code points */
    uint64_t reasoning_bytes;  /* part of text_bytes that was reasoning */

    /* Usage as the server reported it (-1 unknown; the last report wins). */
    int64_t usage_output_tokens;
    int64_t usage_input_tokens;
    int64_t usage_reasoning_tokens;
    /* Prompt caching, as the server reported it (-1 unknown): input tokens
     * read from its cache (OpenAI, vLLM, SGLang
     * usage.prompt_tokens_details.cached_tokens; DeepSeek
     * usage.prompt_cache_hit_tokens; Anthropic cache_read_input_tokens)
     * and, Anthropic only, written to it (cache_creation_input_tokens;
     * Anthropic's input_tokens counts neither). llama.cpp's own form is
     * server_timings.cache_n. */
    int64_t usage_cached_tokens;
    int64_t usage_cache_write_tokens;
    int64_t usage_ns; /* arrival of the last event that carried usage */
    /* OpenAI: completion_tokens of the last usage that came in an event
     * without choices (-1 none): vLLM's benchmark reads usage only there */
    int64_t usage_bare_output_tokens;

    /* OpenAI events with choices but no text (a role-only first chunk, a
     * finish_reason chunk, empty-content chunks; peers' definitions differ
     * on whether they count): how many there were and, with keep_tokens,
     * every one's time (n_bare_ns == bare_choices unless memory or
     * max_token_events ran out: then err is set, as for token events). */
    int64_t *bare_choice_ns;
    size_t n_bare_ns;
    size_t bare_cap; /* allocated entries */
    uint64_t bare_choices;
    /* OpenAI events whose "choices" was an empty array (the usage chunk of
     * stream_options.include_usage): some peers' parsers fail on them. */
    uint64_t empty_choices;
    /* OpenAI events with a delta.tool_calls element (a function name, its
     * argument text, or neither): how many, the first and last; and the
     * first and last whose element named the function (-1 none). Peers
     * differ on whether such a chunk is a token. */
    uint64_t tool_call_events;
    int64_t tool_call_first_ns, tool_call_last_ns;
    int64_t tool_name_first_ns, tool_name_last_ns;

    struct stream_server_timings server_timings; /* llama.cpp */

    /* Stream facts. */
    uint64_t bytes;       /* body bytes fed */
    uint64_t sse_events;  /* SSE events dispatched */
    uint64_t json_events; /* events whose data parsed as JSON */
    uint64_t bad_json;    /* events whose data was not JSON */
    uint64_t comments;    /* comment lines (keep-alives) */
    /* Before the first token event: the first SSE event's arrival (-1
     * none), the comment lines and Anthropic pings (the TTFT waterfall). */
    int64_t first_event_ns;
    uint64_t comments_before_token, pings_before_token;
    uint32_t bare_before_token; /* choices without text (role-only) */
    uint64_t pings;             /* Anthropic ping events */
    uint64_t finish_reasons;    /* finish_reason / stop_reason values seen */
    char finish_reason[32];     /* the last one, truncated; "" if none */
    bool done_seen;        /* [DONE] (OpenAI) or message_stop (Anthropic) */
    int64_t done_ns;       /* when it arrived */
    int64_t first_byte_ns; /* first non-empty feed */
    int64_t last_feed_ns;  /* last non-empty feed */
    bool times_backwards;  /* a feed earlier than the one before it */

    /* Errors reported inside the stream: a data event with an "error"
     * member, an "event: error" event, or an "error:" field line
     * (llama.cpp's server; counted in error_fields too). */
    uint64_t stream_errors;
    uint64_t error_fields;
    char error_type[64];     /* first error's type/code; "" if none */
    char error_message[256]; /* first error's message, truncated */
    int64_t error_ns;

    /* Parsing trouble (kept apart from the server's own errors). */
    bool oversized;      /* an SSE line/event exceeded the cap: dropped */
    uint64_t incomplete; /* unfinished SSE event at the end of stream */
    int err;             /* first STREAM_E_* hit, sticky; 0 if none */
};

/* Initializes an empty state for one request of the given API kind, with an
 * SSE cap of max_event_bytes (0: SSE_DEFAULT_MAX_EVENT_BYTES). Cannot fail:
 * memory is allocated on first use. */
void stream_state_init(struct stream_state *s, enum api_kind api,
                       size_t max_event_bytes);

/* Clears every fact for the next request (possibly of another API kind),
 * keeping allocated memory and the configured caps. */
void stream_state_reset(struct stream_state *s, enum api_kind api);

/* Feeds len response body bytes received at t_ns (monotonic ns, as the
 * caller read them). Returns STREAM_OK or the sticky s->err (STREAM_E_NOMEM,
 * STREAM_E_TOO_MANY_TOKENS); after an error later token events are not
 * stored but every other fact keeps being updated. */
int stream_feed(struct stream_state *s, int64_t t_ns, const void *bytes,
                size_t len);

/* Ends the stream: an unfinished SSE event is counted in s->incomplete.
 * Returns s->err. */
int stream_finish(struct stream_state *s);

/* Frees the memory. NULL-safe; the state may be re-initialized. */
void stream_state_free(struct stream_state *s);

#endif
