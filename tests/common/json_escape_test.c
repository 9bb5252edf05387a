/* json_escape_test: the one JSON string escaper: every byte 0..255 alone,
 * UTF-8 kept, invalid bytes as U+FFFD, long plain runs, and a cap hit in
 * the middle reported (and kept as the buffer's sticky error). */
#include "json_escape.h"

#include <stdio.h>
#include <string.h>

#include "check.h"

/* json_escape of s[0..len) compared with want. */
static void expect(const char *s, size_t len, const char *want)
{
    struct buf b;
    buf_init(&b, 0);
    CHECK(json_escape(&b, s, len) == BUF_OK);
    CHECK_MSG(b.len == strlen(want) &&
                  memcmp(b.data ? b.data : "", want, b.len) == 0,
              "got \"%s\" want \"%s\"", b.data ? b.data : "", want);
    buf_free(&b);
}

static void test_bytes(void)
{
    for (int c = 0; c < 256; c++) {
        char in = (char)c, want[8];
        if (c == '"' || c == '\\')
            snprintf(want, sizeof want, "\\%c", c);
        else if (c == '\n')
            snprintf(want, sizeof want, "\\n");
        else if (c == '\r')
            snprintf(want, sizeof want, "\\r");
        else if (c == '\t')
            snprintf(want, sizeof want, "\\t");
        else if (c < 0x20 || c == 0x7f)
            snprintf(want, sizeof want, "\\u%04x", c);
        else if (c >= 0x80) /* a lone byte above ASCII is never UTF-8 */
            snprintf(want, sizeof want, "\\ufffd");
        else
            snprintf(want, sizeof want, "%c", c);
        expect(&in, 1, want);
    }
}

static void test_text(void)
{
    expect("", 0, "");
    expect("plain text", 10, "plain text");
    expect("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 14,
           "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    expect("a\"b\\c\nd", 7, "a\\\"b\\\\c\\nd");
    expect("\xe2\x82x", 3, "\\ufffd\\ufffdx"); /* a cut sequence */
    expect("\xc0\xaf", 2, "\\ufffd\\ufffd");   /* overlong */
    expect("a\0b", 3, "a\\u0000b");            /* NUL is a byte too */
    {
        struct buf b;
        buf_init(&b, 0);
        CHECK(json_escape_cstr(&b, "x\ty") == BUF_OK);
        CHECK(b.len == 4 && memcmp(b.data, "x\\ty", 4) == 0);
        buf_free(&b);
    }
}

/* A cap hit in the middle: an error back, and sticky. */
static void test_cap(void)
{
    char big[300];
    struct buf b;
    memset(big, 'a', sizeof big);
    big[150] = '\n';
    buf_init(&b, 100);
    CHECK(json_escape(&b, big, sizeof big) == BUF_E_LIMIT);
    CHECK(buf_error(&b) == BUF_E_LIMIT);
    buf_free(&b);
    buf_init(&b, 151); /* the run before the escape fits, the escape not */
    CHECK(json_escape(&b, big, sizeof big) == BUF_E_LIMIT);
    CHECK(buf_error(&b) == BUF_E_LIMIT);
    buf_free(&b);
}

int main(void)
{
    test_bytes();
    test_text();
    test_cap();
    return CHECK_DONE();
}
