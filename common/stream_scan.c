/* stream_scan: one event's JSON -> the facts stream_events uses, without a
 * tree; declines whatever it cannot prove cJSON reads the same way (see
 * stream_scan.h for the subset it decides on).
 *
 * cJSON semantics mirrored here: a member lookup returns the FIRST member
 * of that name (later duplicates are ignored); a lookup in anything but an
 * object finds nothing; a string is "text" when it is non-empty after
 * decoding; a count is taken when it is a number >= 0 and < 9e15. */
#include "stream_scan.h"

#include <string.h>

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

#define KEY_IS(k, n, lit) ((n) == sizeof(lit) - 1 && memcmp(k, lit, n) == 0)

void stream_piece_add(struct stream_piece_sum *sum, uint64_t bytes,
                      uint64_t chars, bool reasoning, bool tool)
{
    sum->bytes += bytes;
    sum->chars += chars;
    sum->pieces++;
    if (reasoning) {
        sum->reasoning_pieces++;
        sum->reasoning_bytes += bytes;
    }
    if (tool) {
        sum->tool = true;
        sum->tool_pieces++;
    }
}

/* Marks a member name as seen in one object; true the first time only. */
static bool first_time(unsigned *seen, unsigned bit)
{
    if (*seen & bit)
        return false;
    *seen |= bit;
    return true;
}

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

/* A member that matters when it is a string: *out gets it (present stays
 * false for any other type). */
static bool scan_str_member(struct scan *s, struct scan_str *out)
{
    if (peek(s) == '"')
        return scan_string(s, out);
    return scan_value(s);
}

/* An "object" member: a bare error ({"object":"error",...}, as vLLM sends
 * it) takes cJSON's path, as an escaped value may be one. */
static bool scan_object_kind(struct scan *s)
{
    struct scan_str t = {0};
    if (!scan_str_member(s, &t))
        return false;
    if (!t.present)
        return true;
    if (t.escaped)
        return false;
    return !(t.raw_len == 5 && memcmp(t.raw, "error", 5) == 0);
}

/* A text member: a non-empty string is one piece of the event's text. */
static bool scan_piece(struct scan *s, bool reasoning, bool tool)
{
    struct scan_str t = {0};
    if (!scan_str_member(s, &t))
        return false;
    if (t.present && t.bytes > 0)
        stream_piece_add(&s->facts->sum, t.bytes, str_chars(&t), reasoning,
                         tool);
    return true;
}

/* A usage count as stream_events' stream_count takes it: *dst is set for
 * a number >= 0 (and < 9e15), left alone for anything that is not a
 * number or is negative; other numbers (fractions, exponents, more than
 * 15 digits) decline. */
static bool scan_count(struct scan *s, int64_t *dst)
{
    struct scan_num n;
    unsigned char c = peek(s);
    if (c != '-' && !is_digit(c))
        return scan_value(s);
    if (!scan_number(s, &n) || !n.integer || n.digits > SCAN_MAX_COUNT_DIGITS)
        return false;
    if (!n.negative || n.magnitude == 0) /* -0 is 0 as a double, >= 0 */
        *dst = (int64_t)n.magnitude;
    return true;
}

/* Notes a finish_reason / stop_reason string (non-empty, unescaped). */
static bool note_finish(struct stream_scan_facts *f, const struct scan_str *r)
{
    if (!r->present || r->bytes == 0)
        return true;
    if (r->escaped)
        return false;
    f->finishes++;
    f->finish = r->raw;
    f->finish_len = r->raw_len;
    return true;
}

/* The object at s->p when it is one, each member to fn; else skipped. */
static bool scan_if_object(struct scan *s, scan_member_fn fn, void *ctx)
{
    if (peek(s) == '{')
        return scan_object(s, fn, ctx);
    return scan_value(s);
}

