/* trace_test: the trace writer and reader agree, damage is found and named,
 * absurd lengths are refused, concatenated traces are told apart. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "crc32c.h"
#include "trace.h"

static char dir[] = "/tmp/tt_test_trace.XXXXXX";

static void path_in_dir(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", dir, name);
}

/* Writes a small complete trace with every record kind; returns its size. */
static long write_sample(const char *path, int n_requests)
{
    struct trace_writer *w;
    const char *models[] = {"model-a", "模型-b"};
    struct trace_kv labels[] = {{"week", "48"}};
    struct trace_kv opts[] = {{"concurrency", "4"}};
    struct trace_kv hdrs[] = {{"content-type", "text/event-stream"}};
    struct trace_header h = {.tool_version = "0.1.0",
                             .trace_id = "abcd1234",
                             .host = "box",
                             .command_line = "tokentrace-record -m model-a",
                             .endpoint = "http://x",
                             .url = "http://x/v1/chat/completions",
                             .api = "openai-chat",
                             .models = models,
                             .n_models = 2,
                             .labels = labels,
                             .n_labels = 1,
                             .workload = "builtin",
                             .options = opts,
                             .n_options = 1,
                             .mono_zero_ns = 1000,
                             .real_zero_ns = 1764468000000000000LL};
    CHECK(trace_writer_open(path, false, &w) == TRACE_OK);
    CHECK(trace_write_header(w, &h) == TRACE_OK);
    for (int i = 1; i <= n_requests; i++) {
        struct trace_request q = {.id = (uint32_t)i,
                                  .model = models[i % 2],
                                  .class_name = "short-short",
                                  .prompt_index = i,
                                  .input_tokens_est = 40,
                                  .max_tokens = 64,
                                  .warmup = i == 1,
                                  .scheduled_ns = -1,
                                  .start_ns = 5000 + i,
                                  .request_id = "abcd1234-1",
                                  .body = "{\"a\":1}",
                                  .body_len = 7};
        struct trace_result s = {.id = (uint32_t)i,
                                 .end_ns = 9000 + i,
                                 .http_status = 200,
                                 .headers = hdrs,
                                 .n_headers = 1,
                                 .bytes = 10,
                                 .chunks = 2,
                                 .first_byte_ns = 6000,
                                 .attempt = 1,
                                 .phases = {1, 2, -1, 3, -1, 4, 5}};
        CHECK(trace_write_request(w, &q) == TRACE_OK);
        CHECK(trace_write_chunk(w, (uint32_t)i, 6000 + i, "data: x\n\n", 9) ==
              TRACE_OK);
        CHECK(trace_write_chunk(w, (uint32_t)i, 7000 + i, "\xe4\xb8", 2) ==
              TRACE_OK);
        CHECK(trace_write_result(w, &s) == TRACE_OK);
    }
    struct trace_footer f = {.end_ns = 99999,
                             .requests = (uint64_t)n_requests,
                             .ok = (uint64_t)n_requests,
                             .reason = "complete"};
    CHECK(trace_write_footer(w, &f) == TRACE_OK);
    CHECK(trace_writer_close(w) == TRACE_OK);
    FILE *fp = fopen(path, "rb");
    fseek(fp, 0, SEEK_END);
    long size = ftell(fp);
    fclose(fp);
    return size;
}

/* Reads all records; returns how many were complete, *err the final code. */
static int read_all(const char *path, int *err, uint64_t *err_offset)
{
    struct trace_reader *r;
    struct trace_record rec;
    int n = 0, st;
    CHECK(trace_reader_open(path, &r) == TRACE_OK);
    while ((st = trace_reader_next(r, &rec)) > 0)
        n++;
    *err = st;
    *err_offset = trace_reader_error_offset(r);
    trace_reader_close(r);
    return n;
}

