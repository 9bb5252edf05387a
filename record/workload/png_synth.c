/* png_synth: a minimal PNG encoder (RGB, stored deflate) for noise images. */
#include "png_synth.h"

#include <string.h>

#include "rng.h"

/* PNG's CRC-32 (ISO 3309, polynomial 0xEDB88320 reflected), continuing
 * crc over n bytes. crc32c.h is a different polynomial (Castagnoli). */
static uint32_t png_crc(uint32_t crc, const uint8_t *p, size_t n)
{
    crc = ~crc;
    while (n--) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

/* Writes v big-endian at p. */
static void put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* Appends one chunk: length, type, data, CRC of type and data. */
static void chunk(struct buf *out, const char type[4], const uint8_t *data,
                  size_t n)
{
    uint8_t head[8], tail[4];
    put_be32(head, (uint32_t)n);
    memcpy(head + 4, type, 4);
    put_be32(tail, png_crc(png_crc(0, head + 4, 4), data, n));
    buf_append(out, head, 8);
    if (n)
        buf_append(out, data, n);
    buf_append(out, tail, 4);
}

/* The raw scanlines (filter byte 0, then RGB noise) as a zlib stream of
 * stored deflate blocks (RFC 1950, RFC 1951 3.2.4) appended to z. */
static void idat_data(uint64_t seed, unsigned w, unsigned h, struct buf *z)
{
    size_t row = 1 + 3 * (size_t)w, total = row * h, done = 0;
    uint32_t a = 1, b = 0; /* Adler-32 */
    uint64_t st = seed, bits = 0;
    unsigned have = 0;
    uint8_t hdr[2] = {0x78, 0x01}, adler[4];
    buf_append(z, hdr, 2);
    while (done < total) {
        size_t n = total - done > 65535 ? 65535 : total - done;
        uint8_t bh[5] = {done + n == total ? 1 : 0, (uint8_t)n,
                         (uint8_t)(n >> 8), (uint8_t)~n, (uint8_t)(~n >> 8)};
        char *p;
        buf_append(z, bh, 5);
        if (buf_extend(z, n, &p))
            return;
        for (size_t i = 0; i < n; i++, done++) {
            uint8_t v = 0; /* a scanline's filter byte: none */
            if (done % row != 0) {
                if (have == 0)
                    bits = rng_next(&st), have = 8;
                v = (uint8_t)bits;
                bits >>= 8, have--;
            }
            p[i] = (char)v;
            a = (a + v) % 65521u;
            b = (b + a) % 65521u;
        }
    }
    put_be32(adler, (b << 16) | a);
    buf_append(z, adler, 4);
}

int png_synth(uint64_t seed, unsigned w, unsigned h, struct buf *out)
{
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    uint8_t ihdr[13];
    struct buf z;
    put_be32(ihdr, w);
    put_be32(ihdr + 4, h);
    ihdr[8] = 8;  /* bits per sample */
    ihdr[9] = 2;  /* truecolour (RGB) */
    ihdr[10] = 0; /* deflate */
    ihdr[11] = 0; /* adaptive filtering */
    ihdr[12] = 0; /* no interlace */
    buf_init(&z, 0);
    idat_data(seed, w, h, &z);
    if (buf_error(&z))
        buf_set_error(out, buf_error(&z));
    buf_append(out, sig, sizeof sig);
    chunk(out, "IHDR", ihdr, sizeof ihdr);
    chunk(out, "IDAT", (const uint8_t *)z.data, z.len);
    chunk(out, "IEND", NULL, 0);
    buf_free(&z);
    return buf_error(out);
}
