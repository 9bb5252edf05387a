/* json_writer: exact JSON text for analyzer output (cJSON prints numbers as
 * doubles, which would round nanosecond timestamps). Appends to a struct buf.
 * Every json_put_* returns the buffer's sticky error (buf_error): BUF_OK, or
 * the first append that failed, in this call or before; a writer may also
 * ignore them and check buf_error once before writing the document.
 */
#ifndef TT_JSON_WRITER_H
#define TT_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

struct mp_value;

/* Appends s[0..len) as a quoted JSON string (common/json_escape.h):
 * invalid UTF-8 bytes become U+FFFD, control characters are escaped. */
int json_put_string(struct buf *b, const char *s, size_t len);

/* Appends a NUL-terminated string quoted, or null when s is NULL. */
int json_put_cstr(struct buf *b, const char *s);

/* Appends a double with up to 6 significant decimals; null for NaN/inf. */
int json_put_double(struct buf *b, double x);

/* True when s[0..len) is valid UTF-8. */
bool json_utf8_valid(const uint8_t *s, size_t len);

/* Appends a decoded msgpack value as JSON: maps with non-string keys get
 * their keys stringified, binaries become strings when valid UTF-8 and
 * {"base64":"..."} otherwise. */
int json_put_mp(struct buf *b, const struct mp_value *v);

#endif