static void test_round_trip(void)
{
    char path[256];
    struct trace_reader *r;
    struct trace_record rec;
    int kinds[16] = {0}, st;
    path_in_dir(path, sizeof(path), "rt.ttrace");
    write_sample(path, 3);
    CHECK(trace_reader_open(path, &r) == TRACE_OK);
    while ((st = trace_reader_next(r, &rec)) > 0) {
        kinds[rec.kind]++;
        if (rec.kind == TRACE_HEADER) {
            CHECK(rec.offset == 0);
            CHECK(rec.u.header.format_version == TRACE_FORMAT_VERSION);
            CHECK(strcmp(rec.u.header.api, "openai-chat") == 0);
            CHECK(rec.u.header.n_models == 2);
            CHECK(strcmp(rec.u.header.models[1], "模型-b") == 0);
            CHECK(rec.u.header.n_labels == 1 &&
                  strcmp(rec.u.header.labels[0].value, "48") == 0);
            CHECK(rec.u.header.real_zero_ns == 1764468000000000000LL);
        } else if (rec.kind == TRACE_REQUEST) {
            CHECK(rec.u.request.body_len == 7);
            CHECK(rec.u.request.scheduled_ns == -1);
            CHECK(rec.u.request.warmup == (rec.u.request.id == 1));
        } else if (rec.kind == TRACE_RESULT) {
            CHECK(rec.u.result.http_status == 200);
            CHECK(rec.u.result.error_kind == NULL);
            CHECK(rec.u.result.phases.tls_ns == -1);
            CHECK(rec.u.result.phases.total_ns == 5);
            CHECK(strcmp(trace_result_header(&rec.u.result, "Content-Type"),
                         "text/event-stream") == 0);
        } else if (rec.kind == TRACE_CHUNK) {
            CHECK(rec.u.chunk.len == 9 || rec.u.chunk.len == 2);
            if (rec.u.chunk.len == 9)
                CHECK(memcmp(rec.u.chunk.data, "data: x\n\n", 9) == 0);
        } else if (rec.kind == TRACE_FOOTER) {
            CHECK(strcmp(rec.u.footer.reason, "complete") == 0);
        }
    }
    CHECK(st == 0);
    CHECK(kinds[TRACE_HEADER] == 1 && kinds[TRACE_REQUEST] == 3 &&
          kinds[TRACE_CHUNK] == 6 && kinds[TRACE_RESULT] == 3 &&
          kinds[TRACE_FOOTER] == 1);
    trace_reader_close(r);
}

/* Every truncation point: complete records before the cut read back, and
 * the error is a truncation at the offset of the first incomplete record. */
static void test_every_truncation(void)
{
    char path[256], cut[256];
    int total_err, err;
    uint64_t off;
    path_in_dir(path, sizeof(path), "full.ttrace");
    path_in_dir(cut, sizeof(cut), "cut.ttrace");
    long size = write_sample(path, 2);
    int total = read_all(path, &total_err, &off);
    CHECK(total_err == 0 && total == 1 + 2 * 4 + 1);
    FILE *fp = fopen(path, "rb");
    char *all = malloc((size_t)size);
    CHECK(fread(all, 1, (size_t)size, fp) == (size_t)size);
    fclose(fp);
    int prev = 0;
    for (long len = 0; len < size; len++) {
        FILE *out = fopen(cut, "wb");
        fwrite(all, 1, (size_t)len, out);
        fclose(out);
        int n = read_all(cut, &err, &off);
        CHECK_MSG(n >= prev && n < total, "len %ld read %d", len, n);
        if (len == 0)
            CHECK(err == 0 && n == 0);
        else if (err != 0)
            CHECK_MSG(err == -TRACE_E_TRUNCATED && off <= (uint64_t)len,
                      "len %ld err %d off %llu", len, err,
                      (unsigned long long)off);
        prev = n;
    }
    free(all);
}

static void write_bytes(const char *path, const void *p, size_t n)
{
    FILE *out = fopen(path, "wb");
    fwrite(p, 1, n, out);
    fclose(out);
}

