/* gen_trace_replay: gen_trace --replay, the small trace replay_trace.sh and
 * replay_valgrind.sh serve back, and beside it the exact body each recorded
 * request must be replayed with. (Formerly the replay_trace_gen tool;
 * the header still names it, so the trace stays byte for byte.)
 *
 * usage: gen_trace --replay OUT.ttrace DIR
 * Requests, in recorded order (delays from the request's start):
 *   1 model-a 200 text/event-stream: chunks at 100, 150, 200 ms
 *   2 model-b 200 text/event-stream: chunks at 50, 60 ms
 *   3 model-a 429 application/json, Retry-After 7: one chunk at 10 ms
 *   4 model-b no result (trace cut mid-stream): one chunk at 30 ms
 *   5 model-c status 0 (connection refused): never served
 * DIR/req<N>.body holds request N's bytes. */
#include <stdio.h>
#include <string.h>

#include "gen_trace.h"
#include "trace.h"

#define MS 1000000LL

struct chunk_spec {
    unsigned req;
    int64_t delay_ms;
    const char *bytes;
};

static const struct chunk_spec chunks[] = {
    {1, 100, "data: {\"choices\":[{\"delta\":{\"content\":\"one \"}}]}\n\n"},
    {2, 50, "data: {\"choices\":[{\"delta\":{\"content\":\"b1\"}}]}\n\n"},
    {2, 60, "data: [DONE]\n\n"},
    {1, 150,
     "data: {\"choices\":[{\"delta\":{\"content\":\"two \"}}]}\n\n"
     "data: {\"choi"}, /* an event split across receives */
    {3, 10, "{\"error\":{\"message\":\"slow down\",\"type\":\"requests\"}}"},
    {1, 200,
     "ces\":[{\"delta\":{\"content\":\"h\xc3\xa9\"}}]}\n\n"
     "data: [DONE]\n\n"},
    {4, 30, "data: {\"choices\":[{\"delta\":{\"content\":\"cut\"}}]}\n\n"},
};

static const char *const models[] = {"model-a", "model-b", "model-a", "model-b",
                                     "model-c"};

/* Appends request n's bytes to DIR/req<n>.body. */
static int write_expected(const char *dir, unsigned n, const char *bytes)
{
    char path[4096];
    FILE *f;

    snprintf(path, sizeof(path), "%s/req%u.body", dir, n);
    f = fopen(path, "ab");
    if (f == NULL)
        return -1;
    fputs(bytes, f);
    return fclose(f);
}

int gen_trace_replay(int argc, char **argv)
{
    const int64_t t0 = 5000 * MS, start[] = {0,         5000 * MS, 5010 * MS,
                                             5020 * MS, 5030 * MS, 5040 * MS};
    struct trace_header h;
    struct trace_writer *w;
    struct trace_kv sse[] = {{"content-type", "text/event-stream"}};
    struct trace_kv err[] = {{"content-type", "application/json"},
                             {"retry-after", "7"}};
    unsigned i;

    if (argc != 3) {
        fprintf(stderr, "usage: gen_trace --replay OUT.ttrace DIR\n");
        return 2;
    }
    if (trace_writer_open(argv[1], true, &w) != TRACE_OK)
        return 1;
    trace_writer_set_version(w, 1); /* the same bytes as ever */
    memset(&h, 0, sizeof(h));
    h.tool_version = "replay_trace_gen";
    h.trace_id = "r3p1a7";
    h.api = "openai-chat";
    h.models = (const char **)models;
    h.n_models = 3;
    h.mono_zero_ns = t0;
    h.real_zero_ns = 1764460800000000000LL;
    trace_write_header(w, &h);
    for (i = 1; i <= 5; i++) {
        struct trace_request q;
        memset(&q, 0, sizeof(q));
        q.id = i;
        q.model = models[i - 1];
        q.class_name = "short-short";
        q.input_tokens_est = -1;
        q.max_tokens = -1;
        q.scheduled_ns = -1;
        q.start_ns = start[i];
        trace_write_request(w, &q);
    }
    for (i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
        const struct chunk_spec *c = &chunks[i];
        trace_write_chunk(w, c->req, start[c->req] + c->delay_ms * MS, c->bytes,
                          strlen(c->bytes));
        if (write_expected(argv[2], c->req, c->bytes) != 0)
            return 1;
    }
    for (i = 1; i <= 5; i++) {
        struct trace_result r;
        if (i == 4)
            continue; /* cut before its result */
        memset(&r, 0, sizeof(r));
        r.id = i;
        r.end_ns = start[i] + (i == 1 ? 210 : 70) * MS;
        r.http_status = i == 3 ? 429 : i == 5 ? 0 : 200;
        r.headers = i == 3 ? err : sse;
        r.n_headers = i == 3 ? 2 : 1;
        r.error_kind = i == 5 ? "connect" : NULL;
        r.phases.namelookup_ns = r.phases.connect_ns = r.phases.tls_ns = -1;
        r.phases.pretransfer_ns = r.phases.posttransfer_ns = -1;
        r.phases.starttransfer_ns = i == 5 ? -1 : 5 * MS;
        r.phases.total_ns = -1;
        r.first_byte_ns = -1;
        r.attempt = 1;
        trace_write_result(w, &r);
    }
    return trace_writer_close(w) == TRACE_OK ? 0 : 1;
}
