/* body_scrub: masks secrets (the run's API key) in a response body as it
 * is received, byte for byte: every occurrence is overwritten with '*' of
 * the same length, so chunk sizes, offsets and timestamps stay exact. A key
 * split across receives is masked in both: a chunk that ends in what may
 * be the start of a secret is held back until the next receive (or the
 * end) decides, then handed on with its own arrival time. Chunks that
 * cannot start a secret pass through at once, uncopied. Pure: bytes in,
 * chunks out through a callback; no libcurl, no I/O. */
#ifndef TT_RECORD_BODY_SCRUB_H
#define TT_RECORD_BODY_SCRUB_H

#include <stddef.h>
#include <stdint.h>

#define BODY_SCRUB_FILL '*'
/* A proxied request may carry a dozen credentials (headers, cookies, its
 * URL's), each also in its JSON-escaped form. */
#define BODY_SCRUB_MAX_SECRETS 48
/* Secrets shorter than this are not masked: they would match ordinary
 * text (a key of "test"); real keys are 20 bytes and more. */
#define BODY_SCRUB_MIN_SECRET 8
/* Secrets longer than this are not masked (no real key is). */
#define BODY_SCRUB_MAX_SECRET 4096
/* A stream that ends inside a secret (cut mid-key) has that start masked
 * too when it is at least this long. */
#define BODY_SCRUB_MIN_PARTIAL 8

/* Receives one chunk, as it should be stored: its arrival time and its
 * bytes (borrowed for the call). Returns 0, or an error code that
 * body_scrub_feed / body_scrub_finish pass back. */
typedef int (*body_scrub_emit_fn)(void *ud, int64_t t_ns, const char *p,
                                  size_t n);

struct body_scrub_secret {
    char *text; /* owned copy, wiped when freed */
    size_t len;
    size_t *fail; /* KMP failure function, len entries */
    size_t state; /* bytes of text matched at the end of the stream */
};

struct body_scrub_held {
    int64_t t_ns;
    size_t off, len; /* in buf */
};

struct body_scrub {
    struct body_scrub_secret secret[BODY_SCRUB_MAX_SECRETS];
    size_t n_secrets;
    char *buf; /* bytes of the held chunks, back to back */
    size_t len, cap;
    struct body_scrub_held *held;
    size_t n_held, cap_held;
    uint64_t masked; /* occurrences masked so far */
    /* secrets given to body_scrub_add that are not masked: past
     * BODY_SCRUB_MAX_SECRETS, or longer than BODY_SCRUB_MAX_SECRET (the
     * caller says so: nothing else does) */
    uint64_t dropped;
};

enum body_scrub_err {
    BODY_SCRUB_OK = 0,
    BODY_SCRUB_E_NOMEM = -1,
};

/* Starts with no secret: every chunk passes through unchanged. */
void body_scrub_init(struct body_scrub *b);

/* Adds a secret (copied) to mask. A secret shorter than
 * BODY_SCRUB_MIN_SECRET or a duplicate is ignored; one longer than
 * BODY_SCRUB_MAX_SECRET or past BODY_SCRUB_MAX_SECRETS is not masked and
 * counted in b->dropped (returns 0 for all of them). Call before the first
 * feed. Returns 0 or BODY_SCRUB_E_NOMEM. */
int body_scrub_add(struct body_scrub *b, const char *secret, size_t len);

/* body_scrub_add of secret and, when it differs, of its JSON-escaped form
 * ("a/b" is also sent as "a\/b"). Returns 0 or BODY_SCRUB_E_NOMEM. */
int body_scrub_add_json(struct body_scrub *b, const char *secret, size_t len);

/* Overwrites every occurrence of b's secrets in the n bytes at s with
 * BODY_SCRUB_FILL (a whole string: error messages, a stored request
 * body). The matchers' stream state is left alone. */
void body_scrub_mask(const struct body_scrub *b, char *s, size_t n);

/* Feeds the n bytes received at t_ns. Calls emit, in order, for every chunk
 * now known to be final (this one, earlier held ones, or none). Returns 0,
 * BODY_SCRUB_E_NOMEM, or the first non-zero emit return (then stops). */
int body_scrub_feed(struct body_scrub *b, int64_t t_ns, const char *p, size_t n,
                    body_scrub_emit_fn emit, void *ud);

/* The body ended: masks a trailing start of a secret (see
 * BODY_SCRUB_MIN_PARTIAL) and emits every held chunk. Idempotent. Returns
 * 0 or the first non-zero emit return. */
int body_scrub_finish(struct body_scrub *b, body_scrub_emit_fn emit, void *ud);

/* Wipes and frees everything, held chunks included (not emitted).
 * NULL-safe; the struct is as after body_scrub_init afterwards. */
void body_scrub_free(struct body_scrub *b);

#endif