/* The array at s->p when it is one, each element to fn; else skipped. */
static bool scan_if_array(struct scan *s, scan_element_fn fn, void *ctx)
{
    if (peek(s) == '[')
        return scan_array(s, fn, ctx);
    return scan_value(s);
}

/* ---- OpenAI: choices[].delta / choices[].text, usage ------------------- */

/* One object's members seen so far, and where a count goes. */
struct scan_seen {
    unsigned seen;
    int64_t *a, *b;
};

static bool openai_function_member(struct scan *s, const char *k, size_t n,
                                   void *ctx)
{
    struct scan_seen *o = ctx;
    if (KEY_IS(k, n, "arguments") && first_time(&o->seen, 1))
        return scan_piece(s, false, true);
    return scan_value(s);
}

static bool openai_tool_call_member(struct scan *s, const char *k, size_t n,
                                    void *ctx)
{
    struct scan_seen *o = ctx, fn = {0, NULL, NULL};
    if (KEY_IS(k, n, "function") && first_time(&o->seen, 1))
        return scan_if_object(s, openai_function_member, &fn);
    return scan_value(s);
}

static bool openai_tool_call(struct scan *s, void *ctx)
{
    struct scan_seen o = {0, NULL, NULL};
    (void)ctx;
    return scan_if_object(s, openai_tool_call_member, &o);
}

struct openai_delta {
    unsigned seen;
    struct scan_str reasoning_content, reasoning;
};

static bool openai_delta_member(struct scan *s, const char *k, size_t n,
                                void *ctx)
{
    struct openai_delta *d = ctx;
    if (KEY_IS(k, n, "content") && first_time(&d->seen, 1))
        return scan_piece(s, false, false);
    if (KEY_IS(k, n, "reasoning_content") && first_time(&d->seen, 2))
        return scan_str_member(s, &d->reasoning_content);
    if (KEY_IS(k, n, "reasoning") && first_time(&d->seen, 4))
        return scan_str_member(s, &d->reasoning);
    if (KEY_IS(k, n, "tool_calls") && first_time(&d->seen, 8))
        return scan_if_array(s, openai_tool_call, NULL);
    return scan_value(s);
}

/* delta: content, reasoning_content or else reasoning, tool call args. */
static bool openai_delta(struct scan *s)
{
    struct openai_delta d;
    const struct scan_str *r;
    memset(&d, 0, sizeof(d));
    if (!scan_object(s, openai_delta_member, &d))
        return false;
    r = d.reasoning_content.present && d.reasoning_content.bytes > 0
            ? &d.reasoning_content
            : &d.reasoning;
    if (r->present && r->bytes > 0)
        stream_piece_add(&s->facts->sum, r->bytes, str_chars(r), true, false);
    return true;
}

struct openai_choice {
    unsigned seen;
    struct scan_str finish;
};

static bool openai_choice_member(struct scan *s, const char *k, size_t n,
                                 void *ctx)
{
    struct openai_choice *c = ctx;
    if (s->api == API_OPENAI_COMPLETIONS) {
        if (KEY_IS(k, n, "text") && first_time(&c->seen, 1))
            return scan_piece(s, false, false);
    } else if (KEY_IS(k, n, "delta") && first_time(&c->seen, 2)) {
        return peek(s) == '{' ? openai_delta(s) : scan_value(s);
    }
    if (KEY_IS(k, n, "finish_reason") && first_time(&c->seen, 4))
        return scan_str_member(s, &c->finish);
    return scan_value(s);
}

static bool openai_choice(struct scan *s, void *ctx)
{
    struct openai_choice c;
    (void)ctx;
    s->facts->choices++;
    if (peek(s) != '{')
        return scan_value(s);
    memset(&c, 0, sizeof(c));
    return scan_object(s, openai_choice_member, &c) &&
           note_finish(s->facts, &c.finish);
}

