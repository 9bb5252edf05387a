/* token_scan: spots the first token, in-stream errors and SSE framing in
 * raw body bytes.
 * Every pattern holds exactly one ':' (the end of a JSON key), so the scan
 * jumps from colon to colon with memchr and compares the key before it and
 * the value after it, instead of trying every pattern at every byte. */
#define _GNU_SOURCE /* memmem */
#include "token_scan.h"

#include <string.h>

/* A JSON key, quotes included, whose string value (non-empty, that is, the
 * byte after the opening quote is not '"') means a token. */
struct token_key {
    const char *s;
    size_t n;
    bool space_ok; /* also `"key": "` (one space) */
};

#define KEY(lit, sp)                                                           \
    {                                                                          \
        lit, sizeof(lit) - 1, sp                                               \
    }

/* "reasoning_content" is not matched by its "content" tail (that is
 * preceded by '_', not '"'), so it is listed on its own. */
static const struct token_key token_keys[] = {
    KEY("\"content\"", true),
    KEY("\"text\"", true),
    KEY("\"reasoning_content\"", false),
    KEY("\"reasoning\"", false),
};

#define ERROR_KEY "\"error\""
#define ERROR_KEY_LEN (sizeof(ERROR_KEY) - 1)

/* True when the bytes before the colon at c (window start p) are k. */
static bool key_before(const char *p, const char *c, const char *k, size_t n)
{
    return (size_t)(c - p) >= n && memcmp(c - n, k, n) == 0;
}

/* True when the colon at c ends a token key with a non-empty string value
 * inside the window [c, end). */
static bool token_at(const char *p, const char *c, const char *end)
{
    size_t k;

    for (k = 0; k < sizeof token_keys / sizeof token_keys[0]; k++) {
        const struct token_key *t = &token_keys[k];
        const char *v = c + 1;
        if (!key_before(p, c, t->s, t->n))
            continue;
        if (t->space_ok && v < end && *v == ' ')
            v++;
        /* `"` and one more byte, which must not close the string */
        if (end - v >= 2 && v[0] == '"' && v[1] != '"')
            return true;
    }
    return false;
}

/* True when the colon at c ends "error" and the value (after spaces) is an
 * object or a string, inside the window [c, end): "error": null is none. */
static bool error_at(const char *p, const char *c, const char *end)
{
    const char *v;

    /* most keys do not end in 'r': one comparison rejects them */
    if (c - p < (ptrdiff_t)ERROR_KEY_LEN || c[-2] != 'r' ||
        !key_before(p, c, ERROR_KEY, ERROR_KEY_LEN))
        return false;
    for (v = c + 1; v < end && *v == ' '; v++)
        ;
    return v < end && (*v == '{' || *v == '"');
}

void token_scan_init(struct token_scan *s)
{
    memset(s, 0, sizeof *s);
}

/* Longest key before its colon: "reasoning_content" with its quotes. */
#define KEY_MAX 19

/* Runs the searches still needed over one window of n bytes, for patterns
 * whose colon lies in its first colons bytes; true when it saw the first
 * token. */
static bool scan_window(struct token_scan *s, const char *p, size_t n,
                        size_t colons)
{
    const char *end = p + n, *c = p, *c_end = p + (colons < n ? colons : n);
    bool first = false;

    if (!s->token_seen && memmem(p, n, "text_delta", 10) != NULL) {
        s->token_seen = true;
        first = true;
    }
    while (!(s->token_seen && s->error_seen) &&
           (c = memchr(c, ':', (size_t)(c_end - c))) != NULL) {
        if (!s->token_seen && token_at(p, c, end)) {
            s->token_seen = true;
            first = true;
        }
        if (!s->error_seen && error_at(p, c, end))
            s->error_seen = true;
        c++;
    }
    return first;
}

#define SSE_FIELD "data:"
#define SSE_FIELD_LEN (sizeof(SSE_FIELD) - 1)

/* Looks for a line starting with "data:", jumping from newline to newline
 * (a "\r\n" line end is a '\n' too); the part of "data:" matched at the
 * end of one feed carries over to the next. */
static void scan_sse(struct token_scan *s, const char *p, size_t n)
{
    const char *end = p + n, *nl;
    while (!s->sse_seen && p < end) {
        if (s->sse_pos >= 0) {
            while (p < end && (size_t)s->sse_pos < SSE_FIELD_LEN &&
                   *p == SSE_FIELD[s->sse_pos]) {
                p++;
                s->sse_pos++;
            }
            if ((size_t)s->sse_pos == SSE_FIELD_LEN) {
                s->sse_seen = true;
                return;
            }
            if (p == end)
                return; /* a start of "data:": the next feed tells */
            s->sse_pos = -1;
        }
        nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            return;
        p = nl + 1;
        s->sse_pos = 0;
    }
}

bool token_scan_sse(const struct token_scan *s)
{
    return s->sse_seen;
}

bool token_scan_feed(struct token_scan *s, const char *p, size_t n)
{
    char seam[2 * TOKEN_SCAN_CARRY];
    size_t head, keep;
    bool first = false;
    scan_sse(s, p, n);
    if (s->token_seen && s->error_seen)
        return false;
    /* the seam: the carried tail of earlier bytes + the start of these */
    head = n < TOKEN_SCAN_CARRY ? n : TOKEN_SCAN_CARRY;
    memcpy(seam, s->carry, s->carry_len);
    memcpy(seam + s->carry_len, p, head);
    /* only colons whose key may begin in the carry; the rest are p's */
    if (s->carry_len)
        first =
            scan_window(s, seam, s->carry_len + head, s->carry_len + KEY_MAX);
    if (scan_window(s, p, n, n))
        first = true;
    /* keep the last TOKEN_SCAN_CARRY - 1 bytes of everything seen so far */
    keep = TOKEN_SCAN_CARRY - 1;
    if (n >= keep) {
        memcpy(s->carry, p + n - keep, keep);
        s->carry_len = keep;
    } else {
        size_t total = s->carry_len + n;
        size_t from = total > keep ? total - keep : 0;
        memmove(seam, seam + from, total - from);
        memcpy(s->carry, seam, total - from);
        s->carry_len = total - from;
    }
    return first;
}
