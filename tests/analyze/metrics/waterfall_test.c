/* waterfall_test: the TTFT waterfall and its attribution
 * (analyze/metrics/waterfall.c), hand-computed cases. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "waterfall.h"

#define MS 1000000LL
#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

/* A result of a new connection: DNS 1 ms, connect +2, TLS +3, request
 * written by 7, headers at 20, all from libcurl's start, which was 0.5 ms
 * after the hand-over at 1000 ms; RTT 2 ms. */
static void base(struct trace_result *r, struct stream_state *s)
{
    memset(r, 0, sizeof *r);
    r->phases.namelookup_ns = 1 * MS;
    r->phases.connect_ns = 3 * MS;
    r->phases.tls_ns = 6 * MS;
    r->phases.pretransfer_ns = 7 * MS;
    r->phases.posttransfer_ns = -1;
    r->phases.starttransfer_ns = 20 * MS;
    r->headers_ns = 1000 * MS + 20 * MS + MS / 2;
    r->first_byte_ns = 1000 * MS + 50 * MS;
    r->tcp_rtt_ns = 2 * MS;
    r->tcp_rttvar_ns = MS / 2;
    r->conn = TRACE_CONN_NEW;
    stream_state_init(s, API_OPENAI_CHAT, 0);
    s->first_event_ns = 1000 * MS + 50 * MS;
    s->first_token_ns = s->first_content_ns = 1000 * MS + 60 * MS;
}

static void compute(const struct trace_result *r, const struct stream_state *s,
                    struct waterfall *w)
{
    struct waterfall_facts f = {true, 1000 * MS, r, s, -1, -1};
    waterfall_compute(&f, w);
}

static double sum(const struct waterfall *w)
{
    return w->client_ms + w->network_ms +
           (isnan(w->server_ms) ? 0 : w->server_ms) + w->unaccounted_ms;
}

static void test_new_connection(void)
{
    struct trace_result r;
    struct stream_state s;
    struct waterfall w;
    base(&r, &s);
    compute(&r, &s, &w);
    CHECK(w.measured);
    CHECK(strcmp(w.conn, "new") == 0);
    CHECK(NEAR(w.libcurl_start_ms, 0.5));
    CHECK(NEAR(w.dns_ms, 1) && NEAR(w.connect_ms, 2) && NEAR(w.tls_ms, 3));
    CHECK(NEAR(w.sent_ms, 7.5) && !w.sent_full);
    CHECK(NEAR(w.headers_ms, 20.5));
    CHECK(NEAR(w.first_event_ms, 50) && NEAR(w.first_token_ms, 60));
    CHECK(NEAR(w.client_ms, 0.5));
    CHECK(NEAR(w.network_ms, 6 + 2));
    CHECK(isnan(w.server_ms) && w.server_source == WF_SERVER_NONE);
    /* 20 - 6 (ready) - 2 (RTT) before the headers, 60 - 20.5 after */
    CHECK(NEAR(w.gateway_ms, 12));
    CHECK(NEAR(w.after_headers_ms, 39.5));
    CHECK(NEAR(w.unaccounted_ms, 12 + 39.5));
    CHECK(NEAR(sum(&w), 60));
    CHECK(!w.clocks_disagree);
    /* not a proxy trace: no proxy parts */
    CHECK(isnan(w.proxy_in_ms) && isnan(w.proxy_out_ms));
    CHECK(isnan(w.proxy_client_ttft_ms));
    stream_state_free(&s);
}

/* A connect phase longer than one RTT: the rest is the loop's late
 * notice, the client's. */
static void test_connect_late(void)
{
    struct trace_result r;
    struct stream_state s;
    struct waterfall w;
    base(&r, &s);
    r.phases.connect_ns = 6 * MS; /* 5 ms after DNS, RTT 2 */
    r.phases.tls_ns = 9 * MS;
    r.phases.pretransfer_ns = 10 * MS;
    compute(&r, &s, &w);
    CHECK(NEAR(w.connect_ms, 5) && NEAR(w.connect_late_ms, 3));
    CHECK(NEAR(w.network_ms, 1 + 2 + 3 + 2));
    CHECK(NEAR(w.client_ms, 0.5 + 3));
    CHECK(NEAR(sum(&w), 60) && !w.clocks_disagree);
    stream_state_free(&s);
}

/* A reused connection has no DNS, connect or TLS: not measured, not 0. */
static void test_reused(void)
{
    struct trace_result r;
    struct stream_state s;
    struct waterfall w;
    base(&r, &s);
    r.conn = TRACE_CONN_REUSED;
    r.phases.namelookup_ns = MS / 100;
    r.phases.connect_ns = 0;
    r.phases.tls_ns = -1;
    compute(&r, &s, &w);
    CHECK(strcmp(w.conn, "reused") == 0 && !w.conn_inferred);
    CHECK(isnan(w.dns_ms) && isnan(w.connect_ms) && isnan(w.tls_ms));
    CHECK(NEAR(w.network_ms, 2));
    CHECK(NEAR(w.client_ms, 0.51));
    CHECK(NEAR(sum(&w), 60));
    /* an old trace: no conn_reused, told from connect 0 */
    r.conn = TRACE_CONN_UNKNOWN;
    r.headers_ns = 0;
    r.tcp_rtt_ns = 0;
    compute(&r, &s, &w);
    CHECK(w.conn_inferred && strcmp(w.conn, "reused") == 0);
    CHECK(isnan(w.libcurl_start_ms) && isnan(w.rtt_ms));
    CHECK(NEAR(sum(&w), 60));
    stream_state_free(&s);
}

