/* sse_test: the SSE parser, every case fed whole, byte by byte, and split at
 * every byte boundary (two and three feeds). */
#include "sse.h"

#include <stdio.h>
#include <string.h>

#include "check.h"

/* Expected log: events and comments in the order the parser reports them. */
#define EVI(type, id, data) type "\x1f" id "\x1f" data "\x1e"
#define EV(type, data) EVI(type, "", data)
#define CM(text) "\x1d" text "\x1e"

#define MAX_EV 16

struct sse_case {
    const char *name;
    const char *input;
    size_t max_event_bytes; /* 0: default */
    const char *want;       /* EV/CM log */
    unsigned want_oversized;
    int want_incomplete; /* sse_parser_finish return */
    /* Optional hand-computed byte offset of each event's dispatching line
     * end (-1 ends the list; all zero: not given). */
    long want_off[4];
};

/* clang-format off */
static const struct sse_case cases[] = {
    /* "data: hello" is 11 bytes (0..10), "\n" at 11, blank "\n" at 12. */
    {"lf", "data: hello\n\n", 0, EV("message", "hello"), 0, 0, {12, -1}},
    /* CR at 11 ends the line, CR at 12 is the blank line. */
    {"cr", "data: hello\r\r", 0, EV("message", "hello"), 0, 0, {12, -1}},
    /* CR 11, LF 12 (pair), blank line's CR at 13 dispatches. */
    {"crlf", "data: hello\r\n\r\n", 0, EV("message", "hello"), 0, 0,
     {13, -1}},
    {"mixed line ends", "data: a\r\ndata: b\rdata: c\n\r\n", 0,
     EV("message", "a\nb\nc"), 0, 0, {0}},
    /* "\r\r\n": the CR ends the data line, the second CR is the blank line
     * and the LF is its pair, not a second blank line. */
    {"cr cr lf", "data: a\r\r\ndata: b\n\n", 0,
     EV("message", "a") EV("message", "b"), 0, 0, {8, 18, -1}},
    {"lf cr", "data: a\n\rdata: b\r\n\r\n", 0,
     EV("message", "a") EV("message", "b"), 0, 0, {8, 18, -1}},
    {"comments", ": keep-alive\n\ndata: x\n:mid\n\n:\n", 0,
     CM("keep-alive") CM("mid") EV("message", "x") CM(""), 0, 0, {0}},
    {"event types", "event: add\ndata: 1\n\nevent: remove\ndata: 2\n\n"
                    "data: 3\n\n",
     0, EV("add", "1") EV("remove", "2") EV("message", "3"), 0, 0, {0}},
    {"event line without data", "event: ping\n\ndata: y\n\n", 0,
     EV("message", "y"), 0, 0, {0}},
    {"multi-line data", "data: a\ndata:\ndata:  b\n\n", 0,
     EV("message", "a\n\n b"), 0, 0, {0}},
    {"data without space", "data:x\n\ndata: x\n\ndata\n\n", 0,
     EV("message", "x") EV("message", "x") EV("message", ""), 0, 0, {0}},
    {"empty data", "data:\n\ndata: \n\n", 0,
     EV("message", "") EV("message", ""), 0, 0, {0}},
    {"unknown fields", "foo: bar\nretry: x1\ndata: z\nbar\n\n", 0,
     EV("message", "z"), 0, 0, {0}},
    {"ids persist", "id: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\n", 0,
     EVI("message", "7", "a") EVI("message", "7", "b") EV("message", "c"),
     0, 0, {0}},
    {"bom", "\xEF\xBB\xBF" "data: bom\n\n", 0, EV("message", "bom"), 0, 0,
     {0}},
    /* Only one BOM is stripped: the second makes the field name unknown. */
    {"two boms", "\xEF\xBB\xBF\xEF\xBB\xBF" "data: x\n\ndata: y\n\n", 0,
     EV("message", "y"), 0, 0, {0}},
    /* A BOM prefix that turns out not to be one is kept as bytes. */
    {"partial bom", "\xEF\xBB" "x: y\n\ndata: z\n\n", 0,
     EV("message", "z"), 0, 0, {0}},
    {"utf-8", "data: h\xC3\xA9llo \xE2\x82\xAC \xF0\x9F\x98\x80\n\n", 0,
     EV("message", "h\xC3\xA9llo \xE2\x82\xAC \xF0\x9F\x98\x80"), 0, 0, {0}},
    {"json chunks", "data: {\"a\":1}\n\ndata: {\"b\":\"x y\"}\n\n"
                    "data: [DONE]\n\n",
     0, EV("message", "{\"a\":1}") EV("message", "{\"b\":\"x y\"}")
            EV("message", "[DONE]"), 0, 0, {0}},
    /* Cap 16: "data: 0123456789abcdefghij" (26 bytes) is over it; the
     * event is dropped and the next one survives. */
    {"oversized line", "data: 0123456789abcdefghij\n\ndata: ok\n\n", 16,
     EV("message", "ok"), 1, 0, {0}},
    /* A line of exactly the cap is fine: "data: 0123456789" is 16 bytes. */
    {"line at cap", "data: 0123456789\n\n", 16,
     EV("message", "0123456789"), 0, 0, {0}},
    /* Two 11-byte data lines (value + "\n") make 22 > 16 buffered bytes. */
    {"oversized event", "data: 0123456789\ndata: 0123456789\n\n"
                        "data: ok\n\n",
     16, EV("message", "ok"), 1, 0, {0}},
    {"two oversized", "data: 0123456789abcdefghij\ndata: 0123456789abcdefg"
                      "\n\ndata: ok\n\ndata: 0123456789abcdefghij\n\n",
     16, EV("message", "ok"), 2, 0, {0}},
    {"incomplete after data line", "data: a\n\ndata: b\n", 0,
     EV("message", "a"), 0, 1, {0}},
    {"incomplete line", "data: a\n\ndata: b", 0, EV("message", "a"), 0, 1,
     {0}},
    {"trailing comment", "data: a\n\n: bye", 0, EV("message", "a"), 0, 0,
     {0}},
    {"empty", "", 0, "", 0, 0, {0}},
};

