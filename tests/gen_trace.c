/* gen_trace: writes a valid synthetic tokentrace file with known timing, for
 * analyzer tests and benchmarks (no network involved).
 *
 * usage: gen_trace OUT.ttrace [requests] [tokens] [ttft_ms] [tpot_ms]
 * Each request streams `tokens` OpenAI chat chunks: the first token at
 * start + ttft, the others tpot apart; usage and [DONE] at the end. Request i
 * uses model "model-a" (odd) or "model-b" (even) and class short-short. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

static long arg(int argc, char **argv, int i, long dflt)
{
    char *end;
    long v;
    if (argc <= i)
        return dflt;
    v = strtol(argv[i], &end, 10);
    if (*end || v < 0) {
        fprintf(stderr, "gen_trace: bad number '%s'\n", argv[i]);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    struct trace_writer *w;
    const char *models[] = {"model-a", "model-b"};
    char chunk[256], rid[32];
    long n = arg(argc, argv, 2, 10), tokens = arg(argc, argv, 3, 20);
    int64_t ttft = arg(argc, argv, 4, 100) * 1000000LL;
    int64_t tpot = arg(argc, argv, 5, 10) * 1000000LL;
    int64_t t0 = 1000000000LL, t = t0;
    uint64_t chunks = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: gen_trace OUT [requests] [tokens] [ttft_ms] [tpot_ms]\n");
        return 2;
    }
    if (trace_writer_open(argv[1], true, &w) != TRACE_OK) {
        perror(argv[1]);
        return 1;
    }
    struct trace_header h = {
        .tool_version = "gen_trace", .trace_id = "9e9e9e9e", .host = "generator",
        .command_line = "gen_trace", .endpoint = "http://generator.invalid",
        .url = "http://generator.invalid/v1/chat/completions",
        .api = "openai-chat", .models = models, .n_models = 2,
        .workload = "builtin", .mono_zero_ns = t0,
        .real_zero_ns = 1764460800000000000LL /* 2025-11-30T00:00:00Z */};
    trace_write_header(w, &h);
    for (long i = 1; i <= n; i++) {
        snprintf(rid, sizeof(rid), "9e9e9e9e-%ld", i);
        struct trace_request q = {
            .id = (uint32_t)i, .model = models[(i + 1) % 2],
            .class_name = "short-short", .prompt_index = 0,
            .input_tokens_est = 40, .max_tokens = tokens, .scheduled_ns = -1,
            .start_ns = t, .request_id = rid};
        trace_write_request(w, &q);
        int64_t tt = t + ttft;
        for (long k = 0; k < tokens; k++, tt += tpot) {
            int len = snprintf(chunk, sizeof(chunk),
                               "data: {\"choices\":[{\"index\":0,\"delta\":"
                               "{\"content\":\"tok%ld \"}}]}\n\n", k);
            trace_write_chunk(w, (uint32_t)i, tt, chunk, (size_t)len);
            chunks++;
        }
        int len = snprintf(chunk, sizeof(chunk),
                           "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":40,"
                           "\"completion_tokens\":%ld}}\n\ndata: [DONE]\n\n", tokens);
        tt -= tpot;
        trace_write_chunk(w, (uint32_t)i, tt, chunk, (size_t)len);
        chunks++;
        struct trace_kv hdr[] = {{"content-type", "text/event-stream"}};
        struct trace_result s = {
            .id = (uint32_t)i, .end_ns = tt, .http_status = 200, .headers = hdr,
            .n_headers = 1, .chunks = (uint64_t)tokens + 1, .first_byte_ns = t + ttft,
            .attempt = 1, .phases = {-1, -1, -1, -1, -1, ttft, tt - t}};
        trace_write_result(w, &s);
        t = tt + 1000000;
    }
    struct trace_footer f = {.end_ns = t, .requests = (uint64_t)n,
                             .ok = (uint64_t)n, .chunks = chunks,
                             .reason = "complete"};
    trace_write_footer(w, &f);
    return trace_writer_close(w) == TRACE_OK ? 0 : 1;
}