/* A header's server time lies before the headers; more than the wait
 * there is a disagreement, said. */
static void test_header_server(void)
{
    struct trace_result r;
    struct stream_state s;
    struct waterfall w;
    struct trace_kv h[] = {{"openai-processing-ms", "9"}};
    base(&r, &s);
    r.headers = h;
    r.n_headers = 1;
    compute(&r, &s, &w);
    CHECK(w.server_source == WF_SERVER_OPENAI && NEAR(w.server_ms, 9));
    CHECK(NEAR(w.gateway_ms, 3));
    CHECK(NEAR(w.stream_rest_ms, 39.5));
    CHECK(NEAR(sum(&w), 60) && !w.clocks_disagree);
    h[0].value = "15";
    compute(&r, &s, &w);
    CHECK(NEAR(w.gateway_ms, -3) && w.clocks_disagree);
    stream_state_free(&s);
}

/* Server-Timing: total, else the largest dur; Envoy's header. */
static void test_server_timing(void)
{
    struct trace_kv h[] = {
        {"server-timing", "db;dur=53, app;desc=\"x\";dur=47.2"}};
    enum waterfall_server src;
    CHECK(NEAR(waterfall_server_time(h, 1, NULL, &src), 53) &&
          src == WF_SERVER_TIMING);
    h[0].value = "cache;desc=hit, total;dur=12.5, db;dur=40";
    CHECK(NEAR(waterfall_server_time(h, 1, NULL, &src), 12.5));
    h[0].value = "miss, cpu;desc=none";
    CHECK(isnan(waterfall_server_time(h, 1, NULL, &src)) &&
          src == WF_SERVER_NONE);
    h[0].key = "x-envoy-upstream-service-time";
    h[0].value = "31";
    CHECK(NEAR(waterfall_server_time(h, 1, NULL, &src), 31) &&
          src == WF_SERVER_ENVOY);
    h[0].value = "31ms";
    CHECK(isnan(waterfall_server_time(h, 1, NULL, &src)));
}

/* llama.cpp's prompt time fills the wait before the headers, the rest
 * falls after them; what is left is unaccounted. */
static void test_llama(void)
{
    struct trace_result r;
    struct stream_state s;
    struct waterfall w;
    base(&r, &s);
    s.server_timings.present = true;
    s.server_timings.prompt_ms = 40;
    compute(&r, &s, &w);
    CHECK(w.server_source == WF_SERVER_LLAMA);
    CHECK(NEAR(w.gateway_ms, 0));
    CHECK(NEAR(w.stream_rest_ms, 39.5 - 28));
    CHECK(NEAR(w.unaccounted_ms, 60 - 0.5 - 8 - 40));
    CHECK(NEAR(sum(&w), 60) && !w.clocks_disagree);
    stream_state_free(&s);
}

/* A failed request or one without phases has no split. */
static void test_unmeasured(void)
{
    struct trace_result r;
    struct stream_state s;
    struct waterfall w;
    struct waterfall_facts f;
    base(&r, &s);
    r.phases.pretransfer_ns = -1;
    compute(&r, &s, &w);
    CHECK(!w.measured && isnan(w.client_ms) && isnan(w.headers_ms));
    base(&r, &s);
    f.ok = false;
    f.start_ns = 1000 * MS;
    f.res = &r;
    f.received_ns = f.first_handed_ns = -1;
    f.stream = &s;
    waterfall_compute(&f, &w);
    CHECK(!w.measured && NEAR(w.headers_ms, 20.5));
    stream_state_free(&s);
}

/* A proxy trace: received 0.25 ms before the hand-over upstream, the
 * first token's chunk on the client's socket 0.1 ms after it came; the
 * upstream side's split is unchanged. A handed record before the token
 * (damaged) or a missing one leaves the out part unmeasured. */
static void test_proxy(void)
{
    struct trace_result r;
    struct stream_state s;
    struct waterfall w;
    struct waterfall_facts f;
    base(&r, &s);
    f = (struct waterfall_facts){true, 1000 * MS,          &r,
                                 &s,   1000 * MS - MS / 4, 1060 * MS + MS / 10};
    waterfall_compute(&f, &w);
    CHECK(NEAR(w.proxy_in_ms, 0.25) && NEAR(w.proxy_out_ms, 0.1));
    CHECK(NEAR(w.proxy_client_ttft_ms, 0.25 + 60 + 0.1));
    CHECK(NEAR(sum(&w), 60) && NEAR(w.network_ms, 8));
    f.first_handed_ns = 1050 * MS;
    waterfall_compute(&f, &w);
    CHECK(NEAR(w.proxy_in_ms, 0.25) && isnan(w.proxy_out_ms));
    CHECK(isnan(w.proxy_client_ttft_ms));
    f.received_ns = 1001 * MS; /* after the hand-over: cannot be */
    f.first_handed_ns = -1;
    waterfall_compute(&f, &w);
    CHECK(isnan(w.proxy_in_ms) && isnan(w.proxy_out_ms));
}

int main(void)
{
    test_new_connection();
    test_connect_late();
    test_reused();
    test_header_server();
    test_server_timing();
    test_llama();
    test_unmeasured();
    test_proxy();
    return CHECK_DONE();
}
