/* base64: the one base64 code, both ways (dump's bytes, synthetic image
 * URLs; the size of an image a request carries). */
#include "base64.h"

int base64_put(struct buf *b, const uint8_t *s, size_t len)
{
    static const char tbl[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)s[i] << 16;
        char out[4];
        if (i + 1 < len)
            v |= (uint32_t)s[i + 1] << 8;
        if (i + 2 < len)
            v |= s[i + 2];
        out[0] = tbl[(v >> 18) & 63];
        out[1] = tbl[(v >> 12) & 63];
        out[2] = i + 1 < len ? tbl[(v >> 6) & 63] : '=';
        out[3] = i + 2 < len ? tbl[v & 63] : '=';
        buf_append(b, out, 4);
    }
    return buf_error(b);
}

/* The 6-bit value of base64 character c, or -1. */
static int b64_value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

bool base64_decode_groups(const char *s, size_t groups, uint8_t *out)
{
    for (size_t i = 0; i < groups; i++) {
        uint32_t v = 0;
        for (int k = 0; k < 4; k++) {
            int x = b64_value(s[i * 4 + k]);
            if (x < 0) /* also the end of the text */
                return false;
            v = v << 6 | (uint32_t)x;
        }
        out[i * 3] = (uint8_t)(v >> 16);
        out[i * 3 + 1] = (uint8_t)(v >> 8);
        out[i * 3 + 2] = (uint8_t)v;
    }
    return true;
}
