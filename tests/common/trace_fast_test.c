/* trace_fast_test: the trace reader's chunk fast path (read_chunk_fast in
 * common/trace_reader.c) gives exactly what the general path gives: the
 * same records (kind, offset, size, trace index, chunk fields and bytes),
 * the same final status, error message and error offset. Each input is
 * read twice, once as usual and once with TOKENTRACE_NO_FAST_PATH=1, and
 * the two transcripts must match: over every fuzz corpus and crash file,
 * chunk records in every msgpack encoding the general path accepts or
 * refuses, every truncation and many single-byte corruptions of a sample
 * trace, and a trace larger than the reader's read window.
 *
 * usage: trace_fast_test [FILE...]   (no argument: the built-in inputs) */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "check.h"
#include "fuzz_files.h"
#include "trace.h"

#ifndef TT_FUZZ_DIR
#define TT_FUZZ_DIR "tests/fuzz"
#endif

/* Every offset is overwritten; under AddressSanitizer, whose every reader
 * buffer costs a mapping, every third (the suite's time limit). */
#if defined(__SANITIZE_ADDRESS__)
#define DAMAGE_STRIDE 3
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DAMAGE_STRIDE 3
#endif
#endif
#ifndef DAMAGE_STRIDE
#define DAMAGE_STRIDE 1
#endif

static char dir[] = "/tmp/tt_test_trace_fast.XXXXXX";
static unsigned long inputs, fast_records;

/* FNV-1a of the chunk bytes: the transcript stays short. */
static uint64_t hash_bytes(const uint8_t *p, size_t n)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * UINT64_C(1099511628211);
    return h;
}

/* Reads path to its end or first error with the fast path on or off and
 * writes one line per record and a last line with the outcome into out.
 * Returns the number of records the fast path read (raw == NULL). */
static unsigned long transcript(const char *path, int fast, struct buf *out)
{
    struct trace_reader *r;
    struct trace_record rec;
    unsigned long n_fast = 0;
    int st;
    if (fast)
        unsetenv("TOKENTRACE_NO_FAST_PATH");
    else
        setenv("TOKENTRACE_NO_FAST_PATH", "1", 1);
    buf_reset(out);
    if (trace_reader_open(path, &r) != TRACE_OK) {
        buf_puts(out, "cannot open\n");
        return 0;
    }
    while ((st = trace_reader_next(r, &rec)) > 0) {
        buf_printf(out, "%d %d %" PRIu64 " %zu %u", (int)rec.kind, rec.raw_kind,
                   rec.offset, rec.size, rec.trace_index);
        if (rec.kind == TRACE_CHUNK) {
            const struct trace_chunk *c = &rec.u.chunk;
            buf_printf(out, " chunk %" PRIu32 " %" PRId64 " %zu %016" PRIx64,
                       c->request_id, c->t_ns, c->len,
                       hash_bytes(c->data, c->len));
            n_fast += rec.raw == NULL;
        } else {
            CHECK_MSG(rec.raw != NULL, "%s: record at %" PRIu64 " has no tree",
                      path, rec.offset);
        }
        buf_puts(out, "\n");
    }
    buf_printf(out, "end %d", st);
    if (st < 0)
        buf_printf(out, " at %" PRIu64 ": %s", trace_reader_error_offset(r),
                   trace_reader_error(r));
    buf_puts(out, "\n");
    /* An error sticks, on both paths. */
    if (st < 0)
        CHECK_MSG(trace_reader_next(r, &rec) < 0, "%s: error did not stick",
                  path);
    trace_reader_close(r);
    unsetenv("TOKENTRACE_NO_FAST_PATH");
    return n_fast;
}

