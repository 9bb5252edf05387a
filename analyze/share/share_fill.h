/* share_fill: replaces the user's text in a body with filler of the same
 * byte length and the same UTF-8 shape, in place and streaming, so a body
 * cut into chunks at any byte is filled as if it were whole.
 *
 * The bytes are a JSON text, an SSE stream of JSON events or anything else.
 * Inside JSON the contents of string *values* change; member names,
 * numbers, true/false/null, the punctuation and the escapes' lengths stay,
 * and so do the string values of the member names in the keep list (e.g.
 * "model", "role", "finish_reason"). A member in the free_form list whose
 * value is an object (a tool's input_schema, a tool call's input, a JSON
 * schema) is filled whole: its member names and its numbers too (each digit
 * becomes 1). A bare word inside JSON that is not a literal (true, false,
 * null, NaN, Infinity, DONE) is filled. Outside JSON, every line is text and
 * filled, but for the SSE fields (with sse): "event:", "id:" and "retry:"
 * lines stay, a "data:" or "error:" line's JSON is read as JSON and any
 * other payload filled, a comment keeps its ':'.
 *
 * The server's error text (everything inside an "error" member, the members
 * after "object":"error" in an object as vLLM sends it, the JSON of an SSE
 * "error:" line as llama.cpp sends it) is filled like any text, since a
 * server's error may quote the prompt; with keep_errors it stays.
 *
 * Filler, byte for byte: an ASCII character other than space and tab
 * becomes 'x'; the lead byte of a 2-, 3- or 4-byte UTF-8 sequence and its
 * continuation bytes become the bytes of "é", "一" or "😀"; a \uXXXX escape
 * becomes one that decodes to the same number of UTF-8 bytes (a surrogate
 * stays a surrogate of its half, \u0000 stays). So a decoder sees strings of
 * the same bytes and characters. */
#ifndef TT_SHARE_FILL_H
#define TT_SHARE_FILL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SHARE_FILL_DEPTH 64
#define SHARE_FILL_KEY 32

/* What a fill keeps; borrowed for the fill's life. */
struct share_fill_rules {
    const char *const *keep;      /* NULL-terminated member names; or NULL */
    const char *const *free_form; /* NULL-terminated member names; or NULL */
    bool keep_errors;             /* the server's error text stays */
    bool sse;                     /* lines outside JSON may be SSE fields */
    bool all;                     /* every value is free-form (names too) */
};

struct share_fill {
    const struct share_fill_rules *rules;
    uint8_t open[SHARE_FILL_DEPTH];  /* '{' or '[' per nesting level */
    bool in_error[SHARE_FILL_DEPTH]; /* level inside an "error" member */
    bool in_free[SHARE_FILL_DEPTH];  /* level inside a free-form value */
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
    uint8_t line_mode;    /* what the bytes outside JSON are (share_fill.c) */
    char line_head[6];    /* the first bytes of the line, outside JSON */
    uint8_t line_len;     /* of them, so far (up to sizeof line_head) */
    bool line_error;      /* the line is an SSE "error:" field */
    char word[9];         /* the bare word being read inside JSON */
    uint8_t word_len;     /* its length; 0xff: not a literal, filled */
    bool after_digit;     /* the byte before was part of a number */
    bool value_of_object; /* the string read is the value of "object" */
    char value[6];        /* and its first bytes */
    uint8_t value_len;
    uint64_t filled; /* bytes replaced so far */
};

/* Starts a fill over a new body with rules r. */
void share_fill_init(struct share_fill *f, const struct share_fill_rules *r);

/* Fills the next n bytes of the body in place. Can't fail. */
void share_fill_run(struct share_fill *f, uint8_t *p, size_t n);

#endif
