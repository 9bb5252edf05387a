/* trace_reader: reads tokentrace records from a file or stdin, streaming
 * through a bounded window, treating every byte as hostile, and says where
 * a damaged one failed ("<file>: byte N: ..."). */
#include "trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "crc32c.h"
#include "fast_path.h"
#include "mp.h"
#include "trace_input.h"
#include "trace_reader_internal.h"

#define MAX_NODES ((size_t)1 << 20) /* decoded nodes in one record */

/* The window over the input and the error messages
 * (trace_reader_internal.h). */

#define READ_STEP ((size_t)256 << 10)

int trace_reader_fill_more(struct trace_reader *r)
{
    ssize_t n;
    size_t drop = r->pos;
    /* keep a small previous record for trace_reader_resync */
    if (r->prev_size && r->prev_size <= RESYNC_LOOKBACK &&
        r->prev_off >= r->base && r->prev_off - r->base < drop)
        drop = (size_t)(r->prev_off - r->base);
    if (drop > 0) {
        memmove(r->buf, r->buf + drop, r->fill - drop);
        r->base += drop;
        r->fill -= drop;
        r->pos -= drop;
    }
    if (r->cap - r->fill < READ_STEP) {
        size_t ncap = r->cap ? r->cap * 2 : READ_STEP * 2;
        uint8_t *p;
        while (ncap - r->fill < READ_STEP)
            ncap *= 2;
        p = realloc(r->buf, ncap);
        if (!p)
            return TRACE_E_NOMEM;
        r->buf = p;
        r->cap = ncap;
    }
    n = trace_input_read(r->in, r->buf + r->fill, r->cap - r->fill);
    if (n == -2)
        return TRACE_E_MALFORMED;
    if (n < 0)
        return errno == ENOMEM ? TRACE_E_NOMEM : TRACE_E_IO;
    if (n == 0)
        r->eof = true;
    r->fill += (size_t)n;
    return TRACE_OK;
}

/* Fails with the error of trace_reader_fill_more's err (returns -err). */
static int trace_reader_fail_fill(struct trace_reader *r, int err)
{
    if (err == TRACE_E_MALFORMED)
        return trace_reader_fail(r, err, r->base + r->fill, "%s",
                                 trace_input_error(r->in));
    return trace_reader_fail(r, err, r->base + r->fill, "%s: %s",
                             trace_strerror(err), strerror(errno));
}

/* " inside the zstd frame at file byte N" when the input ended in one, else
 * "": written to out (size bytes), which is returned. */
static const char *trace_reader_cut_frame(const struct trace_reader *r,
                                          char *out, size_t size)
{
    out[0] = '\0';
    if (trace_input_cut(r->in))
        snprintf(out, size, " inside the zstd frame at file byte %llu",
                 (unsigned long long)trace_input_frame_offset(r->in));
    return out;
}

int trace_reader_open(const char *path, struct trace_reader **out)
{
    struct trace_reader *r = calloc(1, sizeof(*r));
    if (!r)
        return TRACE_E_NOMEM;
    if (strcmp(path, "-") == 0) {
        r->fd = STDIN_FILENO;
        r->name = strdup("<stdin>");
    } else {
        r->fd = open(path, O_RDONLY | O_CLOEXEC);
        r->owns_fd = true;
        r->name = strdup(path);
    }
    if (r->fd < 0 || !r->name) {
        int e = errno;
        int err = r->fd < 0 ? TRACE_E_IO : TRACE_E_NOMEM;
        if (r->fd >= 0 && r->owns_fd)
            close(r->fd);
        free(r->name);
        free(r);
        errno = e;
        return err;
    }
    if (trace_input_open(r->fd, &r->in) != 0) {
        if (r->owns_fd)
            close(r->fd);
        free(r->name);
        free(r);
        return TRACE_E_NOMEM;
    }
    mp_arena_init(&r->arena, MAX_NODES);
    r->fast_chunks = !fast_path_disabled();
    *out = r;
    return TRACE_OK;
}

void trace_reader_close(struct trace_reader *r)
{
    if (!r)
        return;
    if (r->owns_fd)
        close(r->fd);
    trace_input_close(r->in);
    free(r->buf);
    free(r->name);
    mp_arena_free(&r->arena);
    trace_reader_scratch_free(r);
    free(r);
}

const char *trace_reader_error(const struct trace_reader *r)
{
    return r->error;
}

