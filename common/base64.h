/* base64: standard base64 (RFC 4648, "+/", "=" padding) onto a buf. */
#ifndef TT_COMMON_BASE64_H
#define TT_COMMON_BASE64_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/* Appends len bytes at s as base64 (no quotes, no line breaks). Returns
 * the buffer's sticky error (buf.h): BUF_OK when all of it went in. */
int base64_put(struct buf *b, const uint8_t *s, size_t len);

/* Decodes the first 4 x groups characters of s (whole groups, no padding,
 * no white space) into 3 x groups bytes at out. False at a character
 * outside the alphabet, the end of s included: then out is partial. */
bool base64_decode_groups(const char *s, size_t groups, uint8_t *out);

#endif
