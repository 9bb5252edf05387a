/* json_escape: the one JSON string escaper of every program (the
 * analyzer's JSON output, the replay server's events and bodies). */
#ifndef TT_COMMON_JSON_ESCAPE_H
#define TT_COMMON_JSON_ESCAPE_H

#include <stddef.h>

#include "buf.h"

/* Appends s[0..len) escaped for the inside of a JSON string (no quotes):
 * '"' and '\\' backslashed, \n \r \t by name, other control characters
 * (below 0x20, and 0x7f) as \u00XX, valid UTF-8 as itself and each byte
 * that is not valid UTF-8 as \ufffd, so the result is always valid JSON
 * and valid UTF-8. Returns BUF_OK or the first buf error (the buffer's
 * sticky error records it too). */
int json_escape(struct buf *b, const char *s, size_t len);

/* json_escape of a NUL-terminated string. */
int json_escape_cstr(struct buf *b, const char *s);

#endif