/* clang-format on */

struct recorder {
    char log[4096];
    size_t log_len;
    int64_t t[MAX_EV];
    size_t n_ev;
};

static void rec_put(struct recorder *r, const char *s, size_t n)
{
    if (r->log_len + n < sizeof(r->log)) {
        memcpy(r->log + r->log_len, s, n);
        r->log_len += n;
    }
}

static void rec_event(void *ctx, const struct sse_event *ev)
{
    struct recorder *r = ctx;
    rec_put(r, ev->type, ev->type_len);
    rec_put(r, "\x1f", 1);
    rec_put(r, ev->id, ev->id_len);
    rec_put(r, "\x1f", 1);
    rec_put(r, ev->data, ev->data_len);
    rec_put(r, "\x1e", 1);
    if (r->n_ev < MAX_EV)
        r->t[r->n_ev] = ev->t_ns;
    r->n_ev++;
}

static void rec_comment(void *ctx, const char *text, size_t len, int64_t t)
{
    struct recorder *r = ctx;
    (void)t;
    rec_put(r, "\x1d", 1);
    rec_put(r, text, len);
    rec_put(r, "\x1e", 1);
}

struct outcome {
    struct recorder rec;
    unsigned oversized_returns; /* feeds that returned SSE_E_OVERSIZED */
    uint64_t oversized;
    int incomplete;
};

/* Feeds the input in pieces cut at cuts[0..n_cuts) (ascending); piece i is
 * fed with t_ns = i. */
