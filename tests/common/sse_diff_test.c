/* sse_diff_test: the SSE parser (common/sse.c) against its frozen reference
 * (tests/common/sse_ref.c, the byte-by-byte scan it replaced). Both parse the
 * same inputs cut the same ways, and must produce the same log: every event
 * (type, id, data, time), every comment (text, time), every feed's return
 * code, finish's return and the counters.
 *
 * Inputs: every file under tests/fuzz/corpus and tests/fuzz/crashes, and
 * generated streams built from the pieces that matter to a line scanner
 * (CR, LF, CRLF, colons, field names, BOM bytes, NUL, long runs). Cuts: one
 * feed; two feeds split at every byte; one byte per feed; random piece
 * sizes. Caps: the default and three small ones, so oversized lines and
 * events are met at every position. Each piece is fed from its own heap
 * copy that is scribbled over and freed after the feed, so an event that
 * still points into a finished feed shows up as a difference (or under
 * ASan as a use after free). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "check.h"
#include "fuzz_files.h"
#include "sse.h"
#include "sse_ref.h"

#ifndef TT_FUZZ_DIR
#define TT_FUZZ_DIR "tests/fuzz"
#endif

static const size_t caps[] = {0, 7, 40, 256};
#define N_CAPS (sizeof(caps) / sizeof(*caps))

static unsigned long inputs, runs, differences;

/* Appends a record to the log: a tag, a time and a length-prefixed text. */
static void log_put(struct buf *log, char tag, int64_t t, const char *s,
                    size_t n)
{
    (void)buf_append(log, &tag, 1);
    (void)buf_append(log, &t, sizeof(t));
    (void)buf_append(log, &n, sizeof(n));
    (void)buf_append(log, s, n);
}

static void on_event(void *ctx, const struct sse_event *ev)
{
    struct buf *log = ctx;
    log_put(log, 'T', ev->t_ns, ev->type, ev->type_len);
    log_put(log, 'I', ev->t_ns, ev->id, ev->id_len);
    log_put(log, 'D', ev->t_ns, ev->data, ev->data_len);
}

static void on_comment(void *ctx, const char *text, size_t len, int64_t t)
{
    log_put(ctx, 'C', t, text, len);
}

/* Feeds the next piece from a fresh heap copy, then spoils the copy. */
static void *piece_copy(const char *s, size_t n)
{
    char *c = malloc(n ? n : 1);
    if (!c) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    memcpy(c, s, n);
    return c;
}

static void piece_spoil(void *c, size_t n)
{
    memset(c, 0xA5, n);
    free(c);
}

/* Runs the new parser over in[0..n) cut at cuts[0..n_cuts) (ascending);
 * piece i is fed at t_ns = i + 1. Logs everything observable. */
static void run_new(const char *in, size_t n, const size_t *cuts, size_t n_cuts,
                    size_t cap, struct buf *log)
{
    struct sse_parser p;
    struct sse_handler h = {on_event, on_comment, log, NULL};
    size_t start = 0;
    char tail[64];
    sse_parser_init(&p, cap);
    for (size_t i = 0; i <= n_cuts; i++) {
        size_t end = i < n_cuts ? cuts[i] : n;
        void *c = piece_copy(in + start, end - start);
        int err = sse_parser_feed(&p, (int64_t)i + 1, c, end - start, &h);
        piece_spoil(c, end - start);
        log_put(log, 'R', err, "", 0);
        start = end;
    }
    log_put(log, 'F', sse_parser_finish(&p), "", 0);
    snprintf(tail, sizeof(tail), "%llu %llu %llu %llu %llu %lld",
             (unsigned long long)p.events, (unsigned long long)p.comments,
             (unsigned long long)p.oversized, (unsigned long long)p.dropped,
             (unsigned long long)p.incomplete, (long long)p.retry_ms);
    log_put(log, 'N', 0, tail, strlen(tail));
    sse_parser_free(&p);
}

/* The same with the reference parser. */
static void run_ref(const char *in, size_t n, const size_t *cuts, size_t n_cuts,
                    size_t cap, struct buf *log)
{
    struct sse_ref_parser p;
    struct sse_handler h = {on_event, on_comment, log, NULL};
    size_t start = 0;
    char tail[64];
    sse_ref_parser_init(&p, cap);
    for (size_t i = 0; i <= n_cuts; i++) {
        size_t end = i < n_cuts ? cuts[i] : n;
        void *c = piece_copy(in + start, end - start);
        int err = sse_ref_parser_feed(&p, (int64_t)i + 1, c, end - start, &h);
        piece_spoil(c, end - start);
        log_put(log, 'R', err, "", 0);
        start = end;
    }
    log_put(log, 'F', sse_ref_parser_finish(&p), "", 0);
    snprintf(tail, sizeof(tail), "%llu %llu %llu %llu %llu %lld",
             (unsigned long long)p.events, (unsigned long long)p.comments,
             (unsigned long long)p.oversized, (unsigned long long)p.dropped,
             (unsigned long long)p.incomplete, (long long)p.retry_ms);
    log_put(log, 'N', 0, tail, strlen(tail));
    sse_ref_parser_free(&p);
}

