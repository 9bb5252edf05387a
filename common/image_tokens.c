/* image_tokens: image token estimates and a PNG's size from its base64. */
#include "image_tokens.h"

#include <string.h>

int64_t image_tokens_est(unsigned w, unsigned h)
{
    return (int64_t)((w + 27u) / 28u) * (int64_t)((h + 27u) / 28u);
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

bool image_png_size_b64(const char *b64, unsigned *w, unsigned *h)
{
    static const unsigned char head[16] = {0x89, 'P',  'N', 'G', '\r', '\n',
                                           0x1a, '\n', 0,   0,   0,    13,
                                           'I',  'H',  'D', 'R'};
    unsigned char d[24];
    for (int i = 0; i < 8; i++) { /* 32 characters: 24 bytes */
        unsigned v = 0;
        for (int k = 0; k < 4; k++) {
            int x = b64_value(b64[i * 4 + k]);
            if (x < 0) /* also the end of the text */
                return false;
            v = v << 6 | (unsigned)x;
        }
        d[i * 3] = (unsigned char)(v >> 16);
        d[i * 3 + 1] = (unsigned char)(v >> 8);
        d[i * 3 + 2] = (unsigned char)v;
    }
    if (memcmp(d, head, sizeof head) != 0)
        return false;
    *w = (unsigned)d[16] << 24 | (unsigned)d[17] << 16 | (unsigned)d[18] << 8 |
         d[19];
    *h = (unsigned)d[20] << 24 | (unsigned)d[21] << 16 | (unsigned)d[22] << 8 |
         d[23];
    return true;
}
