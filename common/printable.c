/* printable: terminal-safe and UTF-8-safe copies of untrusted text. */
#include "printable.h"

#include <stdio.h>
#include <string.h>

#include "utf8.h"

#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD */

/* The text that stands for the character at s (len bytes left): itself,
 * its escape (in esc, at least 8 bytes) or U+FFFD for an invalid byte.
 * Sets *plen to the text's length and *used to the bytes of s it covers. */
static const char *piece_of(const unsigned char *s, size_t len, char *esc,
                            size_t *plen, size_t *used)
{
    size_t n = utf8_seq_len(s, len);
    if (n == 0) {
        *plen = 3;
        *used = 1;
        return REPLACEMENT;
    }
    *used = n;
    if (!utf8_is_control(s, n)) {
        *plen = n;
        return (const char *)s;
    }
    if (n == 1)
        snprintf(esc, 8, "\\x%02x", s[0]);
    else /* C1 */
        snprintf(esc, 8, "\\u%04x", (unsigned)s[1]);
    *plen = strlen(esc);
    return esc;
}

char *printable_copy(char *out, size_t size, const char *str)
{
    const unsigned char *s = (const unsigned char *)(str ? str : "");
    size_t len = strlen((const char *)s), i = 0, o = 0;
    char esc[8];
    if (size == 0)
        return out;
    while (i < len) {
        size_t plen, n;
        const char *piece = piece_of(s + i, len - i, esc, &plen, &n);
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
        size_t plen, n;
        const char *piece = piece_of(s + i, len - i, esc, &plen, &n);
        err = buf_append(b, piece, plen);
        i += n;
    }
    return err;
}
