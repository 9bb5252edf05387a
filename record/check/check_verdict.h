/* check_verdict: turns what one --check probe saw into a verdict: a cause
 * (what is wrong, in the user's terms) and a fix (what to change), from a
 * table of cases tried in order; and the notes about a probe that worked
 * (several tokens per chunk, TTFT against TPOT, keep-alives, ...).
 * Pure: no I/O, no libcurl. */
#ifndef TT_RECORD_CHECK_VERDICT_H
#define TT_RECORD_CHECK_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api_kind.h"
#include "stream_bursts.h"

/* Thresholds of the TTFT / TPOT balance warnings (probe of a short
 * prompt). */
#define CHECK_TTFT_HIGH_MS 2000.0
#define CHECK_TTFT_NORMAL_MS 1000.0
#define CHECK_TPOT_HIGH_MS 100.0
#define CHECK_TPOT_NORMAL_MS 50.0

enum check_key_state {
    CHECK_KEY_UNSET = 0, /* the variable is not set: no key sent */
    CHECK_KEY_EMPTY = 1, /* set but blank: no key sent */
    CHECK_KEY_SET = 2,
};

/* Everything a verdict may use. Strings are borrowed and never NULL ("" when
 * unknown); times are ns from the request's start, -1 when unknown. */
struct probe_facts {
    /* where the first token's time went (analyze/metrics/waterfall.h), one
     * line; "" when not measured */
    const char *waterfall;
    /* what was sent */
    const char *model;
    const char *base; /* normalized base URL */
    const char *url;  /* request URL */
    const char *host; /* host[:port] of url */
    bool https;
    bool sdk_base;          /* base from Cline's file (+ /chat/completions) */
    const char *base_key;   /* that setting: "cline.openAiBaseUrl", ... */
    bool anthropic;         /* key sent as x-api-key */
    enum api_kind api_kind; /* the same kind, as the enum */
    const char *key_source; /* "$OPENAI_API_KEY", "cline.openAiApiKey in F" */
    const char *key_env;    /* the variable name, "" for a settings key */
    enum check_key_state key_state;
    size_t key_len;
    bool key_bearer; /* the key itself starts with "Bearer " */
    bool key_quoted; /* the key is wrapped in quotes */
    int64_t max_tokens;
    double timeout_s, idle_timeout_s, connect_timeout_s;
    const char *models_hint; /* ": the gateway lists ..." or "" */
    /* a model that answered but is not in GET /v1/models
     * (check_models_missing), "" when listed or unknown */
    const char *models_missing;
    const char *api; /* the API kind's name, "openai-chat" */
    /* after a 404: another API kind whose path answers (check_api_alt):
     * its name ("" none), shown URL and HTTP status */
    const char *alt_api;
    const char *alt_url;
    int alt_status;
    const char *record_hint; /* arguments to record with, for the OK fix */
    /* "via proxy URL (from VAR)" when requests go through one, else "" */
    const char *proxy;

    /* how it ended */
    const char *error_kind; /* error_classify.h kinds, "" on success */
    bool forced_idle;       /* stopped by the idle timeout */
    const char *curl_error; /* libcurl's message */
    int http_status;        /* 0: no response */
    const char *content_type;
    const char *retry_after;
    const char *location;
    const char *server_message; /* an error body's message (no key in it) */
    const char *server_code;    /* its code or type */
    const char *html_title;
    bool tcp_connected;
    bool tls_done;
    int64_t total_ns;
    int64_t connect_ns; /* TCP connected */
    int64_t tls_ns;     /* TLS done, -1 without TLS */
    int64_t pretransfer_ns;
    int64_t first_byte_ns; /* first body byte */

    /* the stream (stream_events.h) */
    uint64_t bytes;
    uint64_t sse_events;
    uint64_t token_events;
    uint64_t reasoning_events;
    uint64_t comments;           /* keep-alive comment lines */
    struct stream_bursts bursts; /* token-event gaps (stream_bursts.h) */
    uint64_t text_chars;
    int64_t usage_tokens;      /* usage in the stream, -1 none */
    int64_t json_usage_tokens; /* usage of a non-streamed reply, -1 none */
    int64_t ttft_ns;           /* first token event */
    int64_t ttft_content_ns;   /* first non-reasoning token event */
    int64_t last_token_ns;
    bool done_seen;
    uint64_t stream_errors;
    const char *stream_error_type;
    const char *stream_error_message;
    bool oversized;
};

struct check_verdict {
    bool ok;        /* the model streams: TTFT can be measured */
    const char *id; /* "ok", "auth", "unknown-model", ... (static) */
    char cause[1024];
    char fix[1024];
};

/* Classifies f into v (first matching case of the table). */
void check_verdict_classify(const struct probe_facts *f,
                            struct check_verdict *v);

#define CHECK_MAX_NOTES 8

struct check_notes {
    size_t n;
    bool warn[CHECK_MAX_NOTES]; /* a warning, not just a note */
    char text[CHECK_MAX_NOTES][512];
};

/* The notes and warnings about a probe that streamed. */
void check_verdict_notes(const struct probe_facts *f, struct check_notes *out);

/* Output tokens of the probe: usage when the stream had it, else token
 * events; *source is "usage" or "chunks". */
int64_t check_output_tokens(const struct probe_facts *f, const char **source);

/* TPOT of the probe in ms, or -1 when undefined (fewer than 2 tokens). */
double check_tpot_ms(const struct probe_facts *f);

/* Writes tmpl into out with each {name} replaced by the fact of that name
 * ({model}, {url}, {status}, {key_source}, {retry}, {server}, {ttft}, ...;
 * an unknown name becomes ""). Truncates to len. */
void check_verdict_expand(const char *tmpl, const struct probe_facts *f,
                          char *out, size_t len);

/* Every case id of the table, in order, NULL-terminated (for tests). */
const char *const *check_verdict_ids(void);

#endif