static bool openai_details_member(struct scan *s, const char *k, size_t n,
                                  void *ctx)
{
    struct scan_seen *o = ctx;
    if (KEY_IS(k, n, "reasoning_tokens") && first_time(&o->seen, 1))
        return scan_count(s, &s->facts->usage_reasoning);
    return scan_value(s);
}

static bool openai_prompt_details_member(struct scan *s, const char *k,
                                         size_t n, void *ctx)
{
    struct scan_seen *o = ctx;
    if (KEY_IS(k, n, "cached_tokens") && first_time(&o->seen, 1))
        return scan_count(s, &s->facts->usage_cached);
    return scan_value(s);
}

static bool openai_usage_member(struct scan *s, const char *k, size_t n,
                                void *ctx)
{
    struct scan_seen *o = ctx, det = {0, NULL, NULL};
    if (KEY_IS(k, n, "completion_tokens") && first_time(&o->seen, 1))
        return scan_count(s, &s->facts->usage_output);
    if (KEY_IS(k, n, "prompt_tokens") && first_time(&o->seen, 2))
        return scan_count(s, &s->facts->usage_input);
    if (KEY_IS(k, n, "completion_tokens_details") && first_time(&o->seen, 4))
        return scan_if_object(s, openai_details_member, &det);
    if (KEY_IS(k, n, "prompt_tokens_details") && first_time(&o->seen, 8))
        return scan_if_object(s, openai_prompt_details_member, &det);
    if (KEY_IS(k, n, "prompt_cache_hit_tokens") && first_time(&o->seen, 16))
        return scan_count(s, &s->facts->usage_cached);
    return scan_value(s);
}

static bool openai_root_member(struct scan *s, const char *k, size_t n,
                               void *ctx)
{
    struct scan_seen *o = ctx, usage = {0, NULL, NULL};
    if (KEY_IS(k, n, "error"))
        return false; /* errors take cJSON's path */
    if (KEY_IS(k, n, "object"))
        return scan_object_kind(s);
    if (KEY_IS(k, n, "choices") && first_time(&o->seen, 1))
        return scan_if_array(s, openai_choice, NULL);
    if (KEY_IS(k, n, "usage") && first_time(&o->seen, 2)) {
        s->facts->usage = peek(s) == '{';
        return scan_if_object(s, openai_usage_member, &usage);
    }
    if (KEY_IS(k, n, "timings"))
        return false; /* llama.cpp's server timings take cJSON's path */
    return scan_value(s);
}

/* ---- Anthropic: the event's "type" decides what counts ------------------ */

struct anthropic_delta {
    unsigned seen;
    struct scan_str type, text, thinking, partial_json, stop_reason;
};

struct anthropic_root {
    unsigned seen;
    struct scan_str type;
    struct anthropic_delta delta;
    int64_t message_input;             /* message.usage.input_tokens */
    int64_t usage_output, usage_input; /* usage.* */
    /* cache_read_input_tokens, cache_creation_input_tokens of
     * message.usage and of usage */
    int64_t message_cread, message_cwrite, usage_cread, usage_cwrite;
    unsigned message_seen; /* members of message already read */
    bool usage_obj;        /* usage was an object */
};

static bool anthropic_delta_member(struct scan *s, const char *k, size_t n,
                                   void *ctx)
{
    struct anthropic_delta *d = ctx;
    if (KEY_IS(k, n, "type") && first_time(&d->seen, 1))
        return scan_str_member(s, &d->type);
    if (KEY_IS(k, n, "text") && first_time(&d->seen, 2))
        return scan_str_member(s, &d->text);
    if (KEY_IS(k, n, "thinking") && first_time(&d->seen, 4))
        return scan_str_member(s, &d->thinking);
    if (KEY_IS(k, n, "partial_json") && first_time(&d->seen, 8))
        return scan_str_member(s, &d->partial_json);
    if (KEY_IS(k, n, "stop_reason") && first_time(&d->seen, 16))
        return scan_str_member(s, &d->stop_reason);
    return scan_value(s);
}

