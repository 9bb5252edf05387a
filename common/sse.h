/* sse: an incremental text/event-stream parser (WHATWG HTML, "Server-sent
 * events", section 9.2.6). Bytes in, events out: no I/O, no allocation per
 * event once its buffers have grown.
 *
 * Ownership: the parser owns its buffers. The strings handed to callbacks
 * point into them, or into the bytes of the current feed (an event whose
 * only data line came in that feed is not copied), and are valid only
 * during the callback.
 *
 * Time: every feed call carries the caller's timestamp (t_ns); an event is
 * stamped with the timestamp of the feed that delivered the line end of its
 * terminating blank line. The parser never reads a clock.
 *
 * Deviations from WHATWG, on purpose: bytes are passed through as-is (no
 * U+FFFD replacement of invalid UTF-8: we measure what the server sent),
 * and memory is bounded by a cap (see sse_parser_init).
 */
#ifndef TT_SSE_H
#define TT_SSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/* Return codes of sse_parser_feed (0 is success). */
enum sse_err {
    SSE_OK = 0,
    SSE_E_OVERSIZED = 1, /* a line or an event went over the cap: dropped */
    SSE_E_NOMEM = 2,     /* an allocation failed: the event was dropped */
};

/* Returns a static description of an sse_err. */
const char *sse_strerror(int err);

/* One dispatched event. Strings are NOT NUL-terminated; use the lengths. */
struct sse_event {
    const char *type; /* "message" when the event had no event: line */
    size_t type_len;
    const char *data; /* data: lines joined with "\n"; may be empty */
    size_t data_len;
    const char *id; /* last event ID buffer (persists across events) */
    size_t id_len;
    int64_t t_ns; /* t_ns of the feed that completed the event */
};

/* Callbacks. Either may be NULL. They cannot stop the parser: a consumer
 * that hits an error records it in its own ctx. */
struct sse_handler {
    /* Called once per dispatched event. */
    void (*on_event)(void *ctx, const struct sse_event *ev);
    /* Called once per comment line (a line starting with ':'); text is what
     * follows the colon with one leading space removed. */
    void (*on_comment)(void *ctx, const char *text, size_t len, int64_t t_ns);
    void *ctx;
    /* Called once per line of a field WHATWG ignores (a name other than
     * data, event, id and retry), which then still changes nothing:
     * llama.cpp's server writes its in-stream errors as "error: {...}".
     * value is what follows the colon with one leading space removed. */
    void (*on_field)(void *ctx, const char *name, size_t name_len,
                     const char *value, size_t value_len, int64_t t_ns);
};

struct sse_parser {
    size_t max_event_bytes; /* cap on one line and on one event's fields */
    struct buf line;        /* the unfinished line carried between feeds */
    struct buf data;        /* data buffer; each data line ends with '\n' */
    /* The pending event's only data line, when it still lies in the bytes
     * of the current feed (no copy yet): the event reads as data_ref plus
     * "\n" while data is empty. Copied into data before a feed returns;
     * NULL between feeds. */
    const char *data_ref;
    size_t data_ref_len;
    struct buf type;      /* event type buffer */
    struct buf id;        /* last event ID buffer */
    int64_t retry_ms;     /* last valid retry: value, -1 if none */
    unsigned bom_matched; /* leading UTF-8 BOM bytes matched so far */
    bool bom_done;        /* past the point where a BOM may appear */
    bool skip_lf;         /* last byte was CR: a following LF is its pair */
    bool discarding;      /* inside an oversized line: skip to line end */
    bool poisoned;        /* current event lost bytes: drop at dispatch */
    /* Counters, for the caller's diagnostics. */
    uint64_t events;     /* events dispatched */
    uint64_t comments;   /* comment lines seen */
    uint64_t data_lines; /* data: lines seen (a body framed as SSE has one) */
    uint64_t oversized;  /* oversized lines/events reported */
    uint64_t dropped;    /* events dropped (oversized or out of memory) */
    uint64_t incomplete; /* unfinished events dropped at end of stream */
};

/* Default cap used by callers that have no reason to pick another. */
#define SSE_DEFAULT_MAX_EVENT_BYTES ((size_t)16 << 20)

/* Initializes an empty parser. max_event_bytes caps one line and the bytes
 * buffered for one event (data + type); 0 picks the default. A line or event
 * over the cap is reported once (SSE_E_OVERSIZED) and the whole event it
 * belongs to is dropped; the parser resynchronizes at the next line end.
 * Cannot fail (allocation happens on first use). */
void sse_parser_init(struct sse_parser *p, size_t max_event_bytes);

/* Parses len bytes received at t_ns, calling h for each complete event and
 * comment. Always consumes every byte. Returns SSE_OK, or the worst problem
 * met in this call (SSE_E_NOMEM, then SSE_E_OVERSIZED); the parser stays
 * usable after either. h may be NULL (just count). */
int sse_parser_feed(struct sse_parser *p, int64_t t_ns, const void *bytes,
                    size_t len, const struct sse_handler *h);

/* Ends the stream. An unfinished event (pending data or event lines, or an
 * unterminated non-comment line) is dropped as WHATWG says, counted in
 * p->incomplete, and 1 is returned; otherwise 0. The parser must be reset
 * before it parses another stream. */
int sse_parser_finish(struct sse_parser *p);

/* Returns the parser to its initial state (counters zeroed), keeping its
 * memory for the next stream. */
void sse_parser_reset(struct sse_parser *p);

/* Frees the buffers. NULL-safe; the parser may be re-initialized. */
void sse_parser_free(struct sse_parser *p);

#endif
