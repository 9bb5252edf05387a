/* proxy_record: what tokentrace-proxy writes into its trace, one
 * exchange at a time: the request record, each received chunk (through
 * the recorder's receive path, stream_rx.h: timed, secrets masked,
 * parsed), each chunk's hand-over to the client (a handed record), and the
 * result with the recorder's error kinds. Knows nothing of the client
 * connection or the event loop. */
#ifndef TT_PROXY_RECORD_H
#define TT_PROXY_RECORD_H

#include <curl/curl.h>
#include <stdbool.h>
#include <stdint.h>

#include "lag_samples.h"
#include "proxy_session.h"
#include "stream_rx.h"
#include "trace.h"

/* What the proxy refused or could not do itself (docs/proxy.md, "Its
 * own limits"), counted by kind in the footer's proxy_limits. */
enum proxy_limit {
    PROXY_LIMIT_UNAUTHORIZED,    /* no local token: 401 */
    PROXY_LIMIT_HEADER,          /* request headers too large: 431 */
    PROXY_LIMIT_BODY,            /* request body too large: 413 */
    PROXY_LIMIT_URL,             /* request URL too long: 414 */
    PROXY_LIMIT_MALFORMED,       /* evhttp could not read it: 400 */
    PROXY_LIMIT_CONTENT_LENGTH,  /* two different Content-Lengths: 400 */
    PROXY_LIMIT_DOT_SEGMENTS,    /* "." or ".." in the path: 400 */
    PROXY_LIMIT_CONNECTIONS,     /* at the connection cap: 503 */
    PROXY_LIMIT_EVICTED,         /* at the cap: the longest waiter closed */
    PROXY_LIMIT_FDS,             /* out of file descriptors: 503 */
    PROXY_LIMIT_HEADER_TIMEOUT,  /* headers not read in time: closed */
    PROXY_LIMIT_UPSTREAM_HEADER, /* an upstream header over libcurl's 100
                                    KB: 502 */
    PROXY_LIMIT_RESP_HEADERS,    /* response headers not passed on */
    PROXY_LIMIT_SECRETS,         /* client credentials not masked */
    PROXY_LIMIT_COMPRESSED,      /* an encoded response, not decoded */
    PROXY_LIMIT_UNRECORDED,      /* forwarded, not recorded (the trace
                                    could not be written) */
    PROXY_LIMIT_COUNT
};

/* The trace and the run's counts, shared by every exchange (one per
 * proxy). */
struct proxy_recorder {
    struct trace_writer *w; /* NULL: nothing is written (tests) */
    int err;                /* the first write error, sticky */
    uint32_t next_id;
    uint64_t requests, ok, failed, chunks, bytes;
    /* --max-requests, --max-bytes (0: none); the bodies recorded; once a
     * cap is hit, which (recording stopped, forwarding goes on) and how
     * many requests went unrecorded since */
    uint64_t max_requests, max_bytes, body_bytes, unrecorded;
    char stopped[64];
    double timeout_s; /* for error messages */
    bool kernel_time; /* chunk times from the kernel (rx_stamp.h) */
    struct proxy_sessions *sessions; /* borrowed; NULL: no sessions */
    /* per chunk with a kernel time: its hand-over minus that time (the
     * footer's receive_lag_*; owned, lag_samples_free) */
    struct lag_samples receive_lag;
    uint64_t limits[PROXY_LIMIT_COUNT];       /* by enum proxy_limit */
    uint64_t limit_events[PROXY_LIMIT_COUNT]; /* times each was said */
};

/* A write of the trace failed with err (a trace_err; 0: nothing): the
 * first one sticks in r->err and is said loudly; from then on nothing
 * is recorded and the proxy forwards on. */
void proxy_recorder_failed(struct proxy_recorder *r, int err);

/* The footer's name of a limit ("request_header_too_large"...). */
const char *proxy_limit_name(enum proxy_limit k);

/* The recorder hit limit k (n of what it counts: requests, headers,
 * credentials): counted, and said on stderr (what, as detail says it;
 * the first 10 times of each kind and then every 1,000th, so an
 * attacker cannot fill the log). */
void proxy_recorder_limit(struct proxy_recorder *r, enum proxy_limit k,
                          uint64_t n, const char *detail);