/* Where an Anthropic usage object's counts go (NULL: not read). */
struct anthropic_usage {
    unsigned seen;
    int64_t *output, *input, *cread, *cwrite;
};

static bool anthropic_usage_member(struct scan *s, const char *k, size_t n,
                                   void *ctx)
{
    struct anthropic_usage *o = ctx;
    if (o->output && KEY_IS(k, n, "output_tokens") && first_time(&o->seen, 1))
        return scan_count(s, o->output);
    if (KEY_IS(k, n, "input_tokens") && first_time(&o->seen, 2))
        return scan_count(s, o->input);
    if (KEY_IS(k, n, "cache_read_input_tokens") && first_time(&o->seen, 4))
        return scan_count(s, o->cread);
    if (KEY_IS(k, n, "cache_creation_input_tokens") && first_time(&o->seen, 8))
        return scan_count(s, o->cwrite);
    return scan_value(s);
}

static bool anthropic_message_member(struct scan *s, const char *k, size_t n,
                                     void *ctx)
{
    struct anthropic_root *r = ctx;
    struct anthropic_usage usage = {0, NULL, &r->message_input,
                                    &r->message_cread, &r->message_cwrite};
    if (KEY_IS(k, n, "usage") && first_time(&r->message_seen, 1))
        return scan_if_object(s, anthropic_usage_member, &usage);
    return scan_value(s);
}

static bool anthropic_root_member(struct scan *s, const char *k, size_t n,
                                  void *ctx)
{
    struct anthropic_root *r = ctx;
    struct anthropic_usage usage = {0, &r->usage_output, &r->usage_input,
                                    &r->usage_cread, &r->usage_cwrite};
    if (KEY_IS(k, n, "error"))
        return false; /* errors take cJSON's path */
    if (KEY_IS(k, n, "object"))
        return scan_object_kind(s);
    if (KEY_IS(k, n, "type") && first_time(&r->seen, 1))
        return scan_str_member(s, &r->type);
    if (KEY_IS(k, n, "delta") && first_time(&r->seen, 2))
        return scan_if_object(s, anthropic_delta_member, &r->delta);
    if (KEY_IS(k, n, "message") && first_time(&r->seen, 4))
        return scan_if_object(s, anthropic_message_member, r);
    if (KEY_IS(k, n, "usage") && first_time(&r->seen, 8)) {
        r->usage_obj = peek(s) == '{';
        return scan_if_object(s, anthropic_usage_member, &usage);
    }
    return scan_value(s);
}

/* True when a scanned string is present, unescaped and equal to lit. */
static bool str_is(const struct scan_str *v, const char *lit)
{
    size_t n = strlen(lit);
    return v->present && v->raw_len == n && memcmp(v->raw, lit, n) == 0;
}

/* A delta's text piece when its type names it and the text is not empty. */
static void anthropic_piece(struct stream_scan_facts *f,
                            const struct anthropic_delta *d)
{
    const struct scan_str *t = NULL;
    bool reasoning = false, tool = false;
    if (str_is(&d->type, "text_delta")) {
        t = &d->text;
    } else if (str_is(&d->type, "thinking_delta")) {
        t = &d->thinking;
        reasoning = true;
    } else if (str_is(&d->type, "input_json_delta")) {
        t = &d->partial_json;
        tool = true;
    }
    if (t && t->present && t->bytes > 0)
        stream_piece_add(&f->sum, t->bytes, str_chars(t), reasoning, tool);
}

