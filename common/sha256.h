/* sha256: SHA-256 (FIPS 180-4), the digest `check` and `share` print for a
 * whole trace file, so a bug report can quote what `sha256sum` shows. */
#ifndef TT_SHA256_H
#define TT_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
    uint32_t h[8];
    uint64_t len; /* bytes so far */
    uint8_t block[64];
    size_t fill;
};

#define SHA256_HEX_SIZE 65 /* 64 hex digits and the NUL */

void sha256_init(struct sha256 *s);

/* Adds n bytes. Can't fail. */
void sha256_update(struct sha256 *s, const void *p, size_t n);

/* Writes the digest as 64 lowercase hex digits into hex (the state is
 * used up). Returns hex. */
char *sha256_hex(struct sha256 *s, char hex[SHA256_HEX_SIZE]);

#endif
