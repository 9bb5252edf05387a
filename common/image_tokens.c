/* image_tokens: image token estimates and a PNG's size from its base64. */
#include "image_tokens.h"

#include <string.h>

#include "base64.h"

int64_t image_tokens_est(unsigned w, unsigned h)
{
    return (int64_t)((w + 27u) / 28u) * (int64_t)((h + 27u) / 28u);
}

bool image_png_size_b64(const char *b64, unsigned *w, unsigned *h)
{
    static const unsigned char head[16] = {0x89, 'P',  'N', 'G', '\r', '\n',
                                           0x1a, '\n', 0,   0,   0,    13,
                                           'I',  'H',  'D', 'R'};
    unsigned char d[24]; /* 32 characters: 24 bytes */
    if (!base64_decode_groups(b64, 8, d))
        return false;
    if (memcmp(d, head, sizeof head) != 0)
        return false;
    *w = (unsigned)d[16] << 24 | (unsigned)d[17] << 16 | (unsigned)d[18] << 8 |
         d[19];
    *h = (unsigned)d[20] << 24 | (unsigned)d[21] << 16 | (unsigned)d[22] << 8 |
         d[23];
    return true;
}
