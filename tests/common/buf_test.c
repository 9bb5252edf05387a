/* buf_test: buf_printf formats like snprintf at every spare-capacity
 * boundary and refuses what passes the cap; buf_extend; the sticky error. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "check.h"

/* buf_printf after `pre` bytes, for texts of every length up to 600 (the
 * first growth is at 256 bytes): same bytes as snprintf, NUL-terminated. */
static void check_printf_boundaries(void)
{
    char want[1300], text[700];
    size_t pre, len;

    memset(text, 'a', sizeof(text));
    for (pre = 0; pre < 300; pre += 7) {
        for (len = 0; len < 600; len += 5) {
            struct buf b;
            int n;
            buf_init(&b, 0);
            memset(want, 'p', pre);
            buf_append(&b, want, pre);
            n = snprintf(want + pre, sizeof(want) - pre, "%.*s|%d", (int)len,
                         text, (int)len);
            CHECK(buf_printf(&b, "%.*s|%d", (int)len, text, (int)len) ==
                  BUF_OK);
            CHECK_MSG(b.len == pre + (size_t)n &&
                          memcmp(b.data, want, b.len) == 0 &&
                          b.data[b.len] == '\0',
                      "pre %zu len %zu", pre, len);
            buf_free(&b);
        }
    }
}

/* The cap holds whether the text fits the spare room or not. */
static void check_printf_limit(void)
{
    struct buf b;

    buf_init(&b, 10);
    CHECK(buf_printf(&b, "%s", "12345") == BUF_OK);
    CHECK(buf_printf(&b, "%s", "678901") == BUF_E_LIMIT); /* 11 > 10 */
    CHECK(b.len == 5 && strcmp(b.data, "12345") == 0);
    CHECK(buf_printf(&b, "%s", "67890") == BUF_OK); /* exactly 10 */
    CHECK(b.len == 10 && strcmp(b.data, "1234567890") == 0);
    CHECK(buf_printf(&b, "%s", "x") == BUF_E_LIMIT);
    CHECK(buf_printf(&b, "%s", "") == BUF_OK);
    CHECK(b.len == 10 && b.data[10] == '\0');
    buf_free(&b);
}

static void check_extend(void)
{
    struct buf b;
    char *p = NULL;

    buf_init(&b, 8);
    CHECK(buf_append(&b, "ab", 2) == BUF_OK);
    CHECK(buf_extend(&b, 3, &p) == BUF_OK && p == b.data + 2);
    memcpy(p, "cde", 3);
    CHECK(b.len == 5 && strcmp(b.data, "abcde") == 0);
    p = NULL;
    CHECK(buf_extend(&b, 4, &p) == BUF_E_LIMIT && p == NULL && b.len == 5);
    CHECK(buf_extend(&b, 0, &p) == BUF_OK && b.len == 5 && b.data[5] == '\0');
    buf_free(&b);
}

/* The first failure stays, whatever succeeds after it, until buf_reset. */
static void check_sticky(void)
{
    struct buf b;
    char *p;
    buf_init(&b, 8);
    CHECK(buf_error(&b) == BUF_OK);
    CHECK(buf_puts(&b, "12345") == BUF_OK && buf_error(&b) == BUF_OK);
    CHECK(buf_puts(&b, "6789") == BUF_E_LIMIT); /* 9 > 8: refused */
    CHECK(buf_error(&b) == BUF_E_LIMIT);
    CHECK(buf_puts(&b, "6") == BUF_OK); /* fits, but the text has a hole */
    CHECK(buf_error(&b) == BUF_E_LIMIT);
    CHECK(buf_printf(&b, "%s", "abcdef") == BUF_E_LIMIT);
    CHECK(buf_extend(&b, 9, &p) == BUF_E_LIMIT);
    CHECK(buf_error(&b) == BUF_E_LIMIT);
    buf_consume(&b, 2);
    CHECK(buf_error(&b) == BUF_E_LIMIT); /* consuming is not a new start */
    buf_reset(&b);
    CHECK(buf_error(&b) == BUF_OK && b.len == 0);
    CHECK(buf_printf(&b, "%d", 123456789) == BUF_E_LIMIT);
    CHECK(buf_error(&b) == BUF_E_LIMIT);
    buf_free(&b);
    CHECK(buf_error(&b) == BUF_OK);
    CHECK(strcmp(buf_strerror(BUF_E_NOMEM), "out of memory") == 0);
    CHECK(strstr(buf_strerror(BUF_E_LIMIT), "cap") != NULL);
}

int main(void)
{
    check_sticky();
    check_printf_boundaries();
    check_printf_limit();
    check_extend();
    return CHECK_DONE();
}
