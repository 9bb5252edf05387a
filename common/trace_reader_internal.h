/* trace_reader_internal: the trace reader's state and the helpers its files
 * share (private to common/trace_reader*.c; callers use trace.h). */
#ifndef TT_TRACE_READER_INTERNAL_H
#define TT_TRACE_READER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mp.h"
#include "trace.h"

/* The record before a damaged one is kept in the window while it is at most
 * this big, so a resynchronization can find a header it swallowed (a cut
 * chunk whose claimed length ran into the next trace of a concatenation). */
#define RESYNC_LOOKBACK ((size_t)1 << 20)
/* A header as every writer starts it: [1, {"format": "tokentrace", ...}]:
 * 0x92 0x01, a map prefix (fixmap, map16 or map32), then these bytes. */
#define TRACE_READER_HEADER_KEY                                                \
    "\xa6"                                                                     \
    "format"                                                                   \
    "\xaa"                                                                     \
    "tokentrace"

/* A bump allocator whose blocks never move, reset per record. */
struct scratch_block {
    struct scratch_block *next;
    size_t used, cap;
    char data[];
};

struct trace_reader {
    int fd;
    bool owns_fd;
    struct trace_input *in; /* plain or zstd-framed bytes of fd */
    char *name;
    uint8_t *buf;
    size_t cap, pos, fill;
    uint64_t base; /* file offset of buf[0] */
    bool eof;
    bool seen_header;
    bool fast_chunks; /* read_chunk_fast on (env TOKENTRACE_NO_FAST_PATH) */
    unsigned trace_index;
    unsigned headers;
    unsigned version;  /* format version of the current trace (from its
                          header): 2 and up end every record with a CRC */
    uint64_t records;  /* records delivered */
    uint64_t verified; /* of them, with a checksum that matched */
    struct mp_arena arena;
    struct scratch_block *scratch;
    char error[512];
    uint64_t error_offset;
    int error_code;    /* the trace_err of the error, 0 none */
    uint64_t prev_off; /* the last record delivered: where it starts */
    size_t prev_size;  /* and its size (0: none to keep) */
    char note[512];    /* what the last resynchronization skipped */
};

/* trace_reader_records.c: per-record strings and arrays (the scratch). */

/* Frees every block. */
void trace_reader_scratch_free(struct trace_reader *r);

/* trace_reader.c: the error messages. */

/* Records the error message "<file>: byte N: <what>" and returns -err. */
int trace_reader_fail(struct trace_reader *r, int err, uint64_t offset,
                      const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* trace_reader.c: the bounded window over the input. */

/* Makes room for and reads at least some more bytes; sets eof at the end.
 * Returns TRACE_OK, TRACE_E_IO / TRACE_E_NOMEM, or TRACE_E_MALFORMED for
 * a damaged zstd frame (trace_input_error says which). */
int trace_reader_fill_more(struct trace_reader *r);

/* trace_reader_records.c: the decoders per record kind. */

/* Fills rec from a decoded record tree (strings in the scratch). Returns 1
 * or -error (trace_reader_fail called). */
int trace_reader_interpret(struct trace_reader *r, const struct mp_value *v,
                           struct trace_record *rec);

/* trace_reader_checksum.c: version 2's record checksums. */

/* True when the record v must end with a checksum. */
bool trace_reader_wants_checksum(const struct trace_reader *r,
                                 const struct mp_value *v);
/* Checks the checksum of the record v (bytes at p, size bytes) and drops it
 * from the tree. Returns 0 or -TRACE_E_CHECKSUM (trace_reader_fail called). */
int trace_reader_verify_checksum(struct trace_reader *r,
                                 struct trace_record *rec, struct mp_value *v,
                                 const uint8_t *p, size_t size);

/* Where a header record would start if TRACE_READER_HEADER_KEY sits at buf[m],
 * or -1: 0x92 (or 0x93) 0x01 and a map prefix must come right before it. */
/* Keeps the newest block (usually the only one) and frees the rest. Inline:
 * trace_reader_next calls it for every record, the fast chunk path too. */
static inline void trace_reader_scratch_reset(struct trace_reader *r)
{
    struct scratch_block *b = r->scratch;
    if (!b)
        return;
    while (b->next) {
        struct scratch_block *n = b->next;
        b->next = n->next;
        free(n);
    }
    b->used = 0;
}

static inline int64_t header_start(const struct trace_reader *r, size_t m)
{
    static const size_t prefix[] = {3, 5, 7}; /* fixmap, map16, map32 */
    static const uint8_t marker[] = {0, 0xde, 0xdf};
    for (size_t i = 0; i < 3; i++) {
        const uint8_t *p;
        size_t k = prefix[i];
        if (m < k)
            continue;
        p = r->buf + m - k;
        /* [1, map] (version 1) or [1, map, crc] (version 2) */
        if ((p[0] != 0x92 && p[0] != 0x93) || p[1] != TRACE_HEADER)
            continue;
        if (i == 0 ? (p[2] & 0xf0) == 0x80 : p[2] == marker[i])
            return (int64_t)(m - k);
    }
    return -1;
}

/* The file offset of a header record starting inside buf[from, to) (a
 * record that a cut left unfinished swallowed the next trace of a
 * concatenation), or 0 when there is none. Clean traces never have one:
 * TRACE_READER_HEADER_KEY's bytes are not UTF-8, and records hold text. */
static inline uint64_t embedded_header(const struct trace_reader *r,
                                       size_t from, size_t to)
{
    const size_t klen = sizeof(TRACE_READER_HEADER_KEY) - 1;
    while (from + klen <= to) {
        const uint8_t *hit = memchr(r->buf + from, 0xa6, to - from);
        size_t m;
        int64_t start;
        if (!hit)
            break;
        m = (size_t)(hit - r->buf);
        if (m + klen > to)
            break;
        if (memcmp(hit, TRACE_READER_HEADER_KEY, klen) == 0 &&
            (start = header_start(r, m)) >= 0 && (size_t)start >= from)
            return r->base + (uint64_t)start;
        from = m + 1;
    }
    return 0;
}

#endif
