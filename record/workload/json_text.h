/* json_text: finds, in a JSON text, the string escapes a request body
 * cannot carry: \u0000 (cJSON's strings end at a NUL, so "a\u0000b"
 * would be sent as "a") and a UTF-16 surrogate without its other half
 * (\ud800 alone, which no UTF-8 text can hold). */
#ifndef TT_RECORD_JSON_TEXT_H
#define TT_RECORD_JSON_TEXT_H

#include <stddef.h>

/* Scans the n bytes of JSON text s. Returns NULL when every escape can be
 * sent, else what cannot (a static phrase naming it: "a \\u0000 in a
 * string", "a lone UTF-16 surrogate \\ud800"), with *at its byte offset
 * in s. */
const char *json_text_unsendable(const char *s, size_t n, size_t *at);

#endif
