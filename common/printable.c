/* printable: terminal-safe and UTF-8-safe copies of untrusted text. */
#include "printable.h"

#include <stdio.h>
#include <string.h>

#include "utf8.h"

#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD */

/* The escaped form of the sequence at s (len bytes, valid UTF-8) into esc
 * (at least 8 bytes), or NULL when it is printable as it is. */
static const char *escape_of(const unsigned char *s, size_t len, char *esc)
{
    if (len == 1 && (s[0] < 0x20 || s[0] == 0x7f)) {
        snprintf(esc, 8, "\\x%02x", s[0]);
        return esc;
    }
    if (len == 2 && s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f) {
        snprintf(esc, 8, "\\u%04x", (unsigned)s[1]);
        return esc;
    }
    return NULL;
}

char *printable_copy(char *out, size_t size, const char *str)
{
    const unsigned char *s = (const unsigned char *)(str ? str : "");
    size_t len = strlen((const char *)s), i = 0, o = 0;
    char esc[8];
    if (size == 0)
        return out;
    while (i < len) {
        size_t n = utf8_seq_len(s + i, len - i);
        const char *piece;
        size_t plen;
        if (n == 0) {
            piece = REPLACEMENT;
            plen = 3;
            n = 1;
        } else if ((piece = escape_of(s + i, n, esc))) {
            plen = strlen(piece);
        } else {
            piece = (const char *)s + i;
            plen = n;
        }
        if (o + plen >= size) {
            if (size > 4) {
                while (o + 3 >= size)
                    o--; /* room for "..." */
                /* back to a character boundary */
                while (o > 0 && ((unsigned char)out[o] & 0xc0) == 0x80)
                    o--;
                memcpy(out + o, "...", 3);
                o += 3;
            }
            break;
        }
        memcpy(out + o, piece, plen);
        o += plen;
        i += n;
    }
    out[o] = '\0';
    return out;
}

int printable_put(struct buf *b, const char *str)
{
    const unsigned char *s = (const unsigned char *)(str ? str : "");
    size_t len = strlen((const char *)s), i = 0;
    char esc[8];
    int err = 0;
    while (i < len && !err) {
        size_t n = utf8_seq_len(s + i, len - i);
        const char *piece;
        if (n == 0) {
            err = buf_puts(b, REPLACEMENT);
            i++;
        } else if ((piece = escape_of(s + i, n, esc))) {
            err = buf_puts(b, piece);
            i += n;
        } else {
            err = buf_append(b, s + i, n);
            i += n;
        }
    }
    return err;
}
