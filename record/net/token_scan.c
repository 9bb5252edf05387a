/* token_scan: spots the first token, in-stream errors and SSE framing in
 * raw body bytes.
 * Every JSON pattern holds exactly one ':' (the end of a JSON key), so the
 * scan jumps from colon to colon with memchr and compares the key before
 * it and the value after it, instead of trying every pattern at every
 * byte. The SSE patterns ("data:", "error:", "event: error") are looked
 * for at line starts only, jumping from newline to newline. */
#define _GNU_SOURCE /* memmem */
#include "token_scan.h"

#include <string.h>

#include "error_json.h"

/* A JSON key, quotes included, whose string value (non-empty, that is, the
 * byte after the opening quote is not '"'; `"key":"` or `"key": "`) means
 * a token: every text field the analyzer counts (common/stream_events.c),
 * so that a stream the analyzer finds a token in is never one without a
 * token here. */
struct token_key {
    const char *s;
    size_t n;
};

#define KEY(lit)                                                               \
    {                                                                          \
        lit, sizeof(lit) - 1                                                   \
    }

/* "reasoning_content" is not matched by its "content" tail (that is
 * preceded by '_', not '"'), so it is listed on its own. */
static const struct token_key token_keys[] = {
    KEY("\"content\""),   KEY("\"text\""),     KEY("\"reasoning_content\""),
    KEY("\"reasoning\""), KEY("\"thinking\""), KEY("\"partial_json\""),
    KEY("\"arguments\""), KEY("\"delta\""), /* the Responses API's */
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
        if (v < end && *v == ' ')
            v++;
        /* `"` and one more byte, which must not close the string */
        if (end - v >= 2 && v[0] == '"' && v[1] != '"')
            return true;
    }
    return false;
}

#define OBJECT_KEY "\"object\""
#define OBJECT_KEY_LEN (sizeof(OBJECT_KEY) - 1)

/* What the colon at c ends, inside the window [c, end). */
enum error_form {
    ERROR_FORM_NONE,
    ERROR_FORM_KEY,    /* "error": with an object or a string value
                          ("error": null is none) */
    ERROR_FORM_OBJECT, /* "object": "error", vLLM's bare ErrorResponse */
};

static enum error_form error_at(const char *p, const char *c, const char *end)
{
    const char *v;

    /* most keys end in neither 'r' nor 't': one comparison rejects them */
    if (c - p < (ptrdiff_t)ERROR_KEY_LEN || (c[-2] != 'r' && c[-2] != 't'))
        return ERROR_FORM_NONE;
    for (v = c + 1; v < end && *v == ' '; v++)
        ;
    if (key_before(p, c, ERROR_KEY, ERROR_KEY_LEN))
        return v < end && (*v == '{' || *v == '"') ? ERROR_FORM_KEY
                                                   : ERROR_FORM_NONE;
    if (key_before(p, c, OBJECT_KEY, OBJECT_KEY_LEN) && end - v >= 7 &&
        memcmp(v, "\"error\"", 7) == 0)
        return ERROR_FORM_OBJECT;
    return ERROR_FORM_NONE;
}

void token_scan_init(struct token_scan *s)
{
    memset(s, 0, sizeof *s);
}

/* Keeps error bytes from [p, end): up to the end of the error's line (an
 * "event: error" line's payload is the next line), at most
 * TOKEN_SCAN_ERROR_MAX. */
static void capture(struct token_scan *s, const char *p, const char *end)
{
    while (s->capture_skip_nl && p < end && (*p == '\r' || *p == '\n'))
        p++;
    if (p < end)
        s->capture_skip_nl = false;
    while (s->capture == 1 && p < end) {
        const char *nl = p;
        size_t room = sizeof s->error_text - s->error_len, n;
        while (nl < end && *nl != '\n' && *nl != '\r')
            nl++;
        n = (size_t)(nl - p) < room ? (size_t)(nl - p) : room;
        memcpy(s->error_text + s->error_len, p, n);
        s->error_len += n;
        if ((nl < end && !s->capture_skip_nl) ||
            s->error_len == sizeof s->error_text)
            s->capture = 2;
        p = nl;
    }
}

/* An error is seen: its bytes start at p (this feed's, up to end); an
 * "object": "error" one is kept as the object it opens. */
static void error_start(struct token_scan *s, const char *p, const char *end,
                        bool next_line, enum error_form form)
{
    s->error_seen = true;
    s->capture = 1;
    s->capture_skip_nl = next_line;
    if (form == ERROR_FORM_OBJECT) {
        memcpy(s->error_text, "{" OBJECT_KEY ":", OBJECT_KEY_LEN + 2);
        s->error_len = OBJECT_KEY_LEN + 2;
    }
    capture(s, p, end);
}

/* Longest key before its colon: "reasoning_content" with its quotes. */
#define KEY_MAX 19

/* Runs the searches still needed over one window of n bytes, for patterns
 * whose colon lies in its first colons bytes; true when it saw the first
 * token. An error's colon: *error_colon is set to it and *form to its
 * form (the caller keeps the bytes after it). */
static bool scan_window(struct token_scan *s, const char *p, size_t n,
                        size_t colons, const char **error_colon,
                        enum error_form *form)
{
    const char *end = p + n, *c = p, *c_end = p + (colons < n ? colons : n);
    bool first = false;

    if (!s->token_seen && memmem(p, n, "text_delta", 10) != NULL) {
        s->token_seen = true;
        first = true;
    }
    while (!(s->token_seen && (s->error_seen || *error_colon)) &&
           (c = memchr(c, ':', (size_t)(c_end - c))) != NULL) {
        if (!s->token_seen && token_at(p, c, end)) {
            s->token_seen = true;
            first = true;
        }
        if (!s->error_seen && !*error_colon &&
            (*form = error_at(p, c, end)) != ERROR_FORM_NONE)
            *error_colon = c;
        c++;
    }
    return first;
}

