/* token_scan_test: the live first-token / stream-error spotting,
 * every case fed whole, split at every pair of byte boundaries, in pieces of
 * every size, and behind long prefixes (so a pattern straddles receives far
 * from the start); then streams built from random fragments, fed in random
 * pieces, against a whole-stream byte-by-byte reference. SSE framing (a
 * line that starts with "data:") is told from JSON bodies, split at every
 * pair of byte boundaries. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "token_scan.h"

static const struct {
    const char *stream;
    bool token;
    bool error;
} cases[] = {
    {"data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n", true, false},
    {"data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}"
     "}]}\n\n",
     false, false},
    {"data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}\n\n", false,
     false},
    {"data: {\"choices\":[{\"text\":\" the\",\"index\":0}]}\n\n", true, false},
    {"data: {\"choices\":[{\"text\":\"\",\"index\":0}]}\n\n", false, false},
    {"event: content_block_delta\ndata: {\"type\":\"content_block_delta\","
     "\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}\n\n",
     true, false},
    {"data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"hmm\"}}]}\n\n",
     true, false},
    {"data: {\"choices\":[{\"delta\":{\"reasoning\":\"hmm\"}}]}\n\n", true,
     false},
    {": keep-alive\n\n: keep-alive\n\n", false, false},
    {"data: {\"error\":{\"message\":\"overloaded\"}}\n\n", false, true},
    {"event: error\ndata: {\"type\": \"error\", \"error\": {\"type\": "
     "\"overloaded_error\"}}\n\n",
     false, true},
    {"data: {\"id\":\"x\",\"error\":null,\"choices\":[]}\n\n", false, false},
    /* an escaped quote inside content is not a key */
    {"data: {\"choices\":[{\"delta\":{\"content\":\"say \\\"error\\\": x\"}}]}"
     "\n\n",
     true, false},
    {"data: {\"choices\":[{\"delta\":{\"content\": \"spaced\"}}]}\n\n", true,
     false},
    /* an empty content first, the token in a later event */
    {"data: {\"choices\":[{\"delta\":{\"content\":\"\"}}]}\n\n"
     "data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n\n",
     true, false},
    /* a token, "error": null, then a real error much later */
    {"data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}],\"error\":null}"
     "\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"b\"},\"logprobs\":"
     "null,\"finish_reason\":null}]}\n\ndata: {\"error\": \"boom\"}\n\n",
     true, true},
    /* keys that only end like a pattern */
    {"data: {\"xcontent\":\"a\",\"my_text\":\"b\",\"terror\":{}}\n\n", false,
     false},
    {"data: {\"reasoning\": \"one space after any key is a pattern\"}\n\n",
     true, false},
    {"data: {\"content\":  \"two spaces are not a pattern\"}\n\n", false,
     false},
    /* every text field the analyzer counts as a token */
    {"event: response.output_text.delta\ndata: {\"type\":\"response.output_"
     "text.delta\",\"item_id\":\"msg_1\",\"output_index\":0,\"delta\":\"Hi\"}"
     "\n\n",
     true, false},
    {"event: response.output_text.delta\ndata: {\"type\":\"response.output_"
     "text.delta\",\"delta\":\"\"}\n\n",
     false, false},
    {"event: response.created\ndata: {\"type\":\"response.created\","
     "\"response\":{\"error\":null,\"text\":{\"format\":{\"type\":\"text\"}}}}"
     "\n\n",
     false, false},
    {"event: response.failed\ndata: {\"type\":\"response.failed\",\"response"
     "\":{\"status\":\"failed\",\"error\":{\"code\":\"server_error\"}}}\n\n",
     false, true},
    {"event: error\ndata: {\"type\":\"error\",\"code\":\"x\",\"message\":"
     "\"boom\"}\n\n",
     false, true},
    {"event: content_block_delta\ndata: {\"type\":\"content_block_delta\","
     "\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"hm\"}}\n\n",
     true, false},
    {"event: content_block_delta\ndata: {\"type\":\"content_block_delta\","
     "\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"\"}}"
     "\n\n",
     true, false},
    {"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,"
     "\"function\":{\"arguments\":\"{\\\"a\"}}]}}]}\n\n",
     true, false},
    {"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,"
     "\"function\":{\"name\":\"f\",\"arguments\":\"\"}}]}}]}\n\n",
     false, false},
    /* llama.cpp's server: an "error:" field line, then [DONE] */
    {"data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n"
     "error: {\"code\":500,\"message\":\"context shift is disabled\","
     "\"type\":\"server_error\"}\n\ndata: [DONE]\n\n",
     true, true},
    {"error: {\"code\":400,\"message\":\"too long\"}\n\ndata: [DONE]\n\n",
     false, true},
    {"error:{\"message\":\"no space\"}\r\n\r\n", false, true},
    /* "event: error" with a text payload; "event: errors" is another event */
    {"event: error\ndata: upstream gone\n\n", false, true},
    {"event:error\r\ndata: upstream gone\r\n\r\n", false, true},
    {"event: errors\ndata: {}\n\n", false, false},
    {"event: error_count\ndata: {}\n\n", false, false},
    /* vLLM's bare ErrorResponse; another "object" is no error */
    {"data: {\"object\":\"error\",\"message\":\"too long\",\"code\":400}"
     "\n\ndata: [DONE]\n\n",
     false, true},
    {"data: {\"object\": \"error\"}\n\n", false, true},
    {"data: {\"object\":\"chat.completion.chunk\",\"choices\":[]}\n\n", false,
     false},
    {"data: {\"object\":\"errors\"}\n\n", false, false},
    /* not at a line start */
    {"data: {\"x\":1} error: {}\n\n", false, false},
    {": error: in a comment\n\n", false, false},
};

