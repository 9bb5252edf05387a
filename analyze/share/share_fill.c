/* share_fill: same-length, same-shape filler for the user's text in a
 * body (share_fill.h says what is kept and what each byte becomes). */
#include "share_fill.h"

#include <string.h>

enum { ST_OUT, ST_STR, ST_ESC, ST_HEX };

/* What the bytes of a line outside JSON are. */
enum {
    LM_HEAD,    /* the line's start: an SSE field name, JSON or text */
    LM_PAYLOAD, /* after "data:"/"error:" or after JSON: JSON or text */
    LM_KEEP,    /* an SSE "event:", "id:" or "retry:" value: kept */
    LM_FILL     /* text: filled to the line's end */
};

#define WORD_FILLED 0xff

void share_fill_init(struct share_fill *f, const struct share_fill_rules *r)
{
    memset(f, 0, sizeof(*f));
    f->rules = r;
}

/* Forgets every open level: the bytes were not JSON after all (a raw line
 * end in a string, a blank line between SSE events). */
static void reset_levels(struct share_fill *f)
{
    f->depth = f->deeper = 0;
    f->state = ST_OUT;
    f->expect_key = f->have_key = false;
    f->line_mode = LM_HEAD;
    f->line_error = false;
}

static bool in_list(const struct share_fill *f, const char *const *list)
{
    if (!f->have_key || !list)
        return false;
    for (const char *const *k = list; *k; k++)
        if (strlen(*k) == f->key_len && memcmp(*k, f->key, f->key_len) == 0)
            return true;
    return false;
}

static bool key_is(const struct share_fill *f, const char *name)
{
    size_t n = strlen(name);
    return f->have_key && f->key_len == n && memcmp(f->key, name, n) == 0;
}

static bool outside(const struct share_fill *f)
{
    return f->depth == 0 && !f->deeper;
}

static bool top_is_object(const struct share_fill *f)
{
    return f->depth > 0 && !f->deeper && f->open[f->depth - 1] == '{';
}

static bool top_in_error(const struct share_fill *f)
{
    return f->depth > 0 && f->in_error[f->depth - 1];
}

/* Inside a free-form value (levels beyond the array: as the deepest). */
static bool top_in_free(const struct share_fill *f)
{
    return f->depth > 0 && f->in_free[f->depth - 1];
}

/* Kept as the server's words: error text, with keep_errors. */
static bool kept_error(const struct share_fill *f)
{
    return f->rules->keep_errors &&
           (top_in_error(f) || (top_is_object(f) && key_is(f, "error")));
}

static void push(struct share_fill *f, uint8_t c)
{
    bool err = top_in_error(f) || (top_is_object(f) && key_is(f, "error")) ||
               (outside(f) && f->line_error);
    bool free_form =
        f->rules->all || top_in_free(f) ||
        (c == '{' && top_is_object(f) && in_list(f, f->rules->free_form));
    if (f->depth == SHARE_FILL_DEPTH) {
        f->deeper++;
    } else {
        f->open[f->depth] = c;
        f->in_error[f->depth] = err;
        f->in_free[f->depth] = free_form;
        f->depth++;
    }
    f->expect_key = c == '{';
    f->have_key = false;
}

static void pop(struct share_fill *f)
{
    if (f->deeper)
        f->deeper--;
    else if (f->depth)
        f->depth--;
    f->expect_key = false;
    f->have_key = false;
    if (outside(f))
        f->line_mode = LM_PAYLOAD; /* after the JSON: JSON again or text */
}

/* The filler byte for one UTF-8 byte c of filled text. */
static uint8_t fill_utf8(struct share_fill *f, uint8_t c)
{
    static const uint8_t two[] = {0xc3, 0xa9};              /* é */
    static const uint8_t three[] = {0xe4, 0xb8, 0x80};      /* 一 */
    static const uint8_t four[] = {0xf0, 0x9f, 0x98, 0x80}; /* 😀 */
    const uint8_t *seq = NULL;
    uint8_t len = 0;
    if ((c & 0xc0) == 0x80) {
        if (f->seq_pos < f->seq_len)
            return f->seq[f->seq_pos++];
        return 0x80; /* a stray continuation byte stays one */
    }
    f->seq_pos = f->seq_len = 0;
    if (c < 0x80)
        return c == ' ' || c == '\t' || c < 0x20 ? c : 'x';
    if (c < 0xe0)
        seq = two, len = 2;
    else if (c < 0xf0)
        seq = three, len = 3;
    else if (c < 0xf8)
        seq = four, len = 4;
    else
        return 'x'; /* never UTF-8: one byte, one character */
    memcpy(f->seq, seq, len);
    f->seq_len = len;
    f->seq_pos = 1;
    return seq[0];
}