/* What a line's start matches (TOKEN_SCAN_HEAD bytes at most, the line end
 * included when it is among them). */
enum head_match {
    HEAD_MORE,        /* a prefix of a pattern: need the next byte */
    HEAD_NONE,        /* no pattern */
    HEAD_DATA,        /* "data:" */
    HEAD_ERROR_FIELD, /* "error:" (llama.cpp) */
    HEAD_ERROR_EVENT, /* "event: error" or "event:error", then the line end */
};

#define HEAD_PATTERN(lit, m)                                                   \
    {                                                                          \
        lit, sizeof(lit) - 1, m                                                \
    }

/* with their lengths: match_head runs for every byte of a line's start */
static const struct {
    const char *s;
    size_t n;
    enum head_match m;
} head_patterns[] = {
    HEAD_PATTERN("data:", HEAD_DATA),
    HEAD_PATTERN("error:", HEAD_ERROR_FIELD),
    HEAD_PATTERN("event: error\n", HEAD_ERROR_EVENT),
    HEAD_PATTERN("event: error\r", HEAD_ERROR_EVENT),
    HEAD_PATTERN("event:error\n", HEAD_ERROR_EVENT),
    HEAD_PATTERN("event:error\r", HEAD_ERROR_EVENT),
};

static enum head_match match_head(const struct token_scan *s)
{
    size_t n = (size_t)s->head_len, i;
    bool more = false;
    for (i = 0; i < sizeof head_patterns / sizeof head_patterns[0]; i++) {
        const char *pat = head_patterns[i].s;
        size_t pl = head_patterns[i].n;
        if (head_patterns[i].m == HEAD_DATA && s->sse_seen)
            continue;
        if (head_patterns[i].m != HEAD_DATA && s->error_seen)
            continue;
        if (n >= pl && memcmp(s->head, pat, pl) == 0)
            return head_patterns[i].m;
        if (n < pl && memcmp(s->head, pat, n) == 0)
            more = true;
    }
    return more ? HEAD_MORE : HEAD_NONE;
}

/* Looks at every line's start for the SSE patterns, jumping from newline to
 * newline (a "\r\n" line end is a '\n' too); a line start split across
 * feeds carries over in s->head. */
static void scan_lines(struct token_scan *s, const char *p, size_t n)
{
    const char *end = p + n, *nl;
    while (!(s->sse_seen && s->error_seen) && p < end) {
        while (s->head_len >= 0 && p < end) {
            char c = *p++;
            enum head_match m;
            s->head[s->head_len++] = c;
            m = match_head(s);
            if (m == HEAD_DATA) {
                s->sse_seen = true;
            } else if (m == HEAD_ERROR_FIELD || m == HEAD_ERROR_EVENT) {
                error_start(s, p, end, m == HEAD_ERROR_EVENT, ERROR_FORM_KEY);
            } else if (m == HEAD_MORE && s->head_len < TOKEN_SCAN_HEAD) {
                continue;
            }
            /* decided: the rest of this line is not looked at */
            s->head_len = c == '\n' ? 0 : -1;
            if (s->sse_seen && s->error_seen)
                return;
        }
        if (p == end)
            return;
        nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            return;
        p = nl + 1;
        s->head_len = 0;
    }
}

bool token_scan_sse(const struct token_scan *s)
{
    return s->sse_seen;
}

bool token_scan_feed(struct token_scan *s, const char *p, size_t n)
{
    char seam[2 * TOKEN_SCAN_CARRY];
    const char *colon = NULL;
    enum error_form form = ERROR_FORM_NONE;
    size_t head, keep;
    bool first = false;
    if (s->capture == 1) /* an error that began in an earlier feed */
        capture(s, p, p + n);
    scan_lines(s, p, n);
    if (s->token_seen && s->error_seen)
        return false;
    /* the seam: the carried tail of earlier bytes + the start of these */
    head = n < TOKEN_SCAN_CARRY ? n : TOKEN_SCAN_CARRY;
    memcpy(seam, s->carry, s->carry_len);
    memcpy(seam + s->carry_len, p, head);
    /* only colons whose key may begin in the carry; the rest are p's */
    if (s->carry_len) {
        first = scan_window(s, seam, s->carry_len + head,
                            s->carry_len + KEY_MAX, &colon, &form);
        if (colon && !s->error_seen) {
            /* the value's bytes: the carried ones, then all of p */
            size_t v = (size_t)(colon + 1 - seam);
            if (v < s->carry_len) {
                error_start(s, seam + v, seam + s->carry_len, false, form);
                capture(s, p, p + n);
            } else {
                error_start(s, p + (v - s->carry_len), p + n, false, form);
            }
        }
    }
    colon = NULL;
    if (scan_window(s, p, n, n, &colon, &form))
        first = true;
    if (colon && !s->error_seen)
        error_start(s, colon + 1, p + n, false, form);
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

void token_scan_error_message(const struct token_scan *s, char *msg, size_t len)
{
    const char *p = s->error_text;
    size_t n = s->error_len;
    char type[64];
    msg[0] = '\0';
    if (!s->error_seen)
        return;
    /* an "event: error" payload is a data line */
    if (n >= 5 && memcmp(p, "data:", 5) == 0) {
        p += 5;
        n -= 5;
    }
    error_json_text(p, n, ERROR_JSON_BARE, type, sizeof type, msg, len);
    if (!msg[0])
        error_json_one_line(msg, len, type, strlen(type), len);
}
