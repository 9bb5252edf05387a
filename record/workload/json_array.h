/* json_array: the elements of one top-level JSON array read from a stream,
 * one at a time, so a dataset of hundreds of MB (a ShareGPT file) never
 * sits in memory whole: only the element being read does (capped).
 *
 * It only finds where each element starts and ends (strings, escapes and
 * nesting followed, nothing decoded); the caller parses the element.
 * Ownership: the reader owns its buffers; json_array_close frees them and
 * never closes the FILE. */
#ifndef TT_RECORD_JSON_ARRAY_H
#define TT_RECORD_JSON_ARRAY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_ARRAY_CHUNK 65536

struct json_array {
    FILE *f;
    size_t max_elem; /* an element longer than this is refused */
    char *elem;      /* the current element, NUL-terminated */
    size_t elem_len, elem_cap;
    int64_t elem_offset; /* its first byte's offset in the stream */
    int64_t index;       /* its index, from 0 */
    int state;           /* where the reader is (json_array.c) */
    unsigned char in[JSON_ARRAY_CHUNK];
    size_t in_pos, in_len;
    int64_t offset; /* stream offset of in[in_pos] */
};

/* Starts reading f (borrowed), elements at most max_elem bytes; offset is
 * the stream offset of f's next byte (bytes the caller read already). */
void json_array_open(struct json_array *a, FILE *f, size_t max_elem,
                     int64_t offset);

/* Reads the next element into a->elem / a->elem_len (its offset and index
 * beside). Returns 1 with an element, 0 after the closing ']' (only white
 * space may follow it), or -1 with "byte N: reason" in err (not an array,
 * a missing ',', a cut file, an element over the cap, a read error). */
int json_array_next(struct json_array *a, char *err, size_t errlen);

/* Frees the buffers (not the FILE). NULL-safe. */
void json_array_close(struct json_array *a);

#endif
