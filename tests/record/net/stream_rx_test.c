/* stream_rx_test: the receive path of one response, fed in pieces split at
 * every pair of byte boundaries: the in-stream error's words in the
 * result's message (the recorder's message text), SSE framing whatever the
 * Content-Type, the SSE cap tripping on exactly the receive where the
 * analyzer's parser reports the body oversized (2xx only), the key masked
 * in what is stored and in the message (also where the JSON escaped it),
 * token facts without the token array, and a response that is only
 * counted. */
#define _GNU_SOURCE /* memmem */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "stream_rx.h"

#define KEY "sk-test-SECRET-0123"

/* What the sink saw. */
struct sunk {
    char bytes[4096];
    size_t len;
    unsigned chunks;
    int64_t last_t;
};

static int sink(void *ud, int64_t t_ns, const char *p, size_t n)
{
    struct sunk *s = ud;
    if (s->len + n <= sizeof s->bytes)
        memcpy(s->bytes + s->len, p, n);
    s->len += n;
    s->chunks++;
    s->last_t = t_ns;
    return 0;
}

/* Starts rx for status (with a Content-Type of ctype) and cap. */
static void start(struct stream_rx *rx, struct sunk *out, int status,
                  const char *ctype, size_t cap, bool keep_tokens)
{
    struct stream_rx_setup su;
    char line[128];
    memset(&su, 0, sizeof su);
    memset(out, 0, sizeof *out);
    su.api = API_OPENAI_CHAT;
    su.max_event_bytes = cap;
    su.keep_tokens = keep_tokens;
    su.sink = sink;
    su.sink_ud = out;
    stream_rx_init(rx, &su);
    snprintf(line, sizeof line, "HTTP/1.1 %d X\r\n", status);
    stream_rx_header(rx, line, strlen(line));
    snprintf(line, sizeof line, "Content-Type: %s\r\n", ctype);
    stream_rx_header(rx, line, strlen(line));
}

/* Feeds s in three receives cut at a and b, at times 1, 2, 3. */
static void feed3(struct stream_rx *rx, const char *s, size_t a, size_t b)
{
    size_t n = strlen(s);
    stream_rx_body(rx, 1, s, a);
    stream_rx_body(rx, 2, s + a, b - a);
    stream_rx_body(rx, 3, s + b, n - b);
}

/* The result's kind and message of rx, ended well. */
static const char *result(struct stream_rx *rx, char *msg, size_t len)
{
    static char kind_buf[32];
    char curl_error[CURL_ERROR_SIZE] = "";
    struct stream_rx_end e;
    struct trace_result r;
    memset(&e, 0, sizeof e);
    e.code = CURLE_OK;
    e.curl_error = curl_error;
    e.end_ns = 9;
    CHECK(stream_rx_result(rx, &e, &r, kind_buf, sizeof kind_buf, msg, len) ==
          0);
    CHECK(r.phases.connect_ns == -1); /* no easy handle: no phases */
    return r.error_kind;
}

/* In-stream errors and the message the result carries. */
static const struct {
    const char *stream;
    const char *message; /* NULL: no error */
} message_cases[] = {
    {"data: {\"error\":{\"message\":\"upstream overloaded\",\"type\":"
     "\"server_error\"}}\n\n",
     "the stream carried an error: upstream overloaded"},
    {"data: {\"error\": \"boom\"}\n\n", "the stream carried an error: boom"},
    {"data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n"
     "error: {\"code\":500,\"message\":\"context shift is disabled\","
     "\"type\":\"server_error\"}\n\ndata: [DONE]\n\n",
     "the stream carried an error: context shift is disabled"},
    {"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":"
     "\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n",
     "the stream carried an error: Overloaded"},
    {"event: error\r\ndata: upstream gone\r\n\r\n",
     "the stream carried an error: upstream gone"},
    {"error: {\"code\":503}\n\n", "the stream carried an error: 503"},
    {"data: {\"error\":{}}\n\n", "the stream carried an error object"},
    {"data: {\"object\":\"error\",\"message\":\"prompt is too long\","
     "\"type\":\"BadRequestError\",\"param\":null,\"code\":400}\n\n",
     "the stream carried an error: prompt is too long"},
    {"data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n", NULL},
    {"data: {\"choices\":[]}\n\n",
     "HTTP 200 stream that ended without a single token"},
};

