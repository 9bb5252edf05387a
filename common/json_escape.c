/* json_escape: JSON string escaping, runs of plain text appended at once. */
#include "json_escape.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "utf8.h"

/* The escape of the byte c that cannot stand for itself, in esc (at least
 * 7 bytes); returns its length. */
static size_t escape_of(uint8_t c, bool invalid, char *esc)
{
    if (invalid) {
        memcpy(esc, "\\ufffd", 6);
        return 6;
    }
    esc[0] = '\\';
    switch (c) {
    case '"':
    case '\\':
        esc[1] = (char)c;
        return 2;
    case '\n':
        esc[1] = 'n';
        return 2;
    case '\r':
        esc[1] = 'r';
        return 2;
    case '\t':
        esc[1] = 't';
        return 2;
    default:
        snprintf(esc, 7, "\\u%04x", c);
        return 6;
    }
}

int json_escape(struct buf *b, const char *str, size_t len)
{
    const uint8_t *s = (const uint8_t *)str;
    size_t i = 0, run = 0; /* s[run..i) is plain text not yet appended */
    int rc = BUF_OK;
    while (i < len && rc == BUF_OK) {
        uint8_t c = s[i];
        size_t n = 1;
        char esc[8];
        bool invalid = false;
        if (c >= 0x80) {
            n = utf8_seq_len(s + i, len - i);
            if (n > 0) {
                i += n;
                continue;
            }
            invalid = true;
        } else if (c >= 0x20 && c != 0x7f && c != '"' && c != '\\') {
            i++;
            continue;
        }
        if (i > run)
            rc = buf_append(b, s + run, i - run);
        if (rc == BUF_OK)
            rc = buf_append(b, esc, escape_of(c, invalid, esc));
        i++;
        run = i;
    }
    if (rc == BUF_OK && len > run)
        rc = buf_append(b, s + run, len - run);
    return rc;
}

int json_escape_cstr(struct buf *b, const char *s)
{
    return json_escape(b, s, strlen(s));
}
