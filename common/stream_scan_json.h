/* stream_scan_json: the JSON grammar stream_scan reads events with (cursor,
 * strings, numbers, objects, arrays). Private to common/stream_scan.c, its
 * only includer: the functions are static there, as they were when both
 * were one file, so the per-event scan compiles to the same code. */
#ifndef TT_STREAM_SCAN_JSON_H
#define TT_STREAM_SCAN_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "stream_scan.h"

#define SCAN_MAX_DEPTH 64
#define SCAN_MAX_NUMBER 40       /* cJSON 1.7.15 reads at most 63 */
#define SCAN_MAX_COUNT_DIGITS 15 /* exact as a double, below 9e15 */

struct scan {
    const unsigned char *p, *end;
    int depth;
    enum api_kind api;
    struct stream_scan_facts *facts;
};

/* A string value as cJSON would store it. */
struct scan_str {
    bool present;    /* the member existed and held a string */
    bool escaped;    /* it contained a backslash escape */
    const char *raw; /* the bytes between the quotes */
    size_t raw_len;
    uint64_t bytes;      /* decoded UTF-8 bytes */
    uint64_t chars_less; /* ASCII bytes that escapes take beyond 1 each */
};

/* Bytes that may stand for themselves inside a JSON string: not '"', not
 * '\\', not a control byte (below 0x20). */
static const unsigned char str_plain[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x00 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x10 */
    1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x20: '"' */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x30 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x40 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, /* 0x50: '\\' */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x60 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x70 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x80 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x90 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0xa0 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0xb0 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0xc0 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0xd0 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0xe0 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0xf0 */
};

/* The decoded string's bytes that are not UTF-8 continuation bytes (what
 * stream_events counts as characters). */
static uint64_t str_chars(const struct scan_str *v)
{
    uint64_t chars = 0;
    for (size_t i = 0; i < v->raw_len; i++)
        chars += ((unsigned char)v->raw[i] & 0xC0) != 0x80;
    return chars - v->chars_less;
}

/* A member handler consumes exactly one value at s->p. */
typedef bool (*scan_member_fn)(struct scan *s, const char *key, size_t klen,
                               void *ctx);
/* An element handler consumes exactly one value at s->p. */
typedef bool (*scan_element_fn)(struct scan *s, void *ctx);

/* The byte at the cursor, or 0 at the end. */
static unsigned char peek(const struct scan *s)
{
    return s->p < s->end ? *s->p : 0;
}

/* Skips JSON white space: space, tab, CR, LF (cJSON also skips the other
 * control bytes; the scan declines on them instead). */
static inline void skip_ws(struct scan *s)
{
    while (s->p < s->end && *s->p <= ' ' &&
           (*s->p == ' ' || *s->p == '\n' || *s->p == '\r' || *s->p == '\t'))
        s->p++;
}

/* Four hex digits at p into *out; false if any is not a hex digit. */
static bool hex4(const unsigned char *p, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned c = p[i], d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            return false;
        v = v << 4 | d;
    }
    *out = v;
    return true;
}

/* The \u escape at p (p[0..1] is "\u"): returns the input bytes it takes
 * (6, or 12 for a surrogate pair) with the UTF-8 bytes it decodes to in
 * *utf8_len; 0 to decline (bad hex, a lone surrogate, U+0000). */
static size_t scan_u_escape(const unsigned char *p, const unsigned char *end,
                            unsigned *utf8_len)
{
    unsigned hi, lo;
    if (end - p < 6 || !hex4(p + 2, &hi) || hi == 0)
        return 0;
    if (hi >= 0xDC00 && hi <= 0xDFFF)
        return 0;
    if (hi >= 0xD800 && hi <= 0xDBFF) {
        if (end - p < 12 || p[6] != '\\' || p[7] != 'u' || !hex4(p + 8, &lo) ||
            lo < 0xDC00 || lo > 0xDFFF)
            return 0;
        *utf8_len = 4;
        return 12;
    }
    *utf8_len = hi < 0x80 ? 1 : hi < 0x800 ? 2 : 3;
    return 6;
}

/* Scans the string at s->p (a '"'), filling *out when out is not NULL. */
static bool scan_string(struct scan *s, struct scan_str *out)
{
    const unsigned char *p = s->p + 1, *start = p, *end = s->end;
    uint64_t bytes_less = 0, chars_less = 0; /* escapes: input vs decoded */
    for (;;) {
        size_t k;
        unsigned n;
        while (p < end && str_plain[*p])
            p++;
        if (p >= end || *p < 0x20)
            return false; /* cJSON keeps raw control bytes; a NUL cuts */
        if (*p == '"')
            break;
        if (end - p < 2)
            return false;
        switch (p[1]) {
        case '"':
        case '\\':
        case '/':
        case 'b':
        case 'f':
        case 'n':
        case 'r':
        case 't':
            k = 2;
            n = 1;
            break;
        case 'u':
            k = scan_u_escape(p, end, &n);
            if (k == 0)
                return false;
            break;
        default:
            return false;
        }
        bytes_less += k - n;
        chars_less += k - 1; /* an escape is ASCII: k chars for 1 */
        p += k;
    }
    if (out) {
        out->present = true;
        out->escaped = chars_less > 0; /* every escape takes >= 2 bytes */
        out->raw = (const char *)start;
        out->raw_len = (size_t)(p - start);
        out->bytes = (uint64_t)(p - start) - bytes_less;
        out->chars_less = chars_less;
    }
    s->p = p + 1;
    return true;
}

