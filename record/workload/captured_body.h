/* captured_body: a captured request body made ready to send again: the
 * same bytes with the top-level "model" value replaced. Pure. */
#ifndef TT_RECORD_CAPTURED_BODY_H
#define TT_RECORD_CAPTURED_BODY_H

#include <stddef.h>

/* body (len bytes, a JSON object) with its top-level "model" string
 * replaced by model (JSON-escaped), or a "model" member put first when it
 * has none; every other byte as it was. A malloc'd NUL-terminated string
 * (*out_len its length), or NULL when out of memory or body is not an
 * object. */
char *captured_body_with_model(const char *body, size_t len, const char *model,
                               size_t *out_len);

#endif