uint64_t trace_reader_error_offset(const struct trace_reader *r)
{
    return r->error_offset;
}

bool trace_reader_compressed(const struct trace_reader *r)
{
    return trace_input_compressed(r->in);
}

const char *trace_reader_name(const struct trace_reader *r)
{
    return r->name;
}

/* The common chunk record, [2, id, t_ns, bytes] (a 4-element array whose
 * id fits in uint32 and whose time is an integer), decoded straight from
 * the buffer: no measuring pass, no tree. Returns the record's size when
 * it is wholly in the buffer and has exactly that shape, with rec filled as
 * trace_reader_interpret() would fill it (raw stays NULL); 0 otherwise, having
 * written nothing, and the general path then reads it with its checks and its
 * error messages. */
static size_t read_chunk_fast(const struct trace_reader *r,
                              struct trace_record *rec)
{
    const uint8_t *p = r->buf + r->pos, *data;
    size_t avail = r->fill - r->pos, off = 2, k, n;
    int64_t id, t;
    bool crc = r->version >= 2;
    if (avail < 5 || p[0] != (crc ? 0x95 : 0x94) || p[1] != TRACE_CHUNK)
        return 0;
    k = mp_read_int(p + off, avail - off, &id);
    if (k == 0 || id < 0 || id > UINT32_MAX)
        return 0;
    off += k;
    k = mp_read_int(p + off, avail - off, &t);
    if (k == 0)
        return 0;
    off += k;
    k = mp_read_bytes(p + off, avail - off, &data, &n);
    if (k == 0)
        return 0;
    off += k;
    if (crc) { /* 0xce and the CRC-32C of the bytes before it */
        uint32_t stored;
        if (avail - off < 5 || p[off] != 0xce)
            return 0;
        stored = (uint32_t)p[off + 1] << 24 | (uint32_t)p[off + 2] << 16 |
                 (uint32_t)p[off + 3] << 8 | (uint32_t)p[off + 4];
        if (crc32c(0, p, off) != stored)
            return 0; /* the general path names the damage */
        off += 5;
    }
    rec->kind = TRACE_CHUNK;
    rec->raw_kind = TRACE_CHUNK;
    rec->u.chunk.request_id = (uint32_t)id;
    rec->u.chunk.t_ns = t;
    rec->u.chunk.data = data;
    rec->u.chunk.len = n;
    return off;
}

/* A zstd frame where a record should start (a plain trace, then a
 * compressed one): its bytes go back to the input to be decompressed.
 * Returns 1 when they did, 0 when no frame starts here, or -err. */
static int frame_here(struct trace_reader *r)
{
    for (;;) {
        size_t avail = r->fill - r->pos;
        int err;
        if (avail == 0 && !r->eof) {
            /* the last read ended exactly at a record's end (a pipe from
             * `cat plain zst` delivers each file apart): look at the next
             * bytes before they are parsed as a record */
            if ((err = trace_reader_fill_more(r)) != TRACE_OK)
                return trace_reader_fail_fill(r, err);
            continue;
        }
        if (avail == 0 || r->buf[r->pos] != TRACE_ZSTD_MAGIC[0])
            return 0;
        if (avail >= 4)
            break;
        if (r->eof) {
            if (memcmp(r->buf + r->pos, TRACE_ZSTD_MAGIC, avail) != 0)
                return 0;
            return trace_reader_fail(
                r, TRACE_E_TRUNCATED, r->base + r->pos,
                "the file ends inside the magic of a zstd frame "
                "(the tail was cut)");
        }
        if ((err = trace_reader_fill_more(r)) != TRACE_OK)
            return trace_reader_fail_fill(r, err);
    }
    if (memcmp(r->buf + r->pos, TRACE_ZSTD_MAGIC, 4) != 0 ||
        !trace_input_unread(r->in, r->buf + r->pos, r->fill - r->pos))
        return 0;
    r->fill = r->pos;
    r->eof = false;
    return 1;
}