/* Turns the scanned members into facts by the event's type. */
static bool anthropic_facts(struct stream_scan_facts *f,
                            const struct anthropic_root *r)
{
    const struct scan_str *t = &r->type;
    if (t->escaped ||
        (str_is(t, "content_block_delta") && r->delta.type.escaped))
        return false; /* names compared after decoding: cJSON's */
    if (str_is(t, "content_block_delta")) {
        anthropic_piece(f, &r->delta);
    } else if (str_is(t, "message_start")) {
        f->usage_input = r->message_input;
        f->usage_cached = r->message_cread;
        f->usage_cache_write = r->message_cwrite;
    } else if (str_is(t, "message_delta")) {
        f->usage_output = r->usage_output;
        f->usage_input = r->usage_input;
        f->usage_cached = r->usage_cread;
        f->usage_cache_write = r->usage_cwrite;
        f->usage = r->usage_obj;
        return note_finish(f, &r->delta.stop_reason);
    } else if (str_is(t, "message_stop")) {
        f->done = true;
    } else if (str_is(t, "ping")) {
        f->ping = true;
    }
    return true;
}

/* ---- Responses API: "type" and "delta" at the top --------------------- */

struct responses_root {
    unsigned seen;
    struct scan_str type, delta;
};

static bool responses_root_member(struct scan *s, const char *k, size_t n,
                                  void *ctx)
{
    struct responses_root *r = ctx;
    if (KEY_IS(k, n, "error"))
        return false; /* errors take cJSON's path */
    if (KEY_IS(k, n, "object"))
        return scan_object_kind(s);
    if (KEY_IS(k, n, "type") && first_time(&r->seen, 1))
        return scan_str_member(s, &r->type);
    if (KEY_IS(k, n, "delta") && first_time(&r->seen, 2))
        return scan_str_member(s, &r->delta);
    return scan_value(s);
}

/* Decides the text-carrying and quiet events; the error, failed and
 * terminal events (usage inside "response") take cJSON's path. */
static bool responses_facts(struct stream_scan_facts *f,
                            const struct responses_root *r)
{
    static const struct {
        const char *type;
        bool reasoning, tool;
    } pieces[] = {
        {"response.output_text.delta", false, false},
        {"response.refusal.delta", false, false},
        {"response.reasoning_text.delta", true, false},
        {"response.reasoning_summary_text.delta", true, false},
        {"response.function_call_arguments.delta", false, true},
    };
    const struct scan_str *t = &r->type, *d = &r->delta;
    if (t->escaped || str_is(t, "error") || str_is(t, "response.failed") ||
        str_is(t, "response.completed") || str_is(t, "response.incomplete"))
        return false;
    for (size_t i = 0; i < sizeof pieces / sizeof *pieces; i++)
        if (str_is(t, pieces[i].type)) {
            if (d->present && d->bytes > 0)
                stream_piece_add(&f->sum, d->bytes, str_chars(d),
                                 pieces[i].reasoning, pieces[i].tool);
            break;
        }
    return true;
}

bool stream_scan_event(enum api_kind api, const char *data, size_t len,
                       struct stream_scan_facts *out)
{
    struct scan s;
    bool ok;
    memset(out, 0, sizeof(*out));
    out->usage_output = out->usage_input = out->usage_reasoning = -1;
    out->usage_cached = out->usage_cache_write = -1;
    s.p = (const unsigned char *)data;
    s.end = s.p + len;
    s.depth = 0;
    s.api = api;
    s.facts = out;
    skip_ws(&s);
    if (peek(&s) != '{')
        return false;
    if (api == API_ANTHROPIC) {
        struct anthropic_root r;
        memset(&r, 0, sizeof(r));
        r.message_input = r.usage_output = r.usage_input = -1;
        r.message_cread = r.message_cwrite = r.usage_cread = r.usage_cwrite =
            -1;
        ok = scan_object(&s, anthropic_root_member, &r) &&
             anthropic_facts(out, &r);
    } else if (api == API_OPENAI_RESPONSES) {
        struct responses_root r;
        memset(&r, 0, sizeof(r));
        ok = scan_object(&s, responses_root_member, &r) &&
             responses_facts(out, &r);
    } else {
        struct scan_seen root = {0, NULL, NULL};
        ok = scan_object(&s, openai_root_member, &root);
    }
    skip_ws(&s);
    return ok && s.p == s.end;
}
