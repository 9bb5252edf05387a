/* gen_trace_script: gen_trace --script, a "script of replies" for
 * tokentrace-replay --trace: each FILE is the SSE body of one reply (a
 * streamed tool call, say), served in order to the requests for MODEL, so
 * a real agent (tests/record/proxy/proxy_cline.sh) can be driven to the end
 * of its task without a model.
 *
 * usage: gen_trace --script [--max-tokens N] [--api KIND] OUT MODEL FILE...
 * Reply i: status 200 text/event-stream, first byte 20 ms after the
 * request, then one chunk per SSE event (up to and including its blank
 * line), 5 ms apart; requests 10 s apart in the trace. A line "@wait MS"
 * before an event (not sent: it is no part of the reply) adds MS ms to the
 * gap before that event's chunk, for shapes such as a long pause before
 * the finish chunk. --max-tokens N: the requests say they asked for N
 * (default: not sent); --api KIND: the header's API kind (openai-chat). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_trace.h"
#include "trace.h"

#define MS 1000000LL
#define MAX_REPLY (1 << 20)

/* Reads the file at path into buf (at most MAX_REPLY bytes); -1 on error. */
static long read_reply(const char *path, char *buf)
{
    FILE *f = fopen(path, "rb");
    size_t n;
    if (!f) {
        perror(path);
        return -1;
    }
    n = fread(buf, 1, MAX_REPLY, f);
    fclose(f);
    return n == MAX_REPLY ? -1 : (long)n;
}

/* Skips "@wait MS" lines at buf + *at, adding their delays to *t. */
static void skip_waits(const char *buf, size_t len, size_t *at, int64_t *t)
{
    while (len - *at > 6 && memcmp(buf + *at, "@wait ", 6) == 0) {
        const char *nl = memchr(buf + *at, '\n', len - *at);
        *t += strtoll(buf + *at + 6, NULL, 10) * MS;
        *at = nl ? (size_t)(nl - buf) + 1 : len;
    }
}

/* Writes reply id's chunks: one per SSE event, from start + 20 ms.
 * Returns the time of the last. */
static int64_t write_chunks(struct trace_writer *w, unsigned id, int64_t start,
                            const char *buf, size_t len)
{
    size_t at = 0;
    int64_t t = start + 20 * MS;
    while (at < len) {
        const char *end = NULL;
        size_t n;
        skip_waits(buf, len, &at, &t);
        if (at >= len)
            break;
        if (len - at >= 2) {
            const char *p = buf + at;
            for (size_t i = 0; i + 1 < len - at; i++)
                if (p[i] == '\n' && p[i + 1] == '\n') {
                    end = p + i + 2;
                    break;
                }
        }
        n = end ? (size_t)(end - (buf + at)) : len - at;
        trace_write_chunk(w, id, t, buf + at, n);
        at += n;
        t += 5 * MS;
    }
    return t - 5 * MS;
}

int gen_trace_script(int argc, char **argv)
{
    const int64_t t0 = 1000 * MS;
    struct trace_header h;
    struct trace_writer *w;
    struct trace_kv sse[] = {{"content-type", "text/event-stream"}};
    const char *models[1];
    char *buf;
    long long max_tokens = -1;
    const char *api = "openai-chat";
    int i;
    while (argc >= 3 && (strcmp(argv[1], "--max-tokens") == 0 ||
                         strcmp(argv[1], "--api") == 0)) {
        if (strcmp(argv[1], "--api") == 0)
            api = argv[2];
        else
            max_tokens = strtoll(argv[2], NULL, 10);
        argc -= 2;
        argv += 2;
    }
    if (argc < 4) {
        fprintf(stderr, "usage: gen_trace --script [--max-tokens N] [--api "
                        "KIND] OUT MODEL FILE...\n");
        return 2;
    }
    buf = malloc(MAX_REPLY);
    if (!buf || trace_writer_open(argv[1], true, &w) != TRACE_OK) {
        free(buf);
        return 1;
    }
    models[0] = argv[2];
    memset(&h, 0, sizeof(h));
    h.tool_version = "gen_trace --script";
    h.trace_id = "5c417e00";
    h.api = api;
    h.models = models;
    h.n_models = 1;
    h.mono_zero_ns = t0;
    h.real_zero_ns = 1764460800000000000LL;
    trace_write_header(w, &h);
    for (i = 3; i < argc; i++) {
        struct trace_request q;
        struct trace_result r;
        unsigned id = (unsigned)(i - 2);
        int64_t start = t0 + (int64_t)(i - 3) * 10000 * MS;
        long len = read_reply(argv[i], buf);
        if (len < 0) {
            free(buf);
            trace_writer_close(w);
            return 1;
        }
        memset(&q, 0, sizeof(q));
        q.id = id;
        q.model = argv[2];
        q.class_name = "script";
        q.input_tokens_est = q.scheduled_ns = -1;
        q.max_tokens = max_tokens;
        q.start_ns = start;
        trace_write_request(w, &q);
        memset(&r, 0, sizeof(r));
        r.end_ns = write_chunks(w, id, start, buf, (size_t)len) + MS;
        r.id = id;
        r.http_status = 200;
        r.headers = sse;
        r.n_headers = 1;
        r.phases.namelookup_ns = r.phases.connect_ns = r.phases.tls_ns = -1;
        r.phases.pretransfer_ns = r.phases.posttransfer_ns = -1;
        r.phases.starttransfer_ns = 20 * MS;
        r.phases.total_ns = -1;
        r.first_byte_ns = -1;
        r.attempt = 1;
        trace_write_result(w, &r);
    }
    free(buf);
    return trace_writer_close(w) == TRACE_OK ? 0 : 1;
}
