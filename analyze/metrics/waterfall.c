/* waterfall: one request's TTFT timeline and its attribution. */
#include "waterfall.h"

#include <math.h>
#include <string.h>

/* Below libcurl's resolution (1 us): a difference this small of phases
 * that should be equal is rounding, not a disagreement. */
#define WF_EPS_MS 0.001

/* ns as ms. */
static double ms(int64_t ns)
{
    return (double)ns / 1e6;
}

/* An absolute time as ms from start, NAN when unknown (< 0). */
static double at(int64_t t_ns, int64_t start_ns)
{
    return t_ns >= 0 ? ms(t_ns - start_ns) : NAN;
}

/* The stream's part of the timeline (any request with a stream). */
static void timeline_stream(const struct waterfall_facts *f,
                            struct waterfall *w)
{
    const struct stream_state *s = f->stream;
    int64_t st = f->start_ns;
    if (!s)
        return;
    w->first_event_ms = at(s->first_event_ns, st);
    w->first_token_ms = at(s->first_token_ns, st);
    w->first_content_ms = at(s->first_content_ns, st);
    w->comments = s->comments_before_token;
    w->pings = s->pings_before_token;
    w->role_chunks = s->bare_before_token;
}

/* The connection: new (its phases), reused, or unknown. Old traces have
 * no conn_reused: a connect of 0 is libcurl's mark of a reused one. */
static void timeline_conn(const struct trace_result *r, struct waterfall *w)
{
    const struct trace_phases *p = &r->phases;
    bool reused = r->conn == TRACE_CONN_REUSED;
    if (r->conn == TRACE_CONN_UNKNOWN) {
        if (p->connect_ns < 0 || p->pretransfer_ns < 0)
            return;
        w->conn_inferred = true;
        reused = p->connect_ns == 0;
    }
    w->conn = reused ? "reused" : "new";
    if (reused)
        return;
    w->dns_ms = p->namelookup_ns >= 0 ? ms(p->namelookup_ns) : NAN;
    if (p->connect_ns >= p->namelookup_ns && p->namelookup_ns >= 0)
        w->connect_ms = ms(p->connect_ns - p->namelookup_ns);
    if (p->tls_ns > 0 && p->tls_ns >= p->connect_ns)
        w->tls_ms = ms(p->tls_ns - p->connect_ns);
}

/* The server's processing before the headers and after them: a header's
 * value was known when the headers left, so all of it lies before them;
 * an in-stream one (llama.cpp) fills the wait before the headers first,
 * the rest lies after them. */
static void attribute(struct waterfall *w, double wait_ms)
{
    /* a difference of equal phases is 0, not -0.00 */
    if (fabs(w->client_ms) < 1e-9)
        w->client_ms = 0;
    if (fabs(wait_ms) < 1e-9)
        wait_ms = 0;
    double server = isnan(w->server_ms) ? 0 : w->server_ms;
    double before = server;
    if (w->server_source == WF_SERVER_LLAMA)
        before = fmin(server, fmax(wait_ms, 0));
    w->gateway_ms = wait_ms - before;
    w->stream_rest_ms = w->after_headers_ms - (server - before);
    w->unaccounted_ms = w->gateway_ms + w->stream_rest_ms;
    w->clocks_disagree =
        w->gateway_ms < -WF_EPS_MS || w->stream_rest_ms < -WF_EPS_MS ||
        w->client_ms < -WF_EPS_MS || w->after_headers_ms < -WF_EPS_MS;
}

/* Where libcurl's phases say the connection was ready for the request (ms
 * from libcurl's start): the end of the last measured setup phase of a new
 * connection, libcurl's look into its pool for a reused one. */
static double conn_ready(const struct trace_phases *p,
                         const struct waterfall *w)
{
    double ready = p->namelookup_ns >= 0 ? ms(p->namelookup_ns) : 0;
    if (w->conn && strcmp(w->conn, "new") == 0) {
        if (p->connect_ns > 0)
            ready = fmax(ready, ms(p->connect_ns));
        if (p->tls_ns > 0)
            ready = fmax(ready, ms(p->tls_ns));
    }
    return ready;
}

/* The proxy's own parts (tokentrace-proxy traces): before the request
 * went upstream, and from the first token's chunk received to handed. */
