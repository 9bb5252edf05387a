/* sse_ref: a frozen copy of the SSE parser (common/sse.c before its scan was
 * rewritten), used only by tests/common/sse_diff_test.c as the behaviour the
 * real parser must keep. Same events, comments, return codes and counters; same
 * contracts as the functions of common/sse.h without the "ref_". */
#ifndef TT_SSE_REF_H
#define TT_SSE_REF_H

#include "sse.h"

struct sse_ref_parser {
    size_t max_event_bytes;
    struct buf line;
    struct buf data;
    struct buf type;
    struct buf id;
    int64_t retry_ms;
    unsigned bom_matched;
    bool bom_done;
    bool skip_lf;
    bool discarding;
    bool poisoned;
    uint64_t events;
    uint64_t comments;
    uint64_t oversized;
    uint64_t dropped;
    uint64_t incomplete;
};

/* As sse_parser_init. */
void sse_ref_parser_init(struct sse_ref_parser *p, size_t max_event_bytes);

/* As sse_parser_feed. */
int sse_ref_parser_feed(struct sse_ref_parser *p, int64_t t_ns,
                        const void *bytes, size_t len,
                        const struct sse_handler *h);

/* As sse_parser_finish. */
int sse_ref_parser_finish(struct sse_ref_parser *p);

/* As sse_parser_reset. */
void sse_ref_parser_reset(struct sse_ref_parser *p);

/* As sse_parser_free. */
void sse_ref_parser_free(struct sse_ref_parser *p);

#endif
