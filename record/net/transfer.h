/* transfer: one streaming request: its libcurl easy handle, the callbacks
 * that hand every received byte to its receive path (stream_rx.h: timed,
 * masked, recorded, parsed) and the summing up of how it ended into a
 * trace_result. The transfer hangs on CURLINFO_PRIVATE. */
#ifndef TT_RECORD_TRANSFER_H
#define TT_RECORD_TRANSFER_H

#include <curl/curl.h>
#include <stdbool.h>
#include <stdint.h>

#include "api_kind.h"
#include "lag_samples.h"
#include "stream_rx.h"
#include "tcp_rtt.h"
#include "trace.h"

/* Settings shared by every transfer of a run (borrowed). */
struct transfer_config {
    const char *url;
    const char *auth_header; /* a whole header line, or NULL for none */
    enum api_kind api;       /* how its events are read; anthropic sends
                                anthropic-version */
    bool http2;
    long timeout_ms;
    long connect_timeout_ms; /* 0: libcurl's default */
    double timeout_s;        /* the same, for messages */
    double idle_timeout_s;
    bool insecure;      /* no TLS peer / host verification (--insecure) */
    const char *cacert; /* CA bundle file (--cacert), NULL: the system's */
    /* The proxy (http_proxy_choose: "" direct), set explicitly so libcurl
     * uses exactly what the run says; NULL leaves libcurl's own choice. */
    const char *proxy;
    /* Stamp chunks with the kernel's receive time (rx_stamp.h) instead of
     * the moment libcurl hands them over. HTTP/1.1 only: there libcurl
     * hands a transfer's bytes over inside the read that got them. */
    bool kernel_time;
    /* The SSE cap past which a 2xx stream is stopped as oversized_event; 0:
     * the analyzer's (SSE_DEFAULT_MAX_EVENT_BYTES). */
    size_t max_event_bytes;
    /* Keep every token event in rx.stream.tokens, not only the facts. */
    bool keep_tokens;
};

/* Called with every received body byte run, after it was recorded, as
 * recorded: the key masked, with its arrival time (a run that ends in what
 * may be the start of the key comes with the next one, or from
 * the end of the response, stream_rx.h). */
typedef void (*transfer_observe_fn)(void *ud, int64_t t_ns, const char *p,
                                    size_t n);

/* Where transfers report (borrowed, shared by a run's transfers). */
struct transfer_env {
    struct trace_writer *writer; /* NULL: chunks are not recorded */
    int write_err; /* first trace write error, 0 while all is well */
    /* With kernel_time: per kernel-stamped chunk, how long after the
     * kernel's receive libcurl handed it over (NULL: not kept). */
    struct lag_samples *receive_lag;
    /* The sockets the run's transfers opened, to find each one's
     * connection for its TCP RTT (tcp_rtt.h; zeroed with the env). */
    struct tcp_socks socks;
};

struct transfer {
    CURL *easy;
    uint32_t id;
    bool warmup;
    uint32_t attempt;     /* 1, or 2... for a retry (set by the caller) */
    uint32_t retry_of;    /* id of the first attempt of a retry, else 0 */
    uint64_t slot_k;      /* the run's schedule slot (set by the caller) */
    uint32_t model;       /* the caller's: its model's index in the run */
    void *session;        /* the caller's: the session it is a turn of */
    int64_t scheduled_ns; /* intended send time, -1 closed loop */
    char request_id[48];  /* X-Request-Id sent, "" when off */
    char *body;           /* owned */
    size_t body_len;
    struct curl_slist *headers;
    char errbuf[CURL_ERROR_SIZE];
    int64_t start_ns;         /* set by the caller when handing it over */
    bool first_token_counted; /* the caller's: it took the first token */
    int64_t last_activity_ns; /* last header or body byte, -1 none */
    /* The response as received: chunk times, the key masked, headers,
     * sizes, and the stream's facts (rx.stream.first_token_ns...). */
    struct stream_rx rx;
    const char *forced_kind;     /* set before stopping it early */
    transfer_observe_fn observe; /* optional, with observe_ud */
    void *observe_ud;
    struct transfer_env *env;
    struct transfer *prev, *next; /* the run's in-flight list */
};

enum transfer_err {
    TRANSFER_OK = 0,
    TRANSFER_E_NOMEM = 1,
    TRANSFER_E_CURL = 2,
};

/* Creates a transfer for request id, with request_id as X-Request-Id
 * (NULL: none). Takes ownership of body (malloc'd) in every case. */
int transfer_new(const struct transfer_config *tc, struct transfer_env *env,
                 uint32_t id, const char *request_id, char *body,
                 struct transfer **out);

/* Describes the finished transfer in *r (pointing into t and into the
 * caller's kind_buf / msg buffers); the receive path hands on the bytes
 * it still held back first (stream_rx.h). The key is
 * masked in msg and in t->errbuf. */
void transfer_result(struct transfer *t, const struct transfer_config *tc,
                     CURLcode code, int64_t end_ns, struct trace_result *r,
                     char *kind_buf, size_t kind_len, char *msg, size_t msglen);

/* Frees the transfer and its easy handle (remove it from the multi handle
 * first). NULL-safe. */
void transfer_free(struct transfer *t);

#endif
