/* server_report_test: the server's /metrics pages of tests/data/server_metrics
 * (vLLM, SGLang, TGI, llama.cpp; before, during and after a run) read into
 * samples, and the report over a window: the deltas equal the observations
 * make_samples.py added (12 requests, TTFT sum 0.842 s, 6034 prompt and 240
 * generated tokens), the gauges' min/median/max, the bracketing samples,
 * Prometheus' histogram_quantile on hand-computed buckets, a preferred
 * family over a deprecated one, a counter reset, bad lines counted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "server_report.h"

static bool near(double a, double b)
{
    return fabs(a - b) < 1e-6 * (1 + fabs(b));
}
#define NEAR(a, b) near((double)(a), (double)(b))

static char *slurp(const char *server, int k, size_t *len)
{
    char path[512];
    FILE *f;
    char *p;
    long n;
    snprintf(path, sizeof path, "%s/%s_%d.prom", TT_DATA_DIR, server, k);
    f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    p = malloc((size_t)n + 1);
    if (!p || fread(p, 1, (size_t)n, f) != (size_t)n)
        exit(1);
    fclose(f);
    *len = (size_t)n;
    return p;
}

/* A series of a server's three pages at times 0-1, 10-11, 20-21 (s). */
static void load(struct server_metrics *sm, const char *server)
{
    memset(sm, 0, sizeof *sm);
    for (int k = 0; k < 3; k++) {
        size_t len;
        char *text = slurp(server, k, &len);
        struct trace_server_metrics m = {.url = "http://h/metrics",
                                         .when = k ? "during" : "before",
                                         .start_ns = k * 10000000000LL,
                                         .end_ns =
                                             k * 10000000000LL + 1000000000LL,
                                         .http_status = 200,
                                         .text = text,
                                         .text_len = len};
        CHECK(server_metrics_add(sm, &m) == 0);
        free(text);
    }
    CHECK(sm->n == 1 && sm->series[0].n == 3);
}

static const double run_ttft_sum = 0.842;

static void check_server(const char *server, bool ttft, bool requests, bool kv)
{
    struct server_metrics sm;
    struct server_report r;
    load(&sm, server);
    CHECK_MSG(strcmp(sm.series[0].server, server) == 0, "%s: server %s", server,
              sm.series[0].server);
    /* the window inside: the first page before, the last after it */
    server_report_make(&sm.series[0], 2000000000LL, 15000000000LL, &r);
    CHECK_MSG(r.used == 3 && r.bracketed_from && r.bracketed_to, "%s: bracket",
              server);
    CHECK(r.gauge[SQ_RUNNING].n == 3 && r.gauge[SQ_RUNNING].min == 0 &&
          r.gauge[SQ_RUNNING].median == 0 && r.gauge[SQ_RUNNING].max == 4);
    CHECK(r.gauge[SQ_WAITING].max == 2 && r.gauge[SQ_WAITING].min == 0);
    if (kv)
        CHECK_MSG(NEAR(r.gauge[SQ_KV_USAGE].max, 0.3125) &&
                      NEAR(r.gauge[SQ_KV_USAGE].median, 0.015625),
                  "%s: kv", server);
    else
        CHECK(r.gauge[SQ_KV_USAGE].n == 0);
    CHECK_MSG(r.delta[SQ_PROMPT_TOKENS].present &&
                  NEAR(r.delta[SQ_PROMPT_TOKENS].value, 6034),
              "%s: prompt tokens %g", server, r.delta[SQ_PROMPT_TOKENS].value);
    CHECK_MSG(NEAR(r.delta[SQ_GEN_TOKENS].value, 240), "%s: generated %g",
              server, r.delta[SQ_GEN_TOKENS].value);
    if (requests)
        CHECK_MSG(NEAR(r.delta[SQ_REQUESTS].value, 12), "%s: requests %g",
                  server, r.delta[SQ_REQUESTS].value);
    if (ttft) {
        const struct server_delta *d = &r.delta[SQ_TTFT];
        CHECK_MSG(d->present && NEAR(d->count, 12) &&
                      NEAR(d->sum, run_ttft_sum) &&
                      NEAR(d->mean, run_ttft_sum / 12),
                  "%s: ttft n %g sum %g", server, d->count, d->sum);
        CHECK(!isnan(d->p50) && d->p50 <= d->p90 && d->p90 <= d->p99);
    }
    /* the window after the middle page: it is the start sample */
    server_report_make(&sm.series[0], 12000000000LL, 15000000000LL, &r);
    CHECK(r.used == 2 && r.from_ns == 11000000000LL);
    CHECK(r.gauge[SQ_RUNNING].max == 4 && r.gauge[SQ_RUNNING].min == 0);
    /* a window past the last page: not bracketed at its end */
    server_report_make(&sm.series[0], 2000000000LL, 25000000000LL, &r);
    CHECK(r.bracketed_from && !r.bracketed_to);
    server_metrics_free(&sm);
}

/* llama.cpp's counters: prompt time and generation time. */
static void check_llamacpp_rates(void)
{
    struct server_metrics sm;
    struct server_report r;
    load(&sm, "llamacpp");
    server_report_make(&sm.series[0], 2000000000LL, 15000000000LL, &r);
    /* 0.25 ms per prompt token, 5.5 ms per generated token */
    CHECK(NEAR(r.delta[SQ_PROMPT_SECONDS].value, 6034 * 0.25e-3));
    CHECK(NEAR(r.delta[SQ_GEN_SECONDS].value, 240 * 5.5e-3));
    server_metrics_free(&sm);
}