/* Compares both parsers on one cutting of one input. */
static void compare(const char *what, const char *in, size_t n,
                    const size_t *cuts, size_t n_cuts, size_t cap)
{
    struct buf a, b;
    buf_init(&a, 0);
    buf_init(&b, 0);
    run_new(in, n, cuts, n_cuts, cap, &a);
    run_ref(in, n, cuts, n_cuts, cap, &b);
    runs++;
    if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0) {
        if (differences++ < 10)
            fprintf(stderr,
                    "%s: %zu bytes, %zu cuts (first %zu), cap %zu: the "
                    "parsers differ\n",
                    what, n, n_cuts, n_cuts ? cuts[0] : 0, cap);
    }
    buf_free(&a);
    buf_free(&b);
}

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

/* xorshift64*: a fixed sequence, so a failure reproduces. */
static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Du;
}

/* Every cutting of one input, under every cap. */
static void compare_all_cuts(const char *what, const char *in, size_t n)
{
    size_t *cuts = malloc((n + 1) * sizeof(*cuts));
    if (!cuts)
        exit(2);
    inputs++;
    for (size_t c = 0; c < N_CAPS; c++) {
        size_t k = 0;
        compare(what, in, n, NULL, 0, caps[c]);
        for (size_t at = 0; at <= n; at++)
            compare(what, in, n, &at, 1, caps[c]);
        for (size_t at = 1; at < n; at++)
            cuts[k++] = at;
        compare(what, in, n, cuts, k, caps[c]);
        for (int r = 0; r < 8; r++) {
            size_t at = 0, max = 1 + (size_t)(rng() % 64);
            k = 0;
            while (at < n) {
                at += 1 + (size_t)(rng() % max);
                if (at < n)
                    cuts[k++] = at;
            }
            compare(what, in, n, cuts, k, caps[c]);
        }
    }
    free(cuts);
}

static void compare_file(const char *path)
{
    size_t n;
    char *data = test_read_file(path, &n);
    if (!data) {
        CHECK_MSG(0, "cannot read %s", path);
        return;
    }
    compare_all_cuts(path, data, n);
    /* A fuzz_stream_events input is a control byte and a body. */
    if (n > 1)
        compare_all_cuts(path, data + 1, n - 1);
    free(data);
}

static void test_fuzz_files(void)
{
    unsigned long before = inputs;
    fuzz_files_each(compare_file);
    CHECK_MSG(inputs - before >= 100, "only %lu inputs from %s",
              inputs - before, TT_FUZZ_DIR);
}

/* Streams assembled from the pieces a line scanner can get wrong. */
static void test_generated(void)
{
    static const char *const pieces[] = {
        "\n",    "\r",     "\r\n",         "\n\n",
        "\r\r",  ":",      ": ",           "data",
        "data:", "data: ", "event:",       "event: x",
        "id:",   "id: 7",  "retry: 12",    "x",
        "yz",    "\xEF",   "\xEF\xBB\xBF", "\xBB\xBF",
        " ",     "\0",     ":c",           "data: {\"a\":1}\n\n"};
    const size_t n_pieces = sizeof(pieces) / sizeof(*pieces);
    char in[512];
    for (int i = 0; i < 1500; i++) {
        size_t n = 0, want = 1 + (size_t)(rng() % 120);
        while (n < want) {
            size_t which = (size_t)(rng() % (n_pieces + 1));
            if (which == n_pieces) { /* a run long enough for small caps */
                size_t run = 1 + (size_t)(rng() % 300);
                if (n + run > sizeof(in))
                    break;
                memset(in + n, 'a' + (int)(rng() % 3), run);
                n += run;
                continue;
            }
            size_t len = which == 21 ? 1 : strlen(pieces[which]);
            if (n + len > sizeof(in))
                break;
            memcpy(in + n, pieces[which], len);
            n += len;
        }
        compare_all_cuts("generated", in, n);
    }
}

/* True when the log holds the bytes s[0..n). */
static int log_has(const struct buf *log, const char *s, size_t n)
{
    for (size_t i = 0; i + n <= log->len; i++)
        if (memcmp(log->data + i, s, n) == 0)
            return 1;
    return 0;
}

/* The log really sees what it must: a sanity check of the harness. */
static void test_harness_sees_events(void)
{
    static const char in[] = "event: e\r\nid: 9\ndata: a\rdata: b\r\n\n: hi\n";
    struct buf log;
    buf_init(&log, 0);
    run_new(in, sizeof(in) - 1, NULL, 0, 0, &log);
    CHECK(log_has(&log, "a\nb", 3));
    CHECK(log_has(&log, "hi", 2));
    CHECK(log_has(&log, "9", 1));
    buf_free(&log);
}

int main(void)
{
    test_harness_sees_events();
    test_fuzz_files();
    test_generated();
    CHECK_MSG(differences == 0, "%lu of %lu runs differ", differences, runs);
    printf("%lu inputs, %lu runs, %lu differences\n", inputs, runs,
           differences);
    return CHECK_DONE();
}