/* In-stream errors and the server's words read from them. */
static const struct {
    const char *stream;
    const char *message;
} message_cases[] = {
    {"data: {\"error\":{\"message\":\"upstream overloaded\",\"type\":"
     "\"server_error\"}}\n\n",
     "upstream overloaded"},
    {"data: {\"error\": \"boom\"}\n\n", "boom"},
    {"data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n"
     "error: {\"code\":500,\"message\":\"context shift is disabled\","
     "\"type\":\"server_error\"}\n\ndata: [DONE]\n\n",
     "context shift is disabled"},
    {"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":"
     "\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n",
     "Overloaded"},
    {"event: error\r\n\r\ndata: upstream gone\r\n\r\n", "upstream gone"},
    {"error: {\"code\":503}\n\n", "503"},
    {"data: {\"object\":\"error\",\"message\":\"prompt is too long\","
     "\"type\":\"BadRequestError\",\"param\":null,\"code\":400}\n\n",
     "prompt is too long"},
    {"data: {\"choices\":[]}\n\n", ""},
};

/* Bodies and whether they are SSE framed, whatever their Content-Type. */
static const struct {
    const char *body;
    bool sse;
} sse_cases[] = {
    {"data: {\"choices\":[]}\n\n", true},
    {"data:{\"choices\":[]}\n\n", true}, /* no space: still SSE */
    {"event: message_start\ndata: {}\n\n", true},
    {": keep-alive\n\ndata: {}\n\n", true},
    {": keep-alive\r\n\r\ndata: {}\r\n\r\n", true},
    {"data", false}, /* not yet */
    {"dat", false},
    {"data:", true},
    {"{\"choices\":[{\"message\":{\"content\":\"data: x\"}}]}", false},
    {"{\n  \"data\": [1, 2]\n}\n", false}, /* a pretty JSON "data" key */
    {"{\"object\":\"chat.completion\"}\n", false},
    {" data: x\n", false}, /* not at a line start */
    {"xdata: x\n", false},
    {"{}\ndata: {}\n\n", true}, /* after a first line */
    {"<html>data: not at a line start</html>", false},
    {"", false},
    {": only comments\n\n", false},
    {"ddata:\n", false},
    {"\ndata:", true},
};

/* Feeds s in pieces split at the given points; returns how many feeds
 * reported a first token. */