/* Prints the first line where a and b differ. */
static void show_difference(const char *path, const struct buf *a,
                            const struct buf *b)
{
    size_t i = 0, line = 1, start = 0;
    while (i < a->len && i < b->len && a->data[i] == b->data[i]) {
        if (a->data[i] == '\n') {
            line++;
            start = i + 1;
        }
        i++;
    }
    fprintf(stderr,
            "%s: transcripts differ at line %zu:\n  fast:    %.*s\n"
            "  general: %.*s\n",
            path, line, (int)strcspn(a->data + start, "\n"), a->data + start,
            (int)strcspn(b->data + start, "\n"), b->data + start);
}

/* Reads path both ways and checks the transcripts are the same; returns
 * the number of chunk records the fast path read. */
static unsigned long compare_file(const char *path)
{
    struct buf fast, general;
    unsigned long n_fast, n_general;
    buf_init(&fast, 0);
    buf_init(&general, 0);
    n_fast = transcript(path, 1, &fast);
    n_general = transcript(path, 0, &general);
    CHECK_MSG(n_general == 0, "%s: the fast path ran while switched off", path);
    if (fast.len != general.len ||
        memcmp(fast.data, general.data, fast.len) != 0) {
        show_difference(path, &fast, &general);
        check_failures++;
    }
    inputs++;
    fast_records += n_fast;
    buf_free(&fast);
    buf_free(&general);
    return n_fast;
}

static void write_bytes(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(p, 1, n, f) == n);
    if (f)
        fclose(f);
}

static void compare_bytes(const void *p, size_t n)
{
    char path[256];
    snprintf(path, sizeof(path), "%s/input.ttrace", dir);
    write_bytes(path, p, n);
    (void)compare_file(path);
}

/* compare_file for fuzz_files_each. */
static void compare_fuzz_file(const char *path)
{
    (void)compare_file(path);
}

/* Every file of every fuzz target's corpus and crash directory. */
static void test_fuzz_files(void)
{
    unsigned long before = inputs;
    fuzz_files_each(compare_fuzz_file);
    CHECK_MSG(inputs - before >= 30, "only %lu fuzz files found under %s",
              inputs - before, TT_FUZZ_DIR);
}

/* A header and one request, as the recorder writes them, into out. */
static void header_bytes(struct buf *out)
{
    char path[256];
    struct trace_writer *w;
    struct trace_header h = {.tool_version = "t",
                             .trace_id = "ab",
                             .api = "openai-chat",
                             .mono_zero_ns = 1,
                             .real_zero_ns = 2};
    struct trace_request q = {.id = 1,
                              .model = "m",
                              .scheduled_ns = -1,
                              .start_ns = 10,
                              .prompt_index = 0};
    FILE *f;
    char tmp[4096];
    size_t n;
    snprintf(path, sizeof(path), "%s/header.ttrace", dir);
    CHECK(trace_writer_open(path, true, &w) == TRACE_OK);
    CHECK(trace_write_header(w, &h) == TRACE_OK);
    CHECK(trace_write_request(w, &q) == TRACE_OK);
    CHECK(trace_writer_close(w) == TRACE_OK);
    f = fopen(path, "rb");
    CHECK(f != NULL);
    n = f ? fread(tmp, 1, sizeof(tmp), f) : 0;
    if (f)
        fclose(f);
    buf_reset(out);
    buf_append(out, tmp, n);
}

/* One chunk record per line of this table, as hex: the canonical encoding
 * and every variant the general path accepts or refuses. */
