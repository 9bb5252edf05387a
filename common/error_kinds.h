/* error_kinds: the one vocabulary of how a request failed, shared by the
 * recorder (record/net/error_classify.c classifies a transfer), the doctor
 * (record/check reads the same kinds back) and the analyzer (analyze/load
 * derives the kinds a trace's bytes show). A kind is part of the trace
 * contract (docs/trace-format.md, result "error_kind"); docs/recording.md,
 * "Failures", has the same table for people.
 *
 * An HTTP status is a failure from 300 up, for the recorder and the analyzer
 * alike: a streaming POST wants a 2xx event stream, and the recorder does
 * not follow redirects (API clients do not follow a redirected POST), so a
 * 3xx carries no tokens. Its kind is http_<status> (http_301, http_401,
 * http_503...). */
#ifndef TT_COMMON_ERROR_KINDS_H
#define TT_COMMON_ERROR_KINDS_H

#include <stdbool.h>
#include <stddef.h>

/* Set by the recorder from what libcurl and the response said. */
#define ERROR_KIND_RESET "reset"
#define ERROR_KIND_TIMEOUT "timeout"
#define ERROR_KIND_IDLE_TIMEOUT "idle_timeout"
#define ERROR_KIND_CONNECT "connect"
#define ERROR_KIND_DNS "dns"
#define ERROR_KIND_TLS "tls"
#define ERROR_KIND_HTML "html"
#define ERROR_KIND_NOT_STREAMED "not_streamed"
#define ERROR_KIND_INTERRUPTED "interrupted"
#define ERROR_KIND_WRITE "write"
#define ERROR_KIND_TRANSFER "transfer"
/* Set by tokentrace-proxy: its client went away mid-response. */
#define ERROR_KIND_CLIENT_CANCELLED "client_cancelled"
/* Set by tokentrace-proxy: it refused the request itself (a limit of its
 * own, a malformed request), without asking the upstream. */
#define ERROR_KIND_PROXY_REFUSED "proxy_refused"
/* Set by the recorder, and derived by the analyzer from a trace's bytes. */
#define ERROR_KIND_STREAM_ERROR "stream_error"
#define ERROR_KIND_OVERSIZED_EVENT "oversized_event"
#define ERROR_KIND_NO_TOKENS "no_tokens"
/* Derived by the analyzer only. */
#define ERROR_KIND_UNFINISHED "unfinished"
#define ERROR_KIND_BAD_TIMES "bad_times"
/* The prefix of http_<status>. */
#define ERROR_KIND_HTTP_PREFIX "http_"

/* Who sets a kind (bits of error_kind_desc.set_by). */
#define ERROR_KIND_BY_RECORDER 0x1u
#define ERROR_KIND_BY_ANALYZER 0x2u

struct error_kind_desc {
    const char *name;    /* ERROR_KIND_*; "http_<status>" for the family */
    const char *meaning; /* one line for people */
    unsigned set_by;     /* ERROR_KIND_BY_* */
};

/* The table, in the order docs/recording.md lists it. */
extern const struct error_kind_desc error_kinds[];
extern const size_t error_kinds_count;

/* True when an HTTP status means the request failed: >= 300 (see above).
 * 0 (no response) and 1xx are not HTTP failures: the transfer's own kind
 * says what happened. */
bool error_kinds_http_failed(int status);

/* Writes "http_<status>" into buf (at least 16 bytes) and returns buf. */
const char *error_kinds_http(int status, char *buf, size_t len);

/* Returns the table entry of a kind name ("reset", "http_429"), or NULL
 * when the name is not a kind. */
const struct error_kind_desc *error_kinds_find(const char *kind);

#endif