static void proxy_side(const struct waterfall_facts *f, struct waterfall *w)
{
    int64_t tok = f->stream ? f->stream->first_token_ns : -1;
    w->proxy_in_ms = w->proxy_out_ms = w->proxy_client_ttft_ms = NAN;
    if (f->received_ns > 0 && f->start_ns >= f->received_ns)
        w->proxy_in_ms = ms(f->start_ns - f->received_ns);
    if (f->ok && tok > 0 && f->first_handed_ns >= tok)
        w->proxy_out_ms = ms(f->first_handed_ns - tok);
    if (!isnan(w->proxy_in_ms) && !isnan(w->proxy_out_ms))
        w->proxy_client_ttft_ms = ms(f->first_handed_ns - f->received_ns);
}

void waterfall_compute(const struct waterfall_facts *f, struct waterfall *w)
{
    const struct trace_result *r = f->res;
    const struct trace_phases *p = r ? &r->phases : NULL;
    double off, setup, ready, rtt;
    memset(w, 0, sizeof *w);
    w->libcurl_start_ms = w->dns_ms = w->connect_ms = w->tls_ms = NAN;
    w->sent_ms = w->headers_ms = w->first_byte_ms = NAN;
    w->first_event_ms = w->first_token_ms = w->first_content_ms = NAN;
    w->rtt_ms = w->rttvar_ms = w->server_ms = NAN;
    w->client_ms = w->network_ms = w->gateway_ms = NAN;
    w->stream_rest_ms = w->unaccounted_ms = w->after_headers_ms = NAN;
    timeline_stream(f, w);
    proxy_side(f, w);
    if (!r)
        return;
    timeline_conn(r, w);
    w->server_ms = waterfall_server_time(r->headers, r->n_headers, f->stream,
                                         &w->server_source);
    if (r->tcp_rtt_ns > 0) {
        w->rtt_ms = ms(r->tcp_rtt_ns);
        w->rttvar_ms = ms(r->tcp_rttvar_ns);
    }
    w->first_byte_ms = at(r->first_byte_ns, f->start_ns);
    if (p->starttransfer_ns < 0 || p->pretransfer_ns < 0)
        return;
    /* libcurl's phases count from its own start of the transfer: where
     * that lies on the recorder's clock, the headers tell */
    if (r->headers_ns > 0)
        w->libcurl_start_ms =
            ms(r->headers_ns - f->start_ns) - ms(p->starttransfer_ns);
    off = isnan(w->libcurl_start_ms) ? 0 : w->libcurl_start_ms;
    /* under the multi interface libcurl stamps pre-transfer after it wrote
     * the request (entering PERFORM), post-transfer (>= 8.10) at the
     * upload's end */
    w->sent_full = p->posttransfer_ns >= p->pretransfer_ns;
    w->sent_ms =
        off + ms(w->sent_full ? p->posttransfer_ns : p->pretransfer_ns);
    w->headers_ms = off + ms(p->starttransfer_ns);
    /* the kernel's receive time of the status line, where recorded, is
     * the truer arrival (libcurl hands it over when its loop gets there);
     * the status line and the first body bytes in one read: the body's
     * kernel time */
    if (r->headers_rx_ns > 0 &&
        at(r->headers_rx_ns, f->start_ns) < w->headers_ms)
        w->headers_ms = at(r->headers_rx_ns, f->start_ns);
    if (w->first_byte_ms < w->headers_ms)
        w->headers_ms = w->first_byte_ms;
    if (!f->ok || isnan(w->first_token_ms))
        return;
    w->measured = true;
    rtt = isnan(w->rtt_ms) ? 0 : w->rtt_ms;
    /* libcurl stamps the connect when its loop gets to the socket, after
     * the other transfers' work of that turn (a packet capture shows the
     * SYN-ACK ms earlier): a handshake is one round trip, so of a longer
     * connect phase one kernel RTT is the network's, the rest the
     * client's lateness in noticing */
    if (!isnan(w->connect_ms) && !isnan(w->rtt_ms) && w->connect_ms > rtt)
        w->connect_late_ms = w->connect_ms - rtt;
    setup = (isnan(w->dns_ms) ? 0 : w->dns_ms) +
            (isnan(w->connect_ms) ? 0 : w->connect_ms - w->connect_late_ms) +
            (isnan(w->tls_ms) ? 0 : w->tls_ms);
    ready = conn_ready(p, w);
    /* client: libcurl's start, its own work before the request could
     * leave and its late notice of the connect; the request leaves
     * somewhere between ready and pre-transfer, so from ready on the time
     * is the wait for the headers */
    w->client_ms = off + ready - setup;
    w->network_ms = setup + rtt;
    w->after_headers_ms = w->first_token_ms - w->headers_ms;
    attribute(w, w->headers_ms - off - ready - rtt);
}