/* Feeds s as a fresh 200 response of Content-Type ctype, cut into three
 * receives at every a <= b, and hands each to each(rx, out, a, b, i);
 * stops after 20 failed checks. */
static void every_cut(const char *s, const char *ctype,
                      void (*each)(struct stream_rx *, const struct sunk *,
                                   size_t, size_t, size_t),
                      size_t i)
{
    size_t n = strlen(s);
    for (size_t a = 0; a <= n; a++)
        for (size_t b = a; b <= n; b++) {
            struct stream_rx rx;
            struct sunk out;
            start(&rx, &out, 200, ctype, 0, false);
            feed3(&rx, s, a, b);
            each(&rx, &out, a, b, i);
            stream_rx_free(&rx);
            if (check_failures > 20)
                return;
        }
}

/* message_cases[i] at one cut: the error message, and every byte kept. */
static void check_message_cut(struct stream_rx *rx, const struct sunk *out,
                              size_t a, size_t b, size_t i)
{
    const char *s = message_cases[i].stream;
    size_t n = strlen(s);
    char msg[512];
    const char *kind = result(rx, msg, sizeof msg);
    if (message_cases[i].message)
        CHECK_MSG(kind[0] && strcmp(msg, message_cases[i].message) == 0,
                  "case %zu cut at %zu,%zu: %s '%s'", i, a, b, kind, msg);
    else
        CHECK_MSG(!kind[0], "case %zu cut at %zu,%zu: %s '%s'", i, a, b, kind,
                  msg);
    CHECK(out->len == n && memcmp(out->bytes, s, n) == 0);
}

static void check_messages(void)
{
    for (size_t i = 0; i < sizeof message_cases / sizeof *message_cases; i++)
        every_cut(message_cases[i].stream, "text/event-stream",
                  check_message_cut, i);
}

/* Bodies and whether they are SSE framed (a data: line, once its line
 * ended), whatever their Content-Type. */
static const struct {
    const char *body;
    bool sse;
} sse_cases[] = {
    {"data: {\"choices\":[]}\n\n", true},
    {"data:{\"choices\":[]}\n\n", true},
    {"event: message_start\ndata: {}\n\n", true},
    {": keep-alive\r\n\r\ndata: {}\r\n\r\n", true},
    {"{}\ndata: {}\n\n", true},
    {"\xEF\xBB\xBF"
     "data: {}\n",
     true},
    {"data", false},
    {"{\"choices\":[{\"message\":{\"content\":\"data: x\"}}]}", false},
    {"{\n  \"data\": [1, 2]\n}\n", false},
    {" data: x\n", false},
    {"xdata: x\n", false},
    {"<html>\ndata is not a field</html>", false},
    {"", false},
    {": only comments\n\n", false},
};

/* sse_cases[i] at one cut: framed or not. */
static void check_sse_cut(struct stream_rx *rx, const struct sunk *out,
                          size_t a, size_t b, size_t i)
{
    (void)out;
    CHECK_MSG(stream_rx_sse(rx) == sse_cases[i].sse,
              "sse case %zu cut at %zu,%zu", i, a, b);
}

static void check_sse(void)
{
    for (size_t i = 0; i < sizeof sse_cases / sizeof *sse_cases; i++)
        every_cut(sse_cases[i].body, "application/json", check_sse_cut, i);
}

/* A line over a cap of 64 bytes: over_cap turns true on exactly the
 * receive on which the analyzer's parser, fed the same receives with the
 * same cap, first reports SSE_E_OVERSIZED; never for an error status. */