static int feed_split(struct token_scan *sc, const char *s, size_t a, size_t b)
{
    size_t n = strlen(s);
    int firsts = 0;
    token_scan_init(sc);
    firsts += token_scan_feed(sc, s, a);
    firsts += token_scan_feed(sc, s + a, b - a);
    firsts += token_scan_feed(sc, s + b, n - b);
    return firsts;
}

/* Feeds s in pieces of size k; returns how many feeds reported a first
 * token. */
static int feed_pieces(struct token_scan *sc, const char *s, size_t n, size_t k)
{
    size_t a;
    int firsts = 0;

    token_scan_init(sc);
    for (a = 0; a < n; a += k)
        firsts += token_scan_feed(sc, s + a, n - a < k ? n - a : k);
    return firsts;
}

/* The patterns as documented in token_scan.h, tried at every byte of the
 * whole stream (what the scanner must agree with). */
static void reference(const char *s, size_t n, bool *token, bool *error)
{
    static const char *const keys[] = {
        "\"content\":",   "\"text\":",     "\"reasoning_content\":",
        "\"reasoning\":", "\"thinking\":", "\"partial_json\":",
        "\"arguments\":"};
    static const char *const lines[] = {"error:", "event: error\n",
                                        "event: error\r", "event:error\n",
                                        "event:error\r"};
    size_t i, k, j;

    *token = *error = false;
    for (i = 0; i < n; i++) {
        for (k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            size_t kl = strlen(keys[k]);
            if (i + kl >= n || memcmp(s + i, keys[k], kl) != 0)
                continue;
            j = i + kl;
            if (s[j] == ' ')
                j++;
            if (j + 1 < n && s[j] == '"' && s[j + 1] != '"')
                *token = true;
        }
        if (i + 10 <= n && memcmp(s + i, "text_delta", 10) == 0)
            *token = true;
        if (i + 9 < n && memcmp(s + i, "\"object\":", 9) == 0) {
            for (j = i + 9; j < n && s[j] == ' '; j++)
                ;
            if (j + 7 <= n && memcmp(s + j, "\"error\"", 7) == 0)
                *error = true;
        }
        if (i + 8 < n && memcmp(s + i, "\"error\":", 8) == 0) {
            for (j = i + 8; j < n && s[j] == ' '; j++)
                ;
            if (j < n && (s[j] == '{' || s[j] == '"'))
                *error = true;
        }
        for (k = 0;
             (i == 0 || s[i - 1] == '\n') && k < sizeof lines / sizeof lines[0];
             k++)
            if (i + strlen(lines[k]) <= n &&
                memcmp(s + i, lines[k], strlen(lines[k])) == 0)
                *error = true;
    }
}

/* Random streams of fragments that make, nearly make or break patterns,
 * fed in random pieces (fixed seed). */
static void check_random(void)
{
    static const char *const frags[] = {
        "\"content\":\"",
        "\"content\": \"",
        "\"text\":\"",
        "\"text\": ",
        "\"reasoning_content\":\"",
        "\"reasoning\":\"",
        "\"error\":",
        "\"error\": ",
        "\"error\":null",
        "text_del",
        "ta",
        "\"",
        ":",
        " ",
        "{",
        "x",
        "_content\":\"",
        "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\"",
        "\n\n",
        "\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}",
        "\"thinking\": \"",
        "\"arguments\":\"",
        "error: {\"message\":\"m\"}",
        "error",
        "event: error\n",
        "event:error\r",
        "event: errors\n",
        "\"object\":",
        "\"object\": \"err",
        "or\"",
        "\n"};
    char stream[600];
    unsigned seed = 12345;
    int round;

    for (round = 0; round < 20000; round++) {
        struct token_scan sc;
        size_t n = 0, a, k;
        bool token, error;
        int firsts = 0;
        while (n < 400) {
            const char *f;
            seed = seed * 1103515245u + 12345u;
            f = frags[(seed >> 16) % (sizeof frags / sizeof frags[0])];
            memcpy(stream + n, f, strlen(f));
            n += strlen(f);
            if ((seed >> 8) % 7 == 0)
                break;
        }
        reference(stream, n, &token, &error);
        token_scan_init(&sc);
        for (a = 0; a < n; a += k) {
            seed = seed * 1103515245u + 12345u;
            k = 1 + (seed >> 16) % 48;
            if (k > n - a)
                k = n - a;
            firsts += token_scan_feed(&sc, stream + a, k);
        }
        CHECK_MSG(sc.token_seen == token && sc.error_seen == error &&
                      firsts == (token ? 1 : 0),
                  "round %d: token %d/%d error %d/%d: %.*s", round,
                  sc.token_seen, token, sc.error_seen, error, (int)n, stream);
        if (check_failures > 20)
            return;
    }
}

