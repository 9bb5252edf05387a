/* share_fill: replaces the text of JSON string values with filler of the
 * same byte length and the same UTF-8 shape, in place and streaming, so a
 * body cut into chunks at any byte is filled as if it were whole.
 *
 * The bytes are a JSON text, an SSE stream of JSON events or anything else;
 * only the contents of string *values* inside an object or array change.
 * Member names, numbers, true/false/null, the JSON punctuation, the SSE
 * lines around the JSON, escapes' lengths and every byte outside strings
 * stay. Kept too: the string values of the member names in the keep list
 * (e.g. "model", "role", "finish_reason") and the server's own error
 * text: everything inside an "error" member, the members after
 * "object":"error" in an object (vLLM's bare error event), and the JSON
 * of an SSE "error:" field line (llama.cpp). Filler, byte for byte: an ASCII
 * character other than space and tab becomes 'x'; the lead byte of a 2-, 3-
 * or 4-byte UTF-8 sequence and its continuation bytes become the bytes of
 * "é", "一" or "😀"; a \uXXXX escape becomes one that decodes to the same
 * number of UTF-8 bytes (a surrogate stays a surrogate of its half, \u0000
 * stays). So a decoder sees strings of the same bytes and characters. */
#ifndef TT_SHARE_FILL_H
#define TT_SHARE_FILL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SHARE_FILL_DEPTH 64
#define SHARE_FILL_KEY 32

struct share_fill {
    const char *const *keep;        /* NULL-terminated member names; borrowed */
    uint8_t open[SHARE_FILL_DEPTH]; /* '{' or '[' per nesting level */
    bool in_error[SHARE_FILL_DEPTH]; /* level inside an "error" member */
    unsigned depth;                  /* levels open, up to the array size */
    unsigned deeper;                 /* levels open beyond it */
    uint8_t state;
    bool expect_key; /* in an object, before a member name */
    bool is_key;     /* the string being read is a member name */
    bool fill;       /* the string being read is filled */
    bool have_key;   /* key[] names the member whose value comes next */
    char key[SHARE_FILL_KEY + 1];
    size_t key_len;
    uint8_t seq[4]; /* the filler UTF-8 sequence being written */
    uint8_t seq_pos, seq_len;
    uint8_t hex_n;        /* \u digits read so far */
    char hex[4];          /* and their values, lowercase */
    uint8_t line_ends;    /* consecutive line ends outside strings */
    char line_head[6];    /* the first bytes of the line, outside JSON */
    uint8_t line_len;     /* of them, so far (up to sizeof line_head) */
    bool value_of_object; /* the string read is the value of "object" */
    char value[6];        /* and its first bytes */
    uint8_t value_len;
    uint64_t filled; /* bytes of string contents replaced so far */
};

/* Starts a fill over a new body with the member names in keep (a
 * NULL-terminated list, borrowed for the fill's life; NULL: none). */
void share_fill_init(struct share_fill *f, const char *const *keep);

/* Fills the next n bytes of the body in place. Can't fail. */
void share_fill_run(struct share_fill *f, uint8_t *p, size_t n);

#endif
