/* token_scan: a cheap live look at a stream's bytes, for the progress line
 * (first token), for the result (a stream without a token, a stream that
 * carried an error, and the error's own words) and for telling an SSE body
 * from a JSON one whatever its Content-Type says. The analyzer does the
 * real parsing; this must agree with it on ok / failed (a token event, an
 * in-stream error) on every stream the servers we know send, and must
 * never be slow. Patterns split across receives are found by keeping the
 * last few bytes of the previous receive. */
#ifndef TT_RECORD_TOKEN_SCAN_H
#define TT_RECORD_TOKEN_SCAN_H

#include <stdbool.h>
#include <stddef.h>

#define TOKEN_SCAN_CARRY 32
/* Bytes kept of an in-stream error, from its start to its line end. */
#define TOKEN_SCAN_ERROR_MAX 1024
/* Bytes of a line's start looked at for the SSE field patterns. */
#define TOKEN_SCAN_HEAD 14

struct token_scan {
    char carry[TOKEN_SCAN_CARRY];
    size_t carry_len;
    bool token_seen; /* a token-carrying pattern was seen */
    bool error_seen; /* an in-stream error (see token_scan_feed) */
    bool sse_seen;   /* SSE framing: a line that starts with "data:" */
    /* The start of the current line, while it may still be a pattern
     * (head_len -1: past it, mid-line). */
    char head[TOKEN_SCAN_HEAD];
    signed char head_len;
    /* The error's bytes, from its value to the end of its line (an "event:
     * error" line: the line after it). */
    char error_text[TOKEN_SCAN_ERROR_MAX];
    size_t error_len;
    signed char capture;  /* 0 none yet, 1 keeping, 2 done */
    bool capture_skip_nl; /* "event: error": the payload is the next line */
};

/* Starts an empty scan. */
void token_scan_init(struct token_scan *s);

/* Feeds received bytes. Returns true on the call that first sees a token:
 * a non-empty string value of "content", "text", "reasoning_content",
 * "reasoning", "thinking", "partial_json", "arguments" or "delta" (the
 * Responses API's *.delta events; an object "delta" is not one) ("content" and
 * "text" also after one space), or text_delta. Notes an in-stream error in
 * every form servers use: an "error": key whose value is an object or a
 * string (OpenAI, vLLM, gateways, Anthropic's error event), an "object":
 * "error" member (vLLM's bare ErrorResponse), a line that
 * starts with "error:" (llama.cpp's server) or an "event: error" line. */
bool token_scan_feed(struct token_scan *s, const char *p, size_t n);

/* True when a line of the bytes fed so far (split anywhere across feeds)
 * starts with "data:": the body is an event stream. A JSON reply never
 * has one (its keys are quoted). */
bool token_scan_sse(const struct token_scan *s);

/* The server's message of the error seen (error_json.h's reading of its
 * bytes), on one line, into msg (at least 1 byte); "" when none was seen.
 * Not yet masked: the caller masks the key before showing it. */
void token_scan_error_message(const struct token_scan *s, char *msg,
                              size_t len);

#endif