int main(void)
{
    size_t i, a, b, k, pad;
    char padded[1024];
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *s = cases[i].stream;
        size_t n = strlen(s);
        struct token_scan sc;
        int firsts;
        for (a = 0; a <= n; a++) {
            for (b = a; b <= n; b++) {
                firsts = feed_split(&sc, s, a, b);
                CHECK_MSG(sc.token_seen == cases[i].token &&
                              sc.error_seen == cases[i].error &&
                              firsts == (cases[i].token ? 1 : 0),
                          "case %zu split at %zu,%zu: token %d error %d "
                          "firsts %d",
                          i, a, b, sc.token_seen, sc.error_seen, firsts);
                if (check_failures > 20)
                    return CHECK_DONE();
            }
        }
        for (k = 1; k <= n; k++) {
            firsts = feed_pieces(&sc, s, n, k);
            CHECK_MSG(sc.token_seen == cases[i].token &&
                          sc.error_seen == cases[i].error &&
                          firsts == (cases[i].token ? 1 : 0),
                      "case %zu in pieces of %zu", i, k);
        }
        /* behind 0..99 bytes of a keep-alive comment line, in pieces of
         * 7..40 */
        for (pad = 0; pad < 100 && pad + n < sizeof padded; pad++) {
            memset(padded, ':', pad);
            if (pad > 0)
                padded[pad - 1] = '\n';
            memcpy(padded + pad, s, n);
            for (k = 7; k <= 40; k += 11) {
                firsts = feed_pieces(&sc, padded, pad + n, k);
                CHECK_MSG(sc.token_seen == cases[i].token &&
                              sc.error_seen == cases[i].error &&
                              firsts == (cases[i].token ? 1 : 0),
                          "case %zu behind %zu bytes, pieces of %zu", i, pad,
                          k);
            }
        }
        if (check_failures > 20)
            return CHECK_DONE();
    }
    for (i = 0; i < sizeof sse_cases / sizeof sse_cases[0]; i++) {
        const char *s = sse_cases[i].body;
        size_t n = strlen(s);
        struct token_scan sc;
        for (a = 0; a <= n; a++)
            for (b = a; b <= n; b++) {
                feed_split(&sc, s, a, b);
                CHECK_MSG(token_scan_sse(&sc) == sse_cases[i].sse,
                          "sse case %zu split at %zu,%zu: %d", i, a, b,
                          token_scan_sse(&sc));
            }
        for (k = 1; k <= n; k++) {
            feed_pieces(&sc, s, n, k);
            CHECK_MSG(token_scan_sse(&sc) == sse_cases[i].sse,
                      "sse case %zu in pieces of %zu", i, k);
        }
    }
    for (i = 0; i < sizeof message_cases / sizeof message_cases[0]; i++) {
        const char *s = message_cases[i].stream;
        size_t n = strlen(s);
        struct token_scan sc;
        char msg[256];
        for (a = 0; a <= n; a++)
            for (b = a; b <= n; b++) {
                feed_split(&sc, s, a, b);
                token_scan_error_message(&sc, msg, sizeof msg);
                CHECK_MSG(strcmp(msg, message_cases[i].message) == 0,
                          "message case %zu split at %zu,%zu: '%s'", i, a, b,
                          msg);
                if (check_failures > 20)
                    return CHECK_DONE();
            }
    }
    check_random();
    return CHECK_DONE();
}