/* Fills one byte of text, counting it when it changes. */
static uint8_t fill_text(struct share_fill *f, uint8_t c)
{
    uint8_t o = fill_utf8(f, c);
    f->filled += o != c || c >= 0x80;
    return o;
}

static bool is_letter(uint8_t c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(uint8_t c)
{
    return c >= '0' && c <= '9';
}

/* A byte of a bare word inside JSON: kept while the word is a prefix of a
 * literal, filled from the first byte that is not. */
static uint8_t word_byte(struct share_fill *f, uint8_t c)
{
    static const char *const literals[] = {"true",     "false", "null", "NaN",
                                           "Infinity", "DONE",  NULL};
    if (f->word_len != WORD_FILLED && f->word_len < sizeof f->word - 1) {
        f->word[f->word_len] = (char)c;
        for (const char *const *l = literals; *l; l++)
            if (strlen(*l) > f->word_len &&
                memcmp(*l, f->word, f->word_len + 1u) == 0) {
                f->word_len++;
                return c;
            }
    }
    f->word_len = WORD_FILLED;
    return fill_text(f, c);
}

/* The line so far (line_head) is an SSE field name or a prefix of one;
 * returns the field's length when it is whole, 0 for a prefix, -1 for
 * neither. */
static int sse_field(const struct share_fill *f, const char **name)
{
    static const char *const fields[] = {
        "data:", "event:", "id:", "retry:", "error:", ":", NULL};
    int r = -1;
    for (const char *const *s = fields; *s; s++) {
        size_t n = strlen(*s);
        if (n < f->line_len || memcmp(*s, f->line_head, f->line_len) != 0)
            continue;
        if (n == f->line_len) {
            *name = *s;
            return (int)n;
        }
        r = 0;
    }
    return r;
}

/* A byte outside any JSON container, by the line it is on. */
static uint8_t line_byte(struct share_fill *f, uint8_t c)
{
    const char *name = NULL;
    int k;
    switch (f->line_mode) {
    case LM_KEEP:
        return c;
    case LM_FILL:
        return fill_text(f, c);
    case LM_PAYLOAD:
        if (c == ' ' || c == '\t')
            return c;
        if (c == '{' || c == '[') {
            push(f, c);
            return c;
        }
        f->line_mode = LM_FILL;
        return fill_text(f, c);
    default: /* LM_HEAD */
        break;
    }
    if (f->line_len == 0 && (c == ' ' || c == '\t'))
        return c;
    if (f->line_len == 0 && (c == '{' || c == '[')) {
        push(f, c);
        return c;
    }
    if (f->rules->sse && f->line_len < sizeof f->line_head) {
        f->line_head[f->line_len++] = (char)c;
        k = sse_field(f, &name);
        if (k == 0)
            return c;
        if (k > 0) {
            bool payload = name[0] == 'd' || name[0] == 'e';
            if (strcmp(name, "event:") == 0)
                payload = false;
            f->line_error = strcmp(name, "error:") == 0;
            f->line_mode = name[0] == ':' ? LM_FILL
                           : payload      ? LM_PAYLOAD
                                          : LM_KEEP;
            return c;
        }
    }
    f->line_mode = LM_FILL;
    return fill_text(f, c);
}

/* A byte inside JSON, outside any string. */
static uint8_t json_byte(struct share_fill *f, uint8_t c)
{
    bool digit = is_digit(c), num = f->after_digit;
    f->after_digit = false;
    if (!is_letter(c) || num)
        f->word_len = 0;
    switch (c) {
    case '{':
    case '[':
        push(f, c);
        return c;
    case '}':
    case ']':
        pop(f);
        return c;
    case ',':
        f->expect_key = top_is_object(f);
        f->have_key = false;
        return c;
    case ':':
    case ' ':
    case '\t':
    case '\r':
        return c;
    case '"':
        f->is_key = top_is_object(f) && f->expect_key;
        if (f->is_key) {
            f->key_len = 0;
            f->fill = top_in_free(f);
        } else {
            f->fill = top_in_free(f) ||
                      (!kept_error(f) &&
                       !(top_is_object(f) && in_list(f, f->rules->keep)));
            f->value_of_object = top_is_object(f) && key_is(f, "object");
            f->value_len = 0;
            f->have_key = false;
        }
        f->seq_pos = f->seq_len = 0;
        f->state = ST_STR;
        return c;
    default:
        break;
    }
    if (digit || c == '-' || c == '+' || c == '.' ||
        (num && (c == 'e' || c == 'E'))) {
        f->after_digit = true;
        if (digit && top_in_free(f)) {
            f->filled += c != '1';
            return '1';
        }
        return c;
    }
    if (is_letter(c))
        return word_byte(f, c);
    return fill_text(f, c);
}

/* A byte outside any string. */
static uint8_t out_byte(struct share_fill *f, uint8_t c)
{
    if (c == '\n' || c == '\r') {
        f->line_len = 0;
        f->word_len = 0;
        f->after_digit = false;
        if (outside(f)) {
            f->line_mode = LM_HEAD;
            f->line_error = false;
        }
        if (c == '\n' && ++f->line_ends >= 2)
            reset_levels(f);
        return c;
    }
    f->line_ends = 0;
    return outside(f) ? line_byte(f, c) : json_byte(f, c);
}
static bool is_hex(uint8_t c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
           (c >= 'A' && c <= 'F');
}
/* The filler for digit number hex_n of a \uXXXX escape, chosen from the
 * digits so far only, so that the whole escape decodes to the same number
 * of UTF-8 bytes as the original: 0000 stays 0000, 0001-007f becomes 0078
 * (or 0009 below 0010), 0080-07ff 00e9, a high surrogate d800, a low one
 * dc00, any other 4e00 (or d000 for d000-d7ff). */
static uint8_t fill_hex(const struct share_fill *f)
{
    const char *d = f->hex;
    bool low2 = d[1] >= '1' && d[1] <= '7'; /* 0100-07ff */
    bool low3 = d[2] >= '1' && d[2] <= '7'; /* 0010-007f */
    switch (f->hex_n) {
    case 0:
        return d[0] == '0' ? '0' : d[0] == 'd' ? 'd' : '4';
    case 1:
        if (d[0] == '0')
            return d[1] == '0' || low2 ? '0' : '8';
        if (d[0] == 'd')
            return d[1] <= '7' ? '0' : d[1] <= 'b' ? '8' : 'c';
        return 'e';
    case 2:
        if (d[0] == '0' && d[1] == '0')
            return d[2] == '0' ? '0' : low3 ? '7' : 'e';
        return d[0] == '0' && low2 ? 'e' : '0';
    default:
        if (d[0] == '0' && d[1] == '0')
            return d[2] == '0' ? (d[3] == '0' ? '0' : '9') : low3 ? '8' : '9';
        return d[0] == '0' && low2 ? '9' : '0';
    }
}

/* A byte inside a string; returns the byte to store. */
static uint8_t str_byte(struct share_fill *f, uint8_t c)
{
    if (c == '\n' || c == '\r') { /* no JSON string holds one raw */
        reset_levels(f);
        f->line_ends = c == '\n';
        f->line_len = 0;
        return c;
    }
    if (c == '"') {
        if (f->is_key) {
            f->have_key = f->key_len <= SHARE_FILL_KEY;
            f->expect_key = false;
        } else if (f->value_of_object && f->value_len == 5 &&
                   memcmp(f->value, "error", 5) == 0 && top_is_object(f)) {
            /* "object":"error": the object is the error itself (vLLM);
             * its members from here on are the server's words */
            f->in_error[f->depth - 1] = true;
        }
        f->value_of_object = false;
        f->state = ST_OUT;
        return c;
    }
    if (c == '\\') {
        f->state = ST_ESC;
        f->seq_pos = f->seq_len = 0;
        return c;
    }
    if (f->is_key) {
        if (f->key_len < SHARE_FILL_KEY)
            f->key[f->key_len] = (char)c;
        f->key_len++;
    } else if (f->value_of_object) {
        if (f->value_len < sizeof f->value)
            f->value[f->value_len] = (char)c;
        f->value_len += f->value_len <= sizeof f->value;
    }
    if (!f->fill)
        return c;
    f->filled++;
    return fill_utf8(f, c);
}

void share_fill_run(struct share_fill *f, uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        switch (f->state) {
        case ST_OUT:
            p[i] = out_byte(f, c);
            break;
        case ST_STR:
            p[i] = str_byte(f, c);
            break;
        case ST_ESC:
            f->state = ST_STR;
            f->value_of_object = false; /* an escape: not a plain "error" */
            if (f->is_key)
                f->key_len = SHARE_FILL_KEY + 1; /* escaped: never kept */
            if (c == 'u' && f->fill) {
                f->state = ST_HEX;
                f->hex_n = 0;
            }
            break;
        default: /* ST_HEX */
            if (!is_hex(c)) {
                f->state = ST_STR; /* not an escape after all */
                p[i] = str_byte(f, c);
                break;
            }
            f->hex[f->hex_n] = (char)(c | 0x20);
            p[i] = fill_hex(f);
            f->filled++;
            if (++f->hex_n == 4)
                f->state = ST_STR;
            break;
        }
    }
}