/* A string header claiming 4 GiB is refused at once, without reading on. */
static void test_absurd_length(void)
{
    char path[256], full[256];
    int err;
    uint64_t off;
    path_in_dir(full, sizeof(full), "full2.ttrace");
    path_in_dir(path, sizeof(path), "absurd.ttrace");
    long size = write_sample(full, 1);
    FILE *fp = fopen(full, "rb");
    unsigned char *all = malloc((size_t)size + 16);
    CHECK(fread(all, 1, (size_t)size, fp) == (size_t)size);
    fclose(fp);
    /* Append a chunk record whose bin claims 4 GiB - 1. */
    unsigned char bad[] = {0x94, 0x02, 0x01, 0x05, 0xc6,
                           0xff, 0xff, 0xff, 0xff, 'x'};
    memcpy(all + size, bad, sizeof(bad));
    write_bytes(path, all, (size_t)size + sizeof(bad));
    int n = read_all(path, &err, &off);
    CHECK(n == 1 + 4 + 1);
    CHECK(err == -TRACE_E_TOO_LARGE);
    CHECK(off == (uint64_t)size);
    /* An array header claiming 2^32-1 elements: not allocated, cut tail. */
    unsigned char arr[] = {0xdd, 0xff, 0xff, 0xff, 0xff, 0x01};
    memcpy(all + size, arr, sizeof(arr));
    write_bytes(path, all, (size_t)size + sizeof(arr));
    n = read_all(path, &err, &off);
    CHECK(n == 6 && err == -TRACE_E_TRUNCATED && off == (uint64_t)size);
    /* 0xc1 is never valid msgpack. */
    all[size] = 0xc1;
    write_bytes(path, all, (size_t)size + 1);
    n = read_all(path, &err, &off);
    CHECK(n == 6 && err == -TRACE_E_MALFORMED && off == (uint64_t)size);
    free(all);
}

static void test_not_a_trace_and_version(void)
{
    char path[256];
    int err;
    uint64_t off;
    path_in_dir(path, sizeof(path), "junk.ttrace");
    write_bytes(path, "hello world\n", 12);
    CHECK(read_all(path, &err, &off) == 0 && err < 0);
    /* [1, {"format":"tokentrace","version":99}] */
    unsigned char future[] = {0x92, 0x01, 0x82, 0xa6, 'f', 'o',  'r', 'm',
                              'a',  't',  0xaa, 't',  'o', 'k',  'e', 'n',
                              't',  'r',  'a',  'c',  'e', 0xa7, 'v', 'e',
                              'r',  's',  'i',  'o',  'n', 99};
    write_bytes(path, future, sizeof(future));
    CHECK(read_all(path, &err, &off) == 0 && err == -TRACE_E_VERSION);
    /* A chunk before any header. */
    unsigned char chunk[] = {0x94, 0x02, 0x01, 0x05, 0xc4, 0x01, 'x'};
    write_bytes(path, chunk, sizeof(chunk));
    CHECK(read_all(path, &err, &off) == 0 && err == -TRACE_E_NOT_TRACE);
}

static void test_concatenated_and_unknown(void)
{
    char a[256], both[256];
    path_in_dir(a, sizeof(a), "a.ttrace");
    path_in_dir(both, sizeof(both), "both.ttrace");
    long size = write_sample(a, 1);
    FILE *fp = fopen(a, "rb");
    unsigned char *all = malloc((size_t)size * 2 + 16);
    CHECK(fread(all, 1, (size_t)size, fp) == (size_t)size);
    fclose(fp);
    /* An unknown record kind 42 between the two traces: [42, "x", crc]
     * (in a version 2 trace every record ends with its CRC-32C). */
    unsigned char unknown[] = {0x93, 42, 0xa1, 'x', 0xce, 0, 0, 0, 0};
    uint32_t crc = crc32c(0, unknown, 4);
    for (int i = 0; i < 4; i++)
        unknown[5 + i] = (unsigned char)(crc >> (24 - 8 * i));
    memcpy(all + size, unknown, sizeof(unknown));
    memcpy(all + size + sizeof(unknown), all, (size_t)size);
    write_bytes(both, all, (size_t)size * 2 + sizeof(unknown));
    struct trace_reader *r;
    struct trace_record rec;
    int headers = 0, unknowns = 0, st;
    unsigned last_index = 0;
    CHECK(trace_reader_open(both, &r) == TRACE_OK);
    while ((st = trace_reader_next(r, &rec)) > 0) {
        headers += rec.kind == TRACE_HEADER;
        unknowns += rec.kind == TRACE_UNKNOWN;
        last_index = rec.trace_index;
    }
    CHECK(st == 0 && headers == 2 && unknowns == 1 && last_index == 1);
    trace_reader_close(r);
    free(all);
}