static bool is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

/* An RFC 8259 number, as far as the integers usage counts need. */
struct scan_num {
    bool integer; /* no fraction, no exponent */
    bool negative;
    unsigned digits;    /* of the integer part */
    uint64_t magnitude; /* of the integer part, when digits <= 19 */
};

/* Scans the RFC 8259 number at s->p. Any byte cJSON would read as part of
 * a number ([0-9+-.eE]) that follows it makes the enclosing structure
 * invalid here, so cJSON's token is exactly this one. */
static bool scan_number(struct scan *s, struct scan_num *out)
{
    const unsigned char *p = s->p, *start = p, *end = s->end;
    memset(out, 0, sizeof(*out));
    out->integer = true;
    if (p < end && *p == '-') {
        out->negative = true;
        p++;
    }
    if (p >= end || !is_digit(*p))
        return false;
    if (*p == '0') {
        p++;
        out->digits = 1;
    } else {
        for (; p < end && is_digit(*p); p++, out->digits++)
            if (out->digits < 19)
                out->magnitude = out->magnitude * 10 + (uint64_t)(*p - '0');
    }
    if (p < end && *p == '.') {
        out->integer = false;
        if (++p >= end || !is_digit(*p))
            return false;
        while (p < end && is_digit(*p))
            p++;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        out->integer = false;
        if (++p < end && (*p == '+' || *p == '-'))
            p++;
        if (p >= end || !is_digit(*p))
            return false;
        while (p < end && is_digit(*p))
            p++;
    }
    if (p - start > SCAN_MAX_NUMBER)
        return false;
    s->p = p;
    return true;
}

static bool scan_literal(struct scan *s, const char *lit, size_t n)
{
    if ((size_t)(s->end - s->p) < n || memcmp(s->p, lit, n) != 0)
        return false;
    s->p += n;
    return true;
}

static bool scan_value(struct scan *s);

static bool skip_member(struct scan *s, const char *key, size_t klen, void *ctx)
{
    (void)key;
    (void)klen;
    (void)ctx;
    return scan_value(s);
}

static bool skip_element(struct scan *s, void *ctx)
{
    (void)ctx;
    return scan_value(s);
}

/* Scans the object at s->p (a '{'), handing each member's value to fn. */
static bool scan_object(struct scan *s, scan_member_fn fn, void *ctx)
{
    if (++s->depth > SCAN_MAX_DEPTH)
        return false;
    s->p++;
    skip_ws(s);
    if (peek(s) == '}') {
        s->p++;
        s->depth--;
        return true;
    }
    for (;;) {
        struct scan_str key;
        if (peek(s) != '"' || !scan_string(s, &key) || key.escaped)
            return false;
        skip_ws(s);
        if (peek(s) != ':')
            return false;
        s->p++;
        skip_ws(s);
        if (!fn(s, key.raw, key.raw_len, ctx))
            return false;
        skip_ws(s);
        if (peek(s) == ',') {
            s->p++;
            skip_ws(s);
            continue;
        }
        if (peek(s) != '}')
            return false;
        s->p++;
        s->depth--;
        return true;
    }
}

/* Scans the array at s->p (a '['), handing each element to fn. */
static bool scan_array(struct scan *s, scan_element_fn fn, void *ctx)
{
    if (++s->depth > SCAN_MAX_DEPTH)
        return false;
    s->p++;
    skip_ws(s);
    if (peek(s) == ']') {
        s->p++;
        s->depth--;
        return true;
    }
    for (;;) {
        if (!fn(s, ctx))
            return false;
        skip_ws(s);
        if (peek(s) == ',') {
            s->p++;
            skip_ws(s);
            continue;
        }
        if (peek(s) != ']')
            return false;
        s->p++;
        s->depth--;
        return true;
    }
}

/* Any JSON value, only checked. */
static bool scan_value(struct scan *s)
{
    struct scan_num num;
    switch (peek(s)) {
    case '{':
        return scan_object(s, skip_member, NULL);
    case '[':
        return scan_array(s, skip_element, NULL);
    case '"':
        return scan_string(s, NULL);
    case 't':
        return scan_literal(s, "true", 4);
    case 'f':
        return scan_literal(s, "false", 5);
    case 'n':
        return scan_literal(s, "null", 4);
    default:
        return scan_number(s, &num);
    }
}

#endif
