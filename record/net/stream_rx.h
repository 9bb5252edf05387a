/* stream_rx: receives one response, the one way the recorder's transfer,
 * the proxy's exchange and the doctor's probe all do: each chunk's time
 * (the kernel's receive time, or the moment libcurl handed it over), the
 * key masked in what is stored (body_scrub.h), the stored bytes parsed by
 * the analyzer's own parser (common/stream_events.h: first token,
 * in-stream error and its message, finish, SSE framing, and the SSE cap),
 * the response headers, and how it ended (phases, error kind).
 *
 * The stream facts are the analyzer's by construction: the same parser
 * reads the same bytes (as stored: masked), cut into the same chunks, with
 * the same times. So a 2xx body goes over the cap here exactly where the
 * analyzer finds it oversized, and a stream is ok or failed here as there. */
#ifndef TT_RECORD_STREAM_RX_H
#define TT_RECORD_STREAM_RX_H

#include <curl/curl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api_kind.h"
#include "body_scrub.h"
#include "lag_samples.h"
#include "resp_headers.h"
#include "stream_events.h"
#include "tcp_rtt.h"
#include "trace.h"

/* Takes each received chunk as it is to be stored: its time and its bytes,
 * the key masked (borrowed for the call). Returns 0 or a trace error. */
typedef int (*stream_rx_sink_fn)(void *ud, int64_t t_ns, const char *p,
                                 size_t n);

/* How one response is received. */
struct stream_rx_setup {
    enum api_kind api;      /* how its events are read */
    size_t max_event_bytes; /* the SSE cap; 0: the analyzer's default */
    bool keep_tokens;       /* keep every token event (not only the facts) */
    /* Stamp chunks with the kernel's receive time (rx_stamp.h): only where
     * libcurl hands bytes over inside the read that got them (HTTP/1.1). */
    bool kernel_time;
    /* Per kernel-stamped chunk, how long after the kernel's receive libcurl
     * handed it over (borrowed; NULL: not kept). */
    struct lag_samples *receive_lag;
    /* Where stored chunks go; NULL: the body is only counted (a response
     * that is not recorded: not masked, not parsed). */
    stream_rx_sink_fn sink;
    void *sink_ud;
};

struct stream_rx {
    struct resp_headers resp;   /* status and kept headers */
    struct stream_state stream; /* the stored bytes' facts */
    struct body_scrub scrub;    /* masks the key in what is stored */
    int64_t first_byte_ns;      /* -1 until the first body byte */
    int64_t last_body_ns;       /* the latest chunk's time, -1 none */
    /* The first header line's hand-over time (as libcurl's own phase
     * stamps, never the kernel's), -1 none; the connection's TCP RTT
     * and its deviation as last read (tcp_rtt.h), 0 none. */
    int64_t headers_ns;
    int64_t headers_rx_ns; /* with kernel_time: that read's kernel time */
    int64_t tcp_rtt_ns, tcp_rttvar_ns;
    int conn_fd;    /* the connection's socket, -1 unknown (tcp_rtt.h) */
    long conn_port; /* its local port */
    struct tcp_socks *socks; /* where sockets are noted (stream_rx_watch) */
    uint64_t bytes, chunks;  /* body bytes and receives */
    bool kernel_time;
    struct lag_samples *receive_lag;
    stream_rx_sink_fn sink;
    void *sink_ud;
};

/* Starts an empty receive. Cannot fail (memory comes on first use). */
void stream_rx_init(struct stream_rx *rx, const struct stream_rx_setup *su);

/* Adds a secret to mask in stored bytes and in the result's messages (and
 * its JSON-escaped form; body_scrub_add_json). Call before the first body
 * byte. Returns 0 or TRACE_E_NOMEM. */
int stream_rx_add_secret(struct stream_rx *rx, const char *secret, size_t len);

/* The time to stamp bytes handed over at user_ns with: the kernel's receive
 * time of the read that got them when kernel_time (rx_stamp_chunk_time,
 * never before the stream's previous chunk; the lag goes to receive_lag),
 * else user_ns. */
int64_t stream_rx_time(struct stream_rx *rx, int64_t user_ns);

/* One response header line as libcurl gives it (CRLF included); the
 * first one's arrival time is kept (headers_ns). */
void stream_rx_header(struct stream_rx *rx, const char *line, size_t n);

/* Sets easy's socket option and pre-request callbacks so that rx knows
 * its connection's socket (new or reused) for the TCP RTT: each socket
 * libcurl creates is noted in socks (borrowed, shared by the transfers
 * of one multi handle), with kernel receive times asked for when
 * rx->kernel_time; the transfer's socket is then found by its local port.
 * The RTT is read at the first header line and at the result. */
void stream_rx_watch(struct stream_rx *rx, CURL *easy, struct tcp_socks *socks);

/* n body bytes received at t_ns: counted, then masked, handed to the sink
 * and parsed (a receive that may end in a secret's start goes with the
 * next one, with its own time). Returns 0, or the sink's error
 * (TRACE_E_NOMEM when out of memory); the parser's own lack of memory
 * only costs facts. */
int stream_rx_body(struct stream_rx *rx, int64_t t_ns, const char *p, size_t n);

/* True when a 2xx body has gone over the SSE cap (an error status keeps
 * its own kind, as the analyzer ranks it): no reader could use the rest,
 * and the bytes stored so far let the analyzer find it oversized too. */
bool stream_rx_over_cap(const struct stream_rx *rx);

/* True when the body stored so far has a data: line: an event stream,
 * whatever its Content-Type says (a JSON reply never has one). */
bool stream_rx_sse(const struct stream_rx *rx);

/* Hands the bytes still held back to the sink and parser. Idempotent.
 * Returns 0 or the sink's error. */
int stream_rx_flush(struct stream_rx *rx);

/* Overwrites every occurrence of the secrets in the string s with '*'. */
void stream_rx_mask(const struct stream_rx *rx, char *s);

/* How a response ended, besides what was received. */
struct stream_rx_end {
    CURL *easy;         /* for the phase times; NULL: none */
    CURLcode code;      /* libcurl's result */
    char *curl_error;   /* libcurl's error buffer, masked here; may be "" */
    const char *forced; /* a kind the caller decided, or NULL */
    double timeout_s, idle_timeout_s; /* for messages */
    int64_t end_ns;
};

/* Flushes (stream_rx_flush), ends the stream and describes it in *r (all
 * but id, attempt and retry_of, which are the caller's; pointing into rx
 * and into kind_buf, at least 16 bytes, and msg): status, headers, sizes,
 * phases, the error kind and its message, the key masked. Returns 0 or the
 * flush's error. */
int stream_rx_result(struct stream_rx *rx, const struct stream_rx_end *e,
                     struct trace_result *r, char *kind_buf, size_t kind_len,
                     char *msg, size_t msglen);

/* Moves the stream facts (their token array included) into *out, which the
 * caller then frees with stream_state_free; rx keeps an empty state. */
void stream_rx_take_stream(struct stream_rx *rx, struct stream_state *out);

/* Frees what rx holds (not rx itself). NULL-safe. */
void stream_rx_free(struct stream_rx *rx);

#endif