static const char *const chunk_variants[] = {
    "94 02 01 d3 0000000000000064 c4 03 616263", /* canonical */
    "94 02 01 64 c4 00",                         /* fixint time, empty */
    "94 02 01 ff c4 01 41",                      /* negative fixint time */
    "94 02 cc 01 d3 0000000000000064 c4 01 41",  /* uint8 id */
    "94 02 cd 0001 cc 64 c4 01 41",              /* uint16 id, uint8 time */
    "94 02 ce 00000001 cd 0064 c4 01 41",        /* uint32 id */
    "94 02 ce ffffffff ce 00000064 c4 01 41",    /* id UINT32_MAX */
    "94 02 cf 0000000000000001 cf 0000000000000064 c4 01 41",
    "94 02 cf 0000000100000000 64 c4 01 41",  /* id > UINT32_MAX */
    "94 02 cf 8000000000000000 64 c4 01 41",  /* id > INT64_MAX */
    "94 02 d0 01 d0 9c c4 01 41",             /* int8 id, int8 time */
    "94 02 d1 0001 d1 ff9c c4 01 41",         /* int16 */
    "94 02 d2 00000001 d2 ffffff9c c4 01 41", /* int32 */
    "94 02 d3 0000000000000001 d3 ffffffffffffff9c c4 01 41",
    "94 02 d0 ff 64 c4 01 41",               /* negative id */
    "94 02 ff 64 c4 01 41",                  /* negative fixint id */
    "94 02 01 cf 7fffffffffffffff c4 01 41", /* time INT64_MAX */
    "94 02 01 cf 8000000000000000 c4 01 41", /* time > INT64_MAX */
    "94 02 01 cb 4059000000000000 c4 01 41", /* float time 100.0 */
    "94 02 01 cb 4059100000000000 c4 01 41", /* float time 100.25 */
    "94 02 cb 3ff0000000000000 64 c4 01 41", /* float id 1.0 */
    "94 02 01 c0 c4 01 41",                  /* nil time */
    "94 02 c0 64 c4 01 41",                  /* nil id */
    "94 02 01 64 a3 616263",                 /* fixstr data */
    "94 02 01 64 d9 03 616263",              /* str8 data */
    "94 02 01 64 da 0003 616263",            /* str16 data */
    "94 02 01 64 db 00000003 616263",        /* str32 data */
    "94 02 01 64 c5 0003 616263",            /* bin16 data */
    "94 02 01 64 c6 00000003 616263",        /* bin32 data */
    "94 02 01 64 c0",                        /* nil data */
    "94 02 01 64 01",                        /* int data */
    "94 02 01 64 c7 01 05 41",               /* ext data */
    "95 02 01 64 c4 01 41 c0",               /* 5 elements */
    "93 02 01 64",                           /* 3 elements */
    "dc 0004 02 01 64 c4 01 41",             /* array16 */
    "94 cc 02 01 64 c4 01 41",               /* uint8 kind */
    "94 02 01 64 c4 05 41",                  /* bin claims 5, has 1 */
    "94 02 01 64 c6 7fffffff 41",            /* bin claims 2 GiB */
    "94 02 01 64 c4",                        /* cut in the bin header */
    "94 02 01 d3 00",                        /* cut in the time */
    "94 02 cd 00",                           /* cut in the id */
    "94 02",                                 /* cut after the kind */
    "94",                                    /* cut after the array */
    "94 02 01 64 c1",                        /* never-used byte */
};

/* Appends the bytes of a hex line ("94 02 ...", spaces ignored). */
static void append_hex(struct buf *out, const char *hex)
{
    while (*hex) {
        unsigned v;
        if (*hex == ' ') {
            hex++;
            continue;
        }
        CHECK(sscanf(hex, "%2x", &v) == 1);
        buf_append(out, (char[]){(char)v}, 1);
        hex += 2;
    }
}

/* Each chunk encoding after a header, followed by a canonical chunk and a
 * footer, and also at the very end of the file. */
static void test_chunk_encodings(void)
{
    struct buf b, head;
    buf_init(&b, 0);
    buf_init(&head, 0);
    header_bytes(&head);
    for (size_t i = 0; i < sizeof(chunk_variants) / sizeof(*chunk_variants);
         i++) {
        buf_reset(&b);
        buf_append(&b, head.data, head.len);
        append_hex(&b, chunk_variants[i]);
        compare_bytes(b.data, b.len);
        append_hex(&b, chunk_variants[0]);
        append_hex(&b, "92 05 80"); /* footer [5, {}] */
        compare_bytes(b.data, b.len);
    }
    /* A chunk before any header: "not a tokentrace header", both ways. */
    buf_reset(&b);
    append_hex(&b, chunk_variants[0]);
    buf_append(&b, head.data, head.len);
    compare_bytes(b.data, b.len);
    buf_free(&b);
    buf_free(&head);
}