/* TGI: no TTFT; queue, e2e and per-request time per token histograms. */
static void check_tgi(void)
{
    struct server_metrics sm;
    struct server_report r;
    load(&sm, "tgi");
    server_report_make(&sm.series[0], 2000000000LL, 15000000000LL, &r);
    CHECK(!r.delta[SQ_TTFT].present);
    CHECK(r.delta[SQ_QUEUE].present && NEAR(r.delta[SQ_QUEUE].count, 12));
    CHECK(r.delta[SQ_E2E].present && NEAR(r.delta[SQ_E2E].count, 12));
    CHECK(r.delta[SQ_ITL].present && NEAR(r.delta[SQ_ITL].count, 12) &&
          NEAR(r.delta[SQ_ITL].mean, 0.0052));
    server_metrics_free(&sm);
}

struct q_case {
    double q, want;
};

static void check_quantiles(void)
{
    /* 2 observations <= 1, 4 in (1,2], 2 in (2,4], 2 above 4 */
    const double le[] = {1, 2, 4, INFINITY}, cum[] = {2, 6, 8, 10};
    const struct q_case cases[] = {
        {0.1, 0.5}, {0.2, 1.0}, {0.5, 1.75}, {0.7, 2.0 + 2.0 * 1 / 2},
        {0.8, 4.0}, {0.9, 4.0}, {0.99, 4.0}};
    const double zero[] = {0, 0, 0, 0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double got = server_hist_quantile(le, cum, 4, cases[i].q);
        CHECK_MSG(NEAR(got, cases[i].want), "q %g: %g, want %g", cases[i].q,
                  got, cases[i].want);
    }
    CHECK(isnan(server_hist_quantile(le, zero, 4, 0.5)));
    CHECK(isnan(server_hist_quantile(le, cum, 0, 0.5)));
}

static void check_lines(void)
{
    struct server_sample s;
    /* the deprecated family first, the preferred one after: it wins */
    const char *page =
        "# TYPE vllm:gpu_cache_usage_perc gauge\n"
        "vllm:gpu_cache_usage_perc{engine=\"0\"} 0.9\n"
        "vllm:kv_cache_usage_perc{engine=\"0\"} 0.25\n"
        "vllm:kv_cache_usage_perc{engine=\"1\"} 0.5\n"
        "vllm:num_requests_running{engine=\"0\"} 3\n"
        "vllm:num_requests_running{engine=\"1\"} 4\n"
        "vllm:gpu_cache_usage_perc{engine=\"1\"} 0.95\n"
        "this is { not a line\n"
        "vllm:num_requests_waiting 1 1712345678000\n"
        "vllm:e2e_request_latency_seconds_bucket{le=\"bad\"} 3\n"
        "vllm:e2e_request_latency_seconds_bucket{le=\"0.5\"} 1\n"
        "vllm:e2e_request_latency_seconds_bucket{le=\"+Inf\"} 2\n"
        "vllm:e2e_request_latency_seconds_count 2";
    CHECK(server_sample_parse(page, strlen(page), &s) == 0);
    CHECK(s.has[SQ_KV_USAGE] && NEAR(s.value[SQ_KV_USAGE], 0.5));
    CHECK(strcmp(s.src[SQ_KV_USAGE]->family, "vllm:kv_cache_usage_perc") == 0);
    CHECK(s.value[SQ_RUNNING] == 7); /* two engines: summed */
    CHECK(s.value[SQ_WAITING] == 1);
    CHECK(s.bad_lines == 1);
    CHECK(s.hist[SQ_E2E].n == 2 && s.hist[SQ_E2E].count == 2 &&
          isinf(s.hist[SQ_E2E].le[1]));
    server_sample_free(&s);
}

/* A counter that went down between the bracketing samples: no delta. */
static void check_reset_and_failures(void)
{
    struct server_metrics sm;
    struct server_report r;
    const char *a = "vllm:request_success_total 50\n"
                    "vllm:time_to_first_token_seconds_bucket{le=\"1\"} 9\n"
                    "vllm:time_to_first_token_seconds_count 9\n";
    const char *b = "vllm:request_success_total 3\n"
                    "vllm:time_to_first_token_seconds_bucket{le=\"1\"} 2\n"
                    "vllm:time_to_first_token_seconds_count 2\n";
    struct trace_server_metrics m1 = {.url = "u",
                                      .start_ns = 0,
                                      .end_ns = 1,
                                      .text = a,
                                      .text_len = strlen(a)};
    struct trace_server_metrics bad = {.url = "u",
                                       .start_ns = 5,
                                       .end_ns = 6,
                                       .error_kind = "timeout",
                                       .error_message = "no answer"};
    struct trace_server_metrics m2 = {.url = "u",
                                      .start_ns = 10,
                                      .end_ns = 11,
                                      .text = b,
                                      .text_len = strlen(b)};
    memset(&sm, 0, sizeof sm);
    CHECK(server_metrics_add(&sm, &m1) == 0);
    CHECK(server_metrics_add(&sm, &bad) == 0);
    CHECK(server_metrics_add(&sm, &m2) == 0);
    CHECK(sm.series[0].failed == 1 &&
          strcmp(sm.series[0].first_error, "timeout: no answer") == 0);
    server_report_make(&sm.series[0], 2, 8, &r);
    CHECK(r.used == 2 && r.ok_samples == 2);
    CHECK(r.delta[SQ_REQUESTS].present && r.delta[SQ_REQUESTS].reset);
    CHECK(r.delta[SQ_TTFT].present && r.delta[SQ_TTFT].reset);
    server_metrics_free(&sm);
}

int main(void)
{
    check_server("vllm", true, true, true);
    check_server("sglang", true, true, true);
    check_server("tgi", false, true, false);
    check_server("llamacpp", false, false, true);
    check_llamacpp_rates();
    check_tgi();
    check_quantiles();
    check_lines();
    check_reset_and_failures();
    return CHECK_DONE();
}