static void run(const struct sse_case *c, const size_t *cuts, size_t n_cuts,
                struct outcome *o)
{
    struct sse_parser p;
    struct sse_handler h = {rec_event, rec_comment, NULL, NULL};
    size_t len = strlen(c->input), start = 0, i;
    memset(o, 0, sizeof(*o));
    h.ctx = &o->rec;
    sse_parser_init(&p, c->max_event_bytes);
    for (i = 0; i <= n_cuts; i++) {
        size_t end = i < n_cuts ? cuts[i] : len;
        int err =
            sse_parser_feed(&p, (int64_t)i, c->input + start, end - start, &h);
        if (err == SSE_E_OVERSIZED)
            o->oversized_returns++;
        start = end;
    }
    o->incomplete = sse_parser_finish(&p);
    o->oversized = p.oversized;
    sse_parser_free(&p);
}

/* Compares an outcome with the case's expectations; off[] holds each
 * event's dispatch offset, from which the expected feed index follows. */
static void expect(const struct sse_case *c, const struct outcome *o,
                   const size_t *cuts, size_t n_cuts, const long *off,
                   const char *how)
{
    size_t e, k;
    const char *want = c->want;
    CHECK_MSG(o->rec.log_len == strlen(want) &&
                  memcmp(o->rec.log, want, o->rec.log_len) == 0,
              "%s (%s): log mismatch: got %.*s", c->name, how,
              (int)o->rec.log_len, o->rec.log);
    CHECK_MSG(o->oversized == c->want_oversized, "%s (%s): oversized %llu",
              c->name, how, (unsigned long long)o->oversized);
    CHECK_MSG((o->oversized_returns > 0) == (c->want_oversized > 0),
              "%s (%s): oversized returns %u", c->name, how,
              o->oversized_returns);
    CHECK_MSG(o->incomplete == c->want_incomplete, "%s (%s): incomplete %d",
              c->name, how, o->incomplete);
    if (!off)
        return;
    for (e = 0; e < o->rec.n_ev && e < MAX_EV; e++) {
        int64_t want_t = 0;
        for (k = 0; k < n_cuts; k++)
            if ((size_t)off[e] >= cuts[k])
                want_t = (int64_t)k + 1;
        CHECK_MSG(o->rec.t[e] == want_t, "%s (%s): event %zu t %lld want %lld",
                  c->name, how, e, (long long)o->rec.t[e], (long long)want_t);
    }
}

/* Runs one case whole, byte by byte, and at every one- and two-cut split. */
static void run_case(const struct sse_case *c)
{
    size_t len = strlen(c->input), i, j, e;
    size_t cuts[4096];
    long off[MAX_EV];
    struct outcome o;
    char how[64];

    run(c, NULL, 0, &o);
    expect(c, &o, NULL, 0, NULL, "whole");
    for (e = 0; e < o.rec.n_ev && e < MAX_EV; e++)
        CHECK_MSG(o.rec.t[e] == 0, "%s: whole feed t", c->name);

    /* Byte by byte: piece i is byte i, so t_ns is the dispatch offset. */
    for (i = 0; i + 1 < len && i < 4096; i++)
        cuts[i] = i + 1;
    run(c, cuts, len ? len - 1 : 0, &o);
    expect(c, &o, NULL, 0, NULL, "byte by byte");
    for (e = 0; e < o.rec.n_ev && e < MAX_EV; e++) {
        off[e] = (long)o.rec.t[e];
        CHECK_MSG(c->input[off[e]] == '\n' || c->input[off[e]] == '\r',
                  "%s: event %zu dispatched at offset %ld, not a line end",
                  c->name, e, off[e]);
        if (c->want_off[0] != 0 || c->want_off[1] != 0) {
            CHECK_MSG(c->want_off[e] == off[e],
                      "%s: event %zu offset %ld want %ld", c->name, e, off[e],
                      c->want_off[e]);
        }
    }
    if (c->want_off[0] != 0 || c->want_off[1] != 0)
        CHECK_MSG(c->want_off[o.rec.n_ev < 4 ? o.rec.n_ev : 3] == -1,
                  "%s: event count vs hand offsets", c->name);

    for (i = 0; i <= len; i++) {
        cuts[0] = i;
        snprintf(how, sizeof(how), "split at %zu", i);
        run(c, cuts, 1, &o);
        expect(c, &o, cuts, 1, off, how);
        for (j = i; j <= len; j++) {
            cuts[1] = j;
            snprintf(how, sizeof(how), "split at %zu,%zu", i, j);
            run(c, cuts, 2, &o);
            expect(c, &o, cuts, 2, off, how);
        }
    }
}