/* A small trace of every record kind with chunks of several sizes. */
static void sample_trace(const char *path, int requests, size_t max_payload)
{
    struct trace_writer *w;
    struct trace_header h = {.tool_version = "t",
                             .trace_id = "ab",
                             .api = "openai-chat",
                             .mono_zero_ns = 1,
                             .real_zero_ns = 2};
    struct trace_footer f = {.end_ns = 9, .reason = "complete"};
    static char payload[70000];
    size_t sizes[] = {0, 1, 31, 32, 200, 255, 256, 300, 65535, 65536};
    memset(payload, 'x', sizeof(payload));
    CHECK(trace_writer_open(path, true, &w) == TRACE_OK);
    CHECK(trace_write_header(w, &h) == TRACE_OK);
    for (int i = 1; i <= requests; i++) {
        struct trace_request q = {
            .id = (uint32_t)i, .model = "m", .scheduled_ns = -1, .start_ns = i};
        struct trace_result s = {.id = (uint32_t)i,
                                 .end_ns = 100 + i,
                                 .http_status = 200,
                                 .attempt = 1};
        CHECK(trace_write_request(w, &q) == TRACE_OK);
        for (int k = 0; k < 10; k++) {
            size_t n = sizes[(i + k) % 10];
            if (n > max_payload)
                n = (size_t)(i * 7 + k) % (max_payload + 1);
            payload[0] = (char)i;
            CHECK(trace_write_chunk(w, (uint32_t)(i * 37 % 300), i * 1000 + k,
                                    payload, n) == TRACE_OK);
        }
        CHECK(trace_write_result(w, &s) == TRACE_OK);
    }
    CHECK(trace_write_footer(w, &f) == TRACE_OK);
    CHECK(trace_writer_close(w) == TRACE_OK);
}

/* Every prefix of a small trace, and byte values that break structure
 * written at every offset. */
static void test_damage(void)
{
    static const int values[] = {0xc1, 0xd3}; /* never used; int64 */
    char path[256], *data = NULL;
    size_t n;
    snprintf(path, sizeof(path), "%s/sample.ttrace", dir);
    sample_trace(path, 2, 40);
    data = test_read_file(path, &n);
    CHECK(data != NULL);
    CHECK(compare_file(path) > 0);
    for (size_t cut = 0; cut < n; cut++)
        compare_bytes(data, cut);
    for (size_t at = 0; at < n; at += DAMAGE_STRIDE) {
        char keep = data[at];
        for (size_t v = 0; v < sizeof(values) / sizeof(*values); v++) {
            data[at] = (char)values[v];
            compare_bytes(data, n);
        }
        data[at] = (char)(keep + 1); /* lengths and counts one off */
        compare_bytes(data, n);
        data[at] = keep;
    }
    free(data);
}

/* Records that straddle the 256 KiB read window, big and small chunks. */
static void test_large(void)
{
    char path[256];
    snprintf(path, sizeof(path), "%s/large.ttrace", dir);
    sample_trace(path, 80, 70000); /* 10 MiB */
    CHECK_MSG(compare_file(path) > 400, "the fast path read too few chunks");
}

int main(int argc, char **argv)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            (void)compare_file(argv[i]);
    } else {
        test_fuzz_files();
        test_chunk_encodings();
        test_damage();
        test_large();
        CHECK_MSG(fast_records > 0, "the fast path never ran");
    }
    {
        char cmd[512];
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", dir);
    }
    printf("trace_fast_test: %lu inputs, %lu chunk records by the fast path\n",
           inputs, fast_records);
    return CHECK_DONE();
}
