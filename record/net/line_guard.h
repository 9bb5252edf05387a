/* line_guard: notices, as the bytes arrive and without keeping them, a
 * response body whose SSE line or event grows past the cap of the
 * analyzer's parser (common/sse.h), so the recorder can stop a stream that
 * no reader could use (a server sending one line forever) instead of
 * recording it until --timeout.
 *
 * It trips exactly when sse_parser_feed, fed the same bytes with the same
 * cap, first reports SSE_E_OVERSIZED: a line (comments included, line end
 * and a leading BOM excluded) longer than the cap, or a data:/event: line
 * that takes the event's data + type bytes past it. So a request the
 * recorder stops as "oversized_event" is one the analyzer also finds
 * oversized in the recorded bytes. Cost: a memchr per line end and a few
 * compares per line; no allocation. */
#ifndef TT_RECORD_LINE_GUARD_H
#define TT_RECORD_LINE_GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LINE_GUARD_HEAD 7 /* "event: " is the longest prefix looked at */

struct line_guard {
    size_t cap;                 /* 0 until the first feed picks the default */
    uint64_t line;              /* bytes of the current line so far */
    uint64_t data;              /* data bytes the parser holds for the event */
    uint64_t type;              /* event type bytes the parser holds */
    char head[LINE_GUARD_HEAD]; /* first bytes of the current line */
    unsigned head_len;
    unsigned bom_matched; /* leading UTF-8 BOM bytes matched so far */
    bool bom_done;
    bool skip_lf; /* the last byte was CR: a following LF is its pair */
    bool tripped; /* sticky once over the cap */
};

/* Starts a guard for one response body. cap 0 picks the analyzer's
 * SSE_DEFAULT_MAX_EVENT_BYTES; a zeroed struct is the same as cap 0. */
void line_guard_init(struct line_guard *g, size_t cap);

/* Looks at n more body bytes. Returns true when the body has gone over the
 * cap (in this call or an earlier one), else false. Cannot fail. */
bool line_guard_feed(struct line_guard *g, const char *p, size_t n);

#endif
