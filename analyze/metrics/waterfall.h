/* waterfall: where one request's first token's time went (docs/metrics.md,
 * "Where the first token's time went"): the measured timeline from the
 * hand-over to libcurl to the first token, and TTFT split into client,
 * network, server-reported processing and what nothing accounts for.
 * Pure: one request's facts in, its numbers out.
 *
 * Times are ms from start_ns (the TTFT origin), durations ms; NAN is "not
 * measured" (a reused connection has no connect, an old trace no headers
 * time, libcurl 7.88 no upload end), never 0. */
#ifndef TT_WATERFALL_H
#define TT_WATERFALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stream_events.h"
#include "trace.h"

/* What one request's records said (borrowed). */
struct waterfall_facts {
    bool ok;                        /* succeeded: TTFT is measured */
    int64_t start_ns;               /* handed to libcurl */
    const struct trace_result *res; /* NULL: the trace never finished it */
    const struct stream_state *stream;
    /* tokentrace-proxy traces (-1 otherwise): the client's request read
     * whole (the request's received_ns), and when the chunk with the first
     * token reached the client's socket (its handed record) */
    int64_t received_ns, first_handed_ns;
};

/* Where the server's own processing time came from. */
enum waterfall_server {
    WF_SERVER_NONE,
    WF_SERVER_OPENAI, /* header openai-processing-ms */
    WF_SERVER_TIMING, /* header server-timing, dur (total, else largest) */
    WF_SERVER_ENVOY,  /* header x-envoy-upstream-service-time */
    WF_SERVER_LLAMA,  /* llama.cpp's in-stream timings.prompt_ms */
};

struct waterfall {
    bool measured; /* ok, with libcurl's phases: the split below is set */
    /* The timeline. */
    double libcurl_start_ms; /* hand-over -> libcurl started it (its multi
                                queue); NAN without headers_ns */
    const char *conn;        /* "new", "reused", NULL unknown */
    bool conn_inferred;      /* old trace: told from connect_ns == 0 */
    double dns_ms, connect_ms, tls_ms; /* NAN: reused / no TLS / unknown */
    /* Of connect_ms, what lies beyond one kernel RTT: the event loop
     * noticing the handshake late (0 when not beyond, or no RTT) */
    double connect_late_ms;
    double sent_ms;    /* the request went out (fully sent when
                          sent_full, else libcurl about to send it) */
    bool sent_full;    /* libcurl >= 8.10 reported the upload's end */
    double headers_ms; /* the response's first byte (its status line) */
    double first_byte_ms, first_event_ms, first_token_ms, first_content_ms;
    /* Between the headers and the first token: OpenAI choices without text
     * (role-only chunks), comment lines (keep-alives), Anthropic pings. */
    uint32_t role_chunks;
    uint64_t comments, pings;
    double rtt_ms, rttvar_ms; /* the kernel's, NAN unknown */
    double server_ms;         /* server-reported processing, NAN none */
    enum waterfall_server server_source;
    /* TTFT = client + network + server + unaccounted, by construction:
     * client: libcurl's start, its own setup and connect_late_ms
     * (open-loop send lag comes before TTFT's start and is metrics'
     * send_lag_ms); network: DNS, connect (at most one RTT), TLS and one
     * RTT; server: as reported (0 in the sum
     * when not reported); unaccounted = gateway (before the headers: the
     * wait for them less the RTT and the server's share) + stream_rest
     * (headers -> first token less what of the server's time fell there). */
    double client_ms, network_ms, gateway_ms, stream_rest_ms, unaccounted_ms;
    double after_headers_ms; /* headers -> first token, whole */
    /* tokentrace-proxy traces, where everything above is the proxy ↔
     * upstream side (start_ns is the proxy's hand-over to libcurl): the
     * time inside the proxy before the request went upstream (received ->
     * handed to libcurl), after the first token came (its chunk received
     * -> on the client's socket), and the TTFT its client saw from the
     * proxy's side (received -> first token handed = proxy_in + TTFT +
     * proxy_out); NAN where the records are missing. */
    double proxy_in_ms, proxy_out_ms, proxy_client_ttft_ms;
    /* A part came out negative: the server reports more than the time it
     * could have spent, or the RTT estimate exceeds the wait it is in. */
    bool clocks_disagree;
};

/* Fills *w from f (w->measured false and every number NAN when f is not
 * ok or lacks the phases). Can't fail. */
void waterfall_compute(const struct waterfall_facts *f, struct waterfall *w);

/* w as one line for people: "client 0.1 ms, network 12.0 ms (RTT ...),
 * gateway/unaccounted 180.0 ms before the server's response, server
 * processing 95.0 ms (openai-processing-ms); headers -> first token ...";
 * cut to len. */
void waterfall_describe(const struct waterfall *w, char *out, size_t len);

/* The name of a server source ("openai-processing-ms"...), "" for none. */
const char *waterfall_server_name(enum waterfall_server s);

/* The server-reported processing time of a response (ms, NAN none) and
 * where it came from: its kept headers first, then llama.cpp's timings. */
double waterfall_server_time(const struct trace_kv *h, size_t n,
                             const struct stream_state *s,
                             enum waterfall_server *src);

#endif
