/* share_fill: same-length, same-shape filler for the text in JSON strings
 * (share_fill.h says what is kept and what each byte becomes). */
#include "share_fill.h"

#include <string.h>

enum { ST_OUT, ST_STR, ST_ESC, ST_HEX };

void share_fill_init(struct share_fill *f, const char *const *keep)
{
    memset(f, 0, sizeof(*f));
    f->keep = keep;
}

/* Forgets every open level: the bytes were not JSON after all (a raw line
 * end in a string, a blank line between SSE events). */
static void reset_levels(struct share_fill *f)
{
    f->depth = f->deeper = 0;
    f->state = ST_OUT;
    f->expect_key = f->have_key = false;
}

static bool kept_key(const struct share_fill *f)
{
    if (!f->have_key || !f->keep)
        return false;
    for (const char *const *k = f->keep; *k; k++)
        if (strlen(*k) == f->key_len && memcmp(*k, f->key, f->key_len) == 0)
            return true;
    return false;
}

static bool key_is(const struct share_fill *f, const char *name)
{
    size_t n = strlen(name);
    return f->have_key && f->key_len == n && memcmp(f->key, name, n) == 0;
}

static bool key_is_error(const struct share_fill *f)
{
    return key_is(f, "error");
}

/* The line being read is an SSE "error:" field (llama.cpp's errors). */
static bool error_field_line(const struct share_fill *f)
{
    return f->line_len == sizeof f->line_head &&
           memcmp(f->line_head, "error:", sizeof f->line_head) == 0;
}

static bool top_is_object(const struct share_fill *f)
{
    return f->depth > 0 && !f->deeper && f->open[f->depth - 1] == '{';
}

static bool top_in_error(const struct share_fill *f)
{
    return f->depth > 0 && f->in_error[f->depth - 1];
}

static void push(struct share_fill *f, uint8_t c)
{
    bool err = top_in_error(f) || (top_is_object(f) && key_is_error(f)) ||
               (f->depth == 0 && !f->deeper && error_field_line(f));
    if (f->depth == SHARE_FILL_DEPTH) {
        f->deeper++;
    } else {
        f->open[f->depth] = c;
        f->in_error[f->depth] = err;
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
}

/* A byte outside any string. */
static void out_byte(struct share_fill *f, uint8_t c)
{
    if (c == '\n' || c == '\r')
        f->line_len = 0;
    if (c == '\n') {
        if (++f->line_ends >= 2)
            reset_levels(f);
        return;
    }
    if (c != '\r')
        f->line_ends = 0;
    if (f->depth == 0 && !f->deeper && f->line_len < sizeof f->line_head &&
        c != '\r')
        f->line_head[f->line_len++] = (char)c;
    switch (c) {
    case '{':
    case '[':
        push(f, c);
        break;
    case '}':
    case ']':
        pop(f);
        break;
    case ',':
        f->expect_key = top_is_object(f);
        f->have_key = false;
        break;
    case '"':
        if (f->depth == 0 && !f->deeper)
            break; /* not inside JSON: leave it */
        f->is_key = top_is_object(f) && f->expect_key;
        if (f->is_key) {
            f->key_len = 0;
            f->fill = false;
        } else {
            f->fill = !top_in_error(f) &&
                      !(top_is_object(f) && (kept_key(f) || key_is_error(f)));
            f->value_of_object = top_is_object(f) && key_is(f, "object");
            f->value_len = 0;
            f->have_key = false;
        }
        f->seq_pos = f->seq_len = 0;
        f->state = ST_STR;
        break;
    default:
        break;
    }
}

/* The filler byte for one UTF-8 byte c of a filled string. */
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
        return c;
    }
    if (f->value_of_object) {
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
            out_byte(f, c);
            break;
        case ST_STR:
            p[i] = str_byte(f, c);
            break;
        case ST_ESC:
            f->state = ST_STR;
            f->value_of_object = false; /* an escape: not a plain "error" */
            if (f->is_key) {
                f->key_len = SHARE_FILL_KEY + 1; /* escaped: never kept */
            } else if (c == 'u' && f->fill) {
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
