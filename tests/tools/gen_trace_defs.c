/* gen_trace_defs: gen_trace --definitions, the golden trace of summary --as
 * (tests/analyze/definitions/analyze_summary_as.sh computes every tool's
 * number from it by hand). Two chat requests, times in ms after each
 * request's start:
 *   1: role-only chunk 100; reasoning 150, 170; answer text in multi-token
 *      chunks 200, 230, 260; finish chunk without text 270; usage (9
 *      tokens) 280; [DONE] 290; transfer end 300; max_tokens 64.
 *   2: role-only chunk 40; answer 60, 80, 110 (the last with
 *      finish_reason); usage (3 tokens) and [DONE] in one receive at 120;
 *      transfer end 125; max_tokens 32.
 * usage: gen_trace --definitions OUT */
#include <stdio.h>
#include <string.h>

#include "gen_trace.h"
#include "trace.h"

#define MS 1000000LL
#define CHUNK(json) "data: " json "\n\n"
#define DELTA(d) CHUNK("{\"choices\":[{\"index\":0,\"delta\":" d "}]}")

struct defs_chunk {
    unsigned req;
    int64_t at_ms;
    const char *bytes;
};

static const struct defs_chunk chunks[] = {
    {2, 40, DELTA("{\"role\":\"assistant\",\"content\":\"\"}")},
    {2, 60, DELTA("{\"content\":\"A\"}")},
    {2, 80, DELTA("{\"content\":\"B\"}")},
    {1, 100, DELTA("{\"role\":\"assistant\",\"content\":\"\"}")},
    {2, 110,
     CHUNK("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"C\"},"
           "\"finish_reason\":\"stop\"}]}")},
    {2, 120,
     CHUNK("{\"choices\":[],\"usage\":{\"prompt_tokens\":4,"
           "\"completion_tokens\":3}}") "data: [DONE]\n\n"},
    {1, 150, DELTA("{\"reasoning_content\":\"Let\"}")},
    {1, 170, DELTA("{\"reasoning_content\":\" me\"}")},
    {1, 200, DELTA("{\"content\":\"Hello wor\"}")},
    {1, 230, DELTA("{\"content\":\"ld, how\"}")},
    {1, 260, DELTA("{\"content\":\" are you\"}")},
    {1, 270,
     CHUNK("{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":"
           "\"stop\"}]}")},
    {1, 280,
     CHUNK("{\"choices\":[],\"usage\":{\"prompt_tokens\":5,"
           "\"completion_tokens\":9}}")},
    {1, 290, "data: [DONE]\n\n"},
};

int gen_trace_definitions(int argc, char **argv)
{
    static const char *const models[] = {"golden"};
    const int64_t t0 = 1000 * MS, start[3] = {0, t0 + 10 * MS, t0};
    const int64_t end_ms[3] = {0, 300, 125}, max_tokens[3] = {0, 64, 32};
    struct trace_kv sse[] = {{"content-type", "text/event-stream"}};
    struct trace_header h;
    struct trace_footer ft;
    struct trace_writer *w;
    uint64_t bytes = 0;
    if (argc != 2) {
        fprintf(stderr, "usage: gen_trace --definitions OUT\n");
        return 2;
    }
    if (trace_writer_open(argv[1], true, &w) != TRACE_OK)
        return 1;
    memset(&h, 0, sizeof(h));
    h.tool_version = "gen_trace --definitions";
    h.trace_id = "def1n17e";
    h.api = "openai-chat";
    h.models = (const char **)models;
    h.n_models = 1;
    h.mono_zero_ns = t0;
    h.real_zero_ns = 1764460800000000000LL;
    trace_write_header(w, &h);
    for (unsigned i = 1; i <= 2; i++) {
        struct trace_request q;
        memset(&q, 0, sizeof(q));
        q.id = i;
        q.model = models[0];
        q.class_name = "short-short";
        q.input_tokens_est = -1;
        q.max_tokens = max_tokens[i];
        q.scheduled_ns = -1;
        q.start_ns = start[i];
        trace_write_request(w, &q);
    }
    for (size_t i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
        const struct defs_chunk *c = &chunks[i];
        trace_write_chunk(w, c->req, start[c->req] + c->at_ms * MS, c->bytes,
                          strlen(c->bytes));
        bytes += strlen(c->bytes);
    }
    for (unsigned i = 2; i >= 1; i--) {
        struct trace_result r;
        uint64_t n = 0, b = 0;
        for (size_t k = 0; k < sizeof(chunks) / sizeof(chunks[0]); k++)
            if (chunks[k].req == i) {
                n++;
                b += strlen(chunks[k].bytes);
            }
        memset(&r, 0, sizeof(r));
        r.id = i;
        r.end_ns = start[i] + end_ms[i] * MS;
        r.http_status = 200;
        r.headers = sse;
        r.n_headers = 1;
        r.phases.namelookup_ns = r.phases.connect_ns = r.phases.tls_ns = -1;
        r.phases.pretransfer_ns = r.phases.posttransfer_ns = -1;
        r.phases.starttransfer_ns = r.phases.total_ns = -1;
        r.first_byte_ns = -1;
        r.bytes = b;
        r.chunks = n;
        r.attempt = 1;
        trace_write_result(w, &r);
    }
    memset(&ft, 0, sizeof(ft));
    ft.end_ns = t0 + 400 * MS;
    ft.requests = ft.ok = 2;
    ft.chunks = sizeof(chunks) / sizeof(chunks[0]);
    ft.bytes = bytes;
    ft.reason = "complete";
    ft.loop_lag_p50_ns = ft.loop_lag_p99_ns = ft.loop_lag_max_ns = -1;
    trace_write_footer(w, &ft);
    return trace_writer_close(w) == TRACE_OK ? 0 : 1;
}