/* One recorded (or only forwarded) request and its response. */
struct proxy_exchange {
    struct proxy_recorder *rec;
    uint32_t id; /* 0: not recorded (a GET /v1/models...) */
    int64_t start_ns;
    int64_t received_ns; /* the client's request was read whole, 0 unknown */
    /* The response as received: chunk times, secrets masked, headers
     * (redacted), sizes, the stream's facts. */
    struct stream_rx rx;
    char errbuf[CURL_ERROR_SIZE];   /* libcurl's words, for the result */
    const char *forced_kind;        /* client_cancelled, interrupted, or NULL */
    char *header_secret;            /* owned copy for resp, wiped when freed */
    struct proxy_session_turn turn; /* its session, turn and think time */
};

/* Starts an exchange. api: the API name of its path (proxy_route_api), how
 * its events are read; non-NULL records it, with the next request id
 * (NULL: it is only forwarded and counted), unless a cap of rec stopped
 * the recording (said once on stderr; counted in rec->unrecorded). secrets (n
 * of them, NUL-terminated, borrowed for the call: each is copied) are masked in
 * every stored byte; the first is also redacted from stored headers.
 * Returns 0 or TRACE_E_NOMEM. */
int proxy_exchange_init(struct proxy_exchange *x, struct proxy_recorder *rec,
                        const char *api, const char *const *secrets, size_t n);

/* Writes the request record: api (the path's), the model named in body,
 * body itself (secrets masked; NULL with no_content), and the session
 * and turn the recorder's sessions place it in (session_header: the
 * client's session header, or NULL; proxy_session.h). Returns 0 or the
 * trace error. */
int proxy_exchange_request(struct proxy_exchange *x, const char *api,
                           const char *body, size_t len, bool no_content,
                           const char *session_header);

/* One response header line as libcurl gives it (CRLF included). */
void proxy_exchange_header(struct proxy_exchange *x, const char *line,
                           size_t n);

/* n body bytes received at t_ns (stream_rx_time of x->rx): recorded as
 * the exchange's next chunk (secrets masked; a receive that may end in a
 * secret's start is written with the next one, with its own time).
 * Returns 0 or the trace error. */
int proxy_exchange_body(struct proxy_exchange *x, int64_t t_ns, const char *p,
                        size_t n);

/* The chunk-th chunk (from 0), received at recv_ns, was on the client's
 * socket at handed_ns. Returns 0 or the trace error. */
int proxy_exchange_handed(struct proxy_exchange *x, uint64_t chunk,
                          int64_t recv_ns, int64_t handed_ns);

/* The exchange ended (libcurl's code, easy for its phase times; easy may
 * be NULL when it never started): writes the result with the recorder's
 * error kind, counts it ok or failed. kind_out (at least 32 bytes) gets
 * the kind ("" on success). Returns 0 or the trace error. */
int proxy_exchange_finish(struct proxy_exchange *x, CURL *easy, CURLcode code,
                          int64_t end_ns, char *kind_out, size_t kind_len);

/* Response headers past PROXY_MAX_RESP_HEADERS are not passed on. */
#define PROXY_MAX_RESP_HEADERS 100

/* What an ended transfer (libcurl's code) met that the proxy did not pass
 * on as it came, said and counted: no file descriptor for the upstream
 * socket (out_of_fds: x is forced to proxy_refused, 503 is returned: the
 * client gets it, and it is not an upstream connect error), a response
 * header line over libcurl's CURL_MAX_HTTP_HEADER (libcurl 7 says "Out
 * of memory" for it, 8.6 CURLE_TOO_LARGE: proxy_refused, 502 is
 * returned: not an empty 200), dropped_hdr response headers not passed
 * on, a Content-Encoding (encoded: passed and recorded as sent, not
 * decoded). Returns 0 when the reply is the upstream's. Call before
 * proxy_exchange_finish. */
int proxy_exchange_limits(struct proxy_exchange *x, CURLcode code,
                          bool reply_started, size_t dropped_hdr, bool encoded,
                          bool out_of_fds);

/* n of the request's credentials could not be masked (more than
 * proxy_secrets.h keeps): warned and counted (PROXY_LIMIT_SECRETS). */
void proxy_exchange_unmasked(struct proxy_exchange *x, size_t n);

/* The proxy refused the request itself with status (the upstream was not
 * asked): a request record (as proxy_exchange_request) and a result of
 * kind proxy_refused whose message is why. Only for a recorded exchange
 * (x->id); counted failed. Returns 0 or the trace error. */
int proxy_exchange_refused(struct proxy_exchange *x, const char *api,
                           const char *body, size_t len, bool no_content,
                           int status, const char *why);

/* Frees what the exchange holds (not x itself). */
void proxy_exchange_free(struct proxy_exchange *x);

#endif