/* SPEC 5: a chunk record costs at most 24 bytes beyond its payload in
 * format version 1; version 2 adds its 5-byte checksum (29). */
static void test_chunk_overhead(void)
{
    char path[256];
    struct trace_writer *w;
    path_in_dir(path, sizeof(path), "overhead.ttrace");
    CHECK(trace_writer_open(path, false, &w) == TRACE_OK);
    static char payload[70000];
    size_t sizes[] = {0, 1, 200, 300, 70000};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        size_t before = trace_writer_pending(w);
        CHECK(trace_write_chunk(w, 4000000000u, INT64_MAX, payload, sizes[i]) ==
              0);
        size_t overhead = trace_writer_pending(w) - before - sizes[i];
        CHECK_MSG(overhead <= 24 + 5, "payload %zu overhead %zu", sizes[i],
                  overhead);
        trace_writer_flush(w);
    }
    CHECK(trace_writer_close(w) == TRACE_OK);
    /* -o refuses to overwrite without force. */
    CHECK(trace_writer_open(path, false, &w) == TRACE_E_EXISTS);
    CHECK(trace_writer_open(path, true, &w) == TRACE_OK);
    trace_writer_close(w);
}

/* A server metrics record (kind 7) reads back: a scrape and a failed one;
 * the text is bytes (not UTF-8 checked), its length kept. */
static void test_server_metrics(void)
{
    char path[256];
    struct trace_writer *w;
    struct trace_reader *r;
    struct trace_record rec;
    const char text[] = "# TYPE x gauge\nx{a=\"\xff\"} 1\n";
    struct trace_server_metrics ok = {.url = "http://h:8000/metrics",
                                      .when = "before",
                                      .start_ns = 10,
                                      .end_ns = 20,
                                      .http_status = 200,
                                      .bytes = 999,
                                      .text = text,
                                      .text_len = sizeof text - 1,
                                      .lines_dropped = 7,
                                      .truncated = true};
    struct trace_server_metrics bad = {.url = "http://h:8000/metrics",
                                       .when = "during",
                                       .start_ns = 30,
                                       .end_ns = 40,
                                       .http_status = 500,
                                       .error_kind = "http_500",
                                       .error_message = "HTTP 500"};
    int n = 0, st;
    path_in_dir(path, sizeof(path), "sm.ttrace");
    write_sample(path, 1);
    CHECK(trace_writer_open(path, true, &w) == TRACE_OK);
    {
        struct trace_header h = {
            .tool_version = "0", .trace_id = "t", .api = "openai-chat"};
        CHECK(trace_write_header(w, &h) == TRACE_OK);
    }
    CHECK(trace_write_server_metrics(w, &ok) == TRACE_OK);
    CHECK(trace_write_server_metrics(w, &bad) == TRACE_OK);
    CHECK(trace_writer_close(w) == TRACE_OK);
    CHECK(trace_reader_open(path, &r) == TRACE_OK);
    while ((st = trace_reader_next(r, &rec)) > 0) {
        const struct trace_server_metrics *m = &rec.u.server_metrics;
        if (rec.kind != TRACE_SERVER_METRICS)
            continue;
        if (n++ == 0) {
            CHECK(strcmp(m->url, ok.url) == 0 &&
                  strcmp(m->when, "before") == 0);
            CHECK(m->start_ns == 10 && m->end_ns == 20 &&
                  m->http_status == 200);
            CHECK(m->bytes == 999 && m->lines_dropped == 7 && m->truncated);
            CHECK(m->text_len == sizeof text - 1 &&
                  memcmp(m->text, text, m->text_len) == 0);
            CHECK(m->error_kind == NULL);
        } else {
            CHECK(strcmp(m->error_kind, "http_500") == 0);
            CHECK(strcmp(m->error_message, "HTTP 500") == 0);
            CHECK(m->text_len == 0 && !m->truncated && m->lines_dropped == 0);
        }
    }
    CHECK(st == 0 && n == 2);
    trace_reader_close(r);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    test_round_trip();
    test_every_truncation();
    test_absurd_length();
    test_not_a_trace_and_version();
    test_concatenated_and_unknown();
    test_chunk_overhead();
    test_server_metrics();
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    if (system(cmd) != 0)
        return 1;
    return CHECK_DONE();
}
