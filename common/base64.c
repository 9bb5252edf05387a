/* base64: the one base64 encoder (dump's bytes, synthetic image URLs). */
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
