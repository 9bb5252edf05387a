/* token_scan: a cheap live look at a stream's bytes, for the progress line
 * (first token), for marking streams that carry an error object and for
 * telling an SSE body from a JSON one whatever its Content-Type says. The
 * analyzer does the real parsing; this only needs to be right on ordinary
 * streams and must never be slow. Patterns split across receives are found
 * by keeping the last few bytes of the previous receive. */
#ifndef TT_RECORD_TOKEN_SCAN_H
#define TT_RECORD_TOKEN_SCAN_H

#include <stdbool.h>
#include <stddef.h>

#define TOKEN_SCAN_CARRY 32

struct token_scan {
    char carry[TOKEN_SCAN_CARRY];
    size_t carry_len;
    bool token_seen;     /* a token-carrying pattern was seen */
    bool error_seen;     /* an "error": key with an object or string value */
    bool sse_seen;       /* SSE framing: a line that starts with "data:" */
    signed char sse_pos; /* bytes of "data:" matched at the current line's
                            start (0: at a line start), -1: mid-line */
};

/* Starts an empty scan. */
void token_scan_init(struct token_scan *s);

/* Feeds received bytes. Returns true on the call that first sees a token:
 * "content":"x (non-empty), "text":"x, "reasoning_content":"x,
 * "reasoning":"x or text_delta. */
bool token_scan_feed(struct token_scan *s, const char *p, size_t n);

/* True when a line of the bytes fed so far (split anywhere across feeds)
 * starts with "data:": the body is an event stream. A JSON reply never
 * has one (its keys are quoted). */
bool token_scan_sse(const struct token_scan *s);

#endif