static void check_cap(void)
{
    static const char *bodies[] = {
        "data: {\"choices\":[]}\n\ndata: "
        "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
        "xxxxxxxxxxxxx\n\n",
        "data: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\ndata: "
        "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\n\n",
        ": a comment line longer than the cap of sixty-four bytes, on and on\n",
        "data: short\n\n",
    };
    for (size_t i = 0; i < sizeof bodies / sizeof *bodies; i++) {
        const char *s = bodies[i];
        size_t n = strlen(s);
        for (size_t a = 0; a <= n; a++)
            for (size_t b = a; b <= n; b++) {
                size_t cut[4] = {0, a, b, n};
                struct sse_parser ref;
                struct stream_rx rx, err_rx;
                struct sunk out, err_out;
                bool ref_over = false;
                sse_parser_init(&ref, 64);
                start(&rx, &out, 200, "text/event-stream", 64, false);
                start(&err_rx, &err_out, 500, "text/event-stream", 64, false);
                for (int k = 0; k < 3; k++) {
                    size_t len = cut[k + 1] - cut[k];
                    ref_over |= sse_parser_feed(&ref, k, s + cut[k], len,
                                                NULL) == SSE_E_OVERSIZED;
                    stream_rx_body(&rx, k, s + cut[k], len);
                    stream_rx_body(&err_rx, k, s + cut[k], len);
                    CHECK_MSG(stream_rx_over_cap(&rx) == ref_over,
                              "body %zu cut at %zu,%zu, receive %d", i, a, b,
                              k);
                    CHECK(!stream_rx_over_cap(&err_rx));
                }
                CHECK(ref_over == (i < 3));
                sse_parser_free(&ref);
                stream_rx_free(&rx);
                stream_rx_free(&err_rx);
                if (check_failures > 20)
                    return;
            }
    }
}

/* The key is masked in what is stored, and in the message also where the
 * JSON escaped it (the stored bytes then do not hold it). */
static void check_masking(void)
{
    static const char body[] =
        "data: {\"choices\":[{\"delta\":{\"content\":\"" KEY "\"}}]}\n\n"
        "data: {\"error\":{\"message\":\"bad key \\u0073k-test-SECRET-0123"
        "\"}}\n\n";
    size_t n = strlen(body);
    for (size_t a = 0; a <= n; a++) {
        struct stream_rx rx;
        struct sunk out;
        char msg[512];
        start(&rx, &out, 200, "text/event-stream", 0, false);
        CHECK(stream_rx_add_secret(&rx, KEY, strlen(KEY)) == 0);
        feed3(&rx, body, a, a);
        result(&rx, msg, sizeof msg);
        CHECK(out.len == n && !memmem(out.bytes, out.len, KEY, strlen(KEY)));
        CHECK_MSG(strcmp(msg, "the stream carried an error: bad key "
                              "*******************") == 0,
                  "cut at %zu: '%s'", a, msg);
        CHECK(rx.stream.token_events == 1); /* the masked token still is */
        stream_rx_free(&rx);
    }
}

/* Token facts come with the receive that completed the event; without
 * keep_tokens there is no token array, with it there is; a response with
 * no sink is only counted. */
static void check_facts(void)
{
    static const char body[] =
        "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n"
        "data: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}\n\n";
    struct stream_rx_setup su;
    struct stream_rx rx;
    struct stream_state moved;
    struct sunk out;
    size_t end1 = strlen(body) / 2;
    start(&rx, &out, 200, "text/event-stream", 0, false);
    feed3(&rx, body, end1 - 1, end1);
    CHECK(rx.stream.first_token_ns == 2 && rx.stream.last_token_ns == 3);
    CHECK(rx.stream.token_events == 2 && rx.stream.n_tokens == 0);
    CHECK(rx.first_byte_ns == 1 && rx.chunks == 3 && rx.bytes == strlen(body));
    CHECK(stream_rx_time(&rx, 42) == 42); /* no kernel time asked */
    stream_rx_free(&rx);

    start(&rx, &out, 200, "text/event-stream", 0, true);
    feed3(&rx, body, end1, end1);
    stream_rx_take_stream(&rx, &moved);
    CHECK(moved.n_tokens == 2 && moved.tokens[1].t_ns == 3);
    CHECK(rx.stream.n_tokens == 0 && rx.stream.token_events == 0);
    stream_rx_free(&rx);
    stream_state_free(&moved);

    memset(&su, 0, sizeof su);
    stream_rx_init(&rx, &su);
    feed3(&rx, body, 3, 7);
    CHECK(rx.chunks == 3 && rx.bytes == strlen(body));
    CHECK(rx.stream.bytes == 0 && rx.stream.token_events == 0);
    CHECK(stream_rx_flush(&rx) == 0);
    stream_rx_free(&rx);
}

int main(void)
{
    check_messages();
    check_sse();
    check_cap();
    check_masking();
    check_facts();
    return CHECK_DONE();
}