int trace_reader_next(struct trace_reader *r, struct trace_record *rec)
{
    char where[80];
    struct mp_value *v;
    size_t used = 0, want = 1;
    uint64_t inner;
    int st, err;

    if (r->error[0])
        return -TRACE_E_MALFORMED;
    memset(rec, 0, sizeof(*rec));
    mp_arena_reset(&r->arena);
    trace_reader_scratch_reset(r);
    if ((st = frame_here(r)) < 0)
        return st;
    if (r->fast_chunks && r->seen_header &&
        (used = read_chunk_fast(r, rec)) > 0 &&
        !embedded_header(r, r->pos + 1, r->pos + used)) {
        rec->offset = r->base + r->pos;
        rec->size = used;
        rec->trace_index = r->trace_index;
        r->pos += used;
        r->prev_off = rec->offset;
        r->prev_size = used;
        r->records++;
        r->verified += r->version >= 2;
        return 1;
    }
    for (;;) {
        uint64_t here = r->base + r->pos;
        size_t avail = r->fill - r->pos;
        bool measure;
        if (avail == 0 && r->eof) {
            if (trace_input_cut(r->in))
                return trace_reader_fail(
                    r, TRACE_E_TRUNCATED, here,
                    "the file ends%s (the tail was cut)",
                    trace_reader_cut_frame(r, where, sizeof(where)));
            return 0;
        }
        /* Measuring is linear in the bytes so far, so a record arriving in
         * small reads (a pipe gives 64 KiB) is measured again only once
         * twice as many bytes, or as many as it claims, are in: reading it
         * stays linear instead of quadratic. */
        measure = avail > 0 && (avail >= want || r->eof);
        st = measure ? mp_skip(r->buf + r->pos, avail, &used) : MP_MORE;
        if (st == MP_OK)
            break;
        if (st == MP_BAD)
            return trace_reader_fail(r, TRACE_E_MALFORMED, here,
                                     "not a msgpack record");
        if (measure && used > TRACE_MAX_RECORD)
            return trace_reader_fail(
                r, TRACE_E_TOO_LARGE, here,
                "record claims at least %zu bytes (limit %zu)", used,
                TRACE_MAX_RECORD);
        if (measure) {
            want = used > 2 * avail ? used : 2 * avail;
            if (want > TRACE_MAX_RECORD + 1)
                want = TRACE_MAX_RECORD + 1;
        }
        if (r->eof)
            return trace_reader_fail(
                r, TRACE_E_TRUNCATED, here,
                "record truncated: the file ends%s %zu bytes into it "
                "(the tail was cut)",
                trace_reader_cut_frame(r, where, sizeof(where)),
                r->fill - r->pos);
        if (r->fill - r->pos > TRACE_MAX_RECORD)
            return trace_reader_fail(r, TRACE_E_TOO_LARGE, here,
                                     "record larger than %zu bytes",
                                     TRACE_MAX_RECORD);
        err = trace_reader_fill_more(r);
        if (err)
            return trace_reader_fail_fill(r, err);
    }
    rec->offset = r->base + r->pos;
    rec->size = used;
    if ((inner = embedded_header(r, r->pos + 1, r->pos + used)) != 0)
        return trace_reader_fail(
            r, TRACE_E_MALFORMED, rec->offset,
            "record cut short: the next trace's header starts "
            "inside it, at byte %llu",
            (unsigned long long)inner);
    st = mp_decode(r->buf + r->pos, r->fill - r->pos, &r->arena, &v, &used);
    if (st != MP_OK)
        return trace_reader_fail(
            r, st == MP_NOMEM ? TRACE_E_TOO_LARGE : TRACE_E_MALFORMED,
            rec->offset, "record has too many elements");
    if (trace_reader_wants_checksum(r, v) &&
        (st = trace_reader_verify_checksum(r, rec, v, r->buf + r->pos, used)) <
            0)
        return st;
    r->pos += used;
    rec->raw = v;
    rec->trace_index = r->trace_index;
    st = trace_reader_interpret(r, v, rec);
    if (st < 0)
        return st;
    if (!r->seen_header && rec->kind != TRACE_HEADER)
        return trace_reader_fail(r, TRACE_E_NOT_TRACE, rec->offset,
                                 "the first record is not a tokentrace header");
    if (rec->kind == TRACE_HEADER)
        r->version = rec->u.header.format_version;
    r->seen_header = true;
    r->prev_off = rec->offset;
    r->prev_size = rec->size;
    r->records++;
    return 1;
}

uint64_t trace_reader_verified(const struct trace_reader *r)
{
    return r->verified;
}

void trace_reader_want_sha256(struct trace_reader *r)
{
    trace_input_want_sha256(r->in);
}

int trace_reader_sha256(struct trace_reader *r, char hex[65])
{
    return trace_input_sha256(r->in, hex) == 0 ? TRACE_OK : TRACE_E_IO;
}