/* retry: sets the reconnection time only when it is all digits. */
static void test_retry(void)
{
    struct sse_parser p;
    sse_parser_init(&p, 0);
    CHECK_MSG(p.retry_ms == -1, "retry default");
    sse_parser_feed(&p, 0, "retry: 1500\n", 12, NULL);
    CHECK_MSG(p.retry_ms == 1500, "retry 1500: %lld", (long long)p.retry_ms);
    sse_parser_feed(&p, 0, "retry: 15x\nretry:\n", 18, NULL);
    CHECK_MSG(p.retry_ms == 1500, "bad retry ignored");
    sse_parser_reset(&p);
    CHECK_MSG(p.retry_ms == -1 && p.events == 0, "reset");
    sse_parser_free(&p);
    sse_parser_free(NULL);
}

/* A NULL handler still parses and counts; the parser is reusable. */
static void test_counts_and_reuse(void)
{
    struct sse_parser p;
    const char *s = ": ka\n\ndata: a\n\ndata: b\n\nevent: x\n\n";
    int round;
    sse_parser_init(&p, 0);
    for (round = 0; round < 2; round++) {
        CHECK_MSG(sse_parser_feed(&p, 5, s, strlen(s), NULL) == SSE_OK, "feed");
        CHECK_MSG(p.events == 2, "events %llu", (unsigned long long)p.events);
        CHECK_MSG(p.comments == 1, "comments");
        CHECK_MSG(sse_parser_finish(&p) == 0, "finish clean");
        sse_parser_reset(&p);
    }
    /* An event at EOF with no blank line is dropped and counted. */
    sse_parser_feed(&p, 0, "data: a\n", 8, NULL);
    CHECK_MSG(sse_parser_finish(&p) == 1 && p.incomplete == 1 && p.events == 0,
              "incomplete at EOF");
    sse_parser_free(&p);
}

/* A long line over many feeds keeps memory bounded by the cap. */
static void test_bounded_memory(void)
{
    struct sse_parser p;
    char chunk[1000];
    int i, over = 0;
    memset(chunk, 'x', sizeof(chunk));
    sse_parser_init(&p, 4096);
    sse_parser_feed(&p, 0, "data: ", 6, NULL);
    for (i = 0; i < 10000; i++)
        over += sse_parser_feed(&p, 0, chunk, sizeof(chunk), NULL) ==
                SSE_E_OVERSIZED;
    CHECK_MSG(over == 1, "oversized reported %d times", over);
    CHECK_MSG(p.line.cap <= 2 * 4096 + 64, "line buffer grew to %zu",
              p.line.cap);
    sse_parser_feed(&p, 0, "\n\ndata: fine\n\n", 14, NULL);
    CHECK_MSG(p.events == 1 && p.dropped == 1, "recovered after oversized");
    CHECK_MSG(strcmp(sse_strerror(SSE_E_OVERSIZED), "unknown SSE error") != 0,
              "strerror");
    sse_parser_free(&p);
}

int main(void)
{
    size_t i;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        run_case(&cases[i]);
    test_retry();
    test_counts_and_reuse();
    test_bounded_memory();
    if (check_failures) {
        fprintf(stderr, "sse_test: %d check_failures\n", check_failures);
        return 1;
    }
    printf("sse_test: %zu cases, all splits ok\n", i);
    return 0;
}
