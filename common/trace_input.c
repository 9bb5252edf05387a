/* trace_input: plain and zstd-framed trace bytes as one stream (see
 * trace_input.h). Raw bytes are read in bounded steps; a frame is
 * decompressed as a stream, so a frame's size never matters. */
#include "trace_input.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "sha256.h"

#define RAW_STEP ((size_t)128 << 10)
/* Raw bytes kept behind the read position inside a frame, so that after
 * damage the search for the next frame can start just after the damaged
 * frame's magic (zstd may have read past a frame that was cut, into the
 * next one, before it saw the damage). */
#define RAW_LOOKBACK ((size_t)512 << 10)

struct trace_input {
    int fd;
    ZSTD_DCtx *dctx;
    uint8_t *raw;
    size_t pos, fill, cap;
    uint64_t raw_base; /* file offset of raw[0] */
    bool eof;
    bool in_frame;
    bool any_frame;
    bool cut;
    uint64_t frame_off;
    uint64_t plain_run; /* bytes handed out plain since the last frame */
    bool plain;         /* inside plain bytes: a frame starts only where the
                           reader finds one at a record's start (unread) */
    char error[200];
    /* After a damaged frame: plain bytes are handed out up to resume_at
     * (the next frame's magic, UINT64_MAX when none follows), where a
     * frame starts again; note says which file bytes were skipped. */
    uint64_t resume_at;
    bool resyncing;
    char note[200];
    bool hashing;      /* trace_input_want_sha256 was called */
    struct sha256 sha; /* of every raw byte read, when hashing */
};

int trace_input_open(int fd, struct trace_input **out)
{
    struct trace_input *in = calloc(1, sizeof(*in));
    if (!in)
        return -1;
    in->fd = fd;
    in->resume_at = UINT64_MAX;
    sha256_init(&in->sha);
    *out = in;
    return 0;
}

void trace_input_close(struct trace_input *in)
{
    if (!in)
        return;
    ZSTD_freeDCtx(in->dctx);
    free(in->raw);
    free(in);
}

/* Reads more raw bytes (keeping the unread ones). 0, or -1 with errno. */
static int refill(struct trace_input *in)
{
    ssize_t n;
    size_t drop = in->pos;
    /* inside a frame keep a look-back from its start (bounded) */
    if (in->in_frame && in->frame_off >= in->raw_base) {
        size_t from = (size_t)(in->frame_off - in->raw_base);
        if (in->pos - from > RAW_LOOKBACK)
            from = in->pos - RAW_LOOKBACK;
        drop = from < drop ? from : drop;
    }
    if (drop > 0) {
        memmove(in->raw, in->raw + drop, in->fill - drop);
        in->raw_base += drop;
        in->fill -= drop;
        in->pos -= drop;
    }
    if (in->cap - in->fill < RAW_STEP) {
        size_t ncap = in->fill + RAW_STEP;
        uint8_t *p = realloc(in->raw, ncap);
        if (!p) {
            errno = ENOMEM;
            return -1;
        }
        in->raw = p;
        in->cap = ncap;
    }
    do {
        n = read(in->fd, in->raw + in->fill, in->cap - in->fill);
    } while (n < 0 && errno == EINTR);
    if (n < 0)
        return -1;
    if (n == 0)
        in->eof = true;
    if (in->hashing)
        sha256_update(&in->sha, in->raw + in->fill, (size_t)n);
    in->fill += (size_t)n;
    return 0;
}

static ssize_t read_frame(struct trace_input *in, uint8_t *dst, size_t cap)
{
    for (;;) {
        ZSTD_inBuffer ib;
        ZSTD_outBuffer ob = {dst, cap, 0};
        size_t ret;
        if (in->pos == in->fill && !in->eof && refill(in) != 0)
            return -1;
        if (in->pos == in->fill && in->eof) {
            in->cut = true; /* the input ends inside the frame */
            in->in_frame = false;
            return 0;
        }
        ib.src = in->raw + in->pos;
        ib.size = in->fill - in->pos;
        ib.pos = 0;
        ret = ZSTD_decompressStream(in->dctx, &ob, &ib);
        in->pos += ib.pos;
        if (ZSTD_isError(ret)) {
            snprintf(in->error, sizeof(in->error),
                     "zstd frame at file byte %llu is damaged: %s",
                     (unsigned long long)in->frame_off, ZSTD_getErrorName(ret));
            in->in_frame = false;
            in->resyncing = true;
            return -2;
        }
        if (ret == 0) {
            in->in_frame = false;
            in->plain = false; /* another frame may follow at once */
        }
        if (ob.pos > 0 || !in->in_frame) {
            if (ob.pos > 0)
                return (ssize_t)ob.pos;
            return -3; /* an empty frame: look at what follows */
        }
    }
}

/* True when the 4 bytes at p are a zstd skippable frame's magic
 * (0x184D2A50..5F little-endian: pzstd writes one before each frame). */
static bool skippable_magic(const uint8_t *p)
{
    return (p[0] & 0xF0) == 0x50 && p[1] == 0x2A && p[2] == 0x4D &&
           p[3] == 0x18;
}

/* After a damaged frame: finds the next frame's magic after the damaged
 * one's, keeping every byte from there (refilling as needed), and goes
 * on in plain mode from just after the damaged frame's magic, so the
 * reader can find a plain trace's header in what follows; a frame
 * starts again at the magic found. 0, or -1 on a read error. */
static int resync(struct trace_input *in)
{
    uint64_t from = in->frame_off + 1, found = UINT64_MAX;
    size_t i;
    in->resyncing = false;
    if (from < in->raw_base)
        from = in->raw_base; /* beyond the look-back: from what is kept */
    in->pos = (size_t)(from - in->raw_base);
    for (i = in->pos;;) {
        while (i + 4 <= in->fill) {
            const uint8_t *hit = memchr(in->raw + i, 0x28, in->fill - i);
            if (!hit || (size_t)(hit - in->raw) + 4 > in->fill)
                break;
            i = (size_t)(hit - in->raw);
            if (memcmp(hit, TRACE_ZSTD_MAGIC, 4) == 0) {
                found = in->raw_base + i;
                break;
            }
            i++;
        }
        if (found != UINT64_MAX || in->eof)
            break;
        i = in->fill > 3 ? in->fill - 3 : 0;
        {
            uint64_t base = in->raw_base; /* refill keeps bytes from pos */
            if (refill(in) != 0)
                return -1;
            i -= (size_t)(in->raw_base - base);
        }
    }
    in->resume_at = found;
    in->plain = true;
    in->plain_run = 0;
    if (found != UINT64_MAX)
        snprintf(in->note, sizeof(in->note),
                 "file bytes %llu to %llu (%llu bytes) after the damaged zstd "
                 "frame's start skipped: the next frame starts at file byte "
                 "%llu",
                 (unsigned long long)in->frame_off, (unsigned long long)found,
                 (unsigned long long)(found - in->frame_off),
                 (unsigned long long)found);
    else
        snprintf(in->note, sizeof(in->note),
                 "no zstd frame follows the damaged one (file byte %llu): "
                 "what follows is read as plain records",
                 (unsigned long long)in->frame_off);
    return 0;
}

ssize_t trace_input_read(struct trace_input *in, uint8_t *dst, size_t cap)
{
    for (;;) {
        size_t avail, n;
        if (in->resyncing && resync(in) != 0)
            return -1;
        if (in->plain && in->resume_at != UINT64_MAX &&
            in->raw_base + in->pos >= in->resume_at) {
            in->plain = false; /* the frame found after the damage */
            in->resume_at = UINT64_MAX;
        }
        if (in->in_frame) {
            ssize_t got = read_frame(in, dst, cap);
            if (got == -3)
                continue;
            if (got > 0)
                in->plain_run = 0;
            return got;
        }
        while (!in->plain && in->fill - in->pos < 4 && !in->eof)
            if (refill(in) != 0)
                return -1;
        if (in->pos == in->fill && !in->eof && refill(in) != 0)
            return -1;
        avail = in->fill - in->pos;
        if (avail == 0)
            return 0;
        if (!in->plain && avail < 4 &&
            memcmp(in->raw + in->pos, TRACE_ZSTD_MAGIC, avail) == 0) {
            in->cut = true; /* the file ends inside a frame's magic */
            in->frame_off = in->raw_base + in->pos;
            in->pos = in->fill;
            return 0;
        }
        if (!in->plain && avail >= 8 && skippable_magic(in->raw + in->pos)) {
            const uint8_t *q = in->raw + in->pos + 4;
            uint64_t len = 8 + ((uint64_t)q[0] | (uint64_t)q[1] << 8 |
                                (uint64_t)q[2] << 16 | (uint64_t)q[3] << 24);
            /* skip it whole (pzstd's frame sizes, user metadata) */
            while (in->fill - in->pos < len && !in->eof)
                if (refill(in) != 0)
                    return -1;
            if (in->fill - in->pos < len) {
                in->cut = true; /* the file ends inside it */
                in->frame_off = in->raw_base + in->pos;
                in->pos = in->fill;
                return 0;
            }
            in->pos += (size_t)len;
            in->any_frame = true;
            continue;
        }
        if (!in->plain && avail >= 4 &&
            memcmp(in->raw + in->pos, TRACE_ZSTD_MAGIC, 4) == 0) {
            if (!in->dctx && !(in->dctx = ZSTD_createDCtx())) {
                errno = ENOMEM;
                return -1;
            }
            ZSTD_DCtx_reset(in->dctx, ZSTD_reset_session_only);
            in->in_frame = in->any_frame = true;
            in->frame_off = in->raw_base + in->pos;
            continue;
        }
        n = avail < cap ? avail : cap;
        if (in->resume_at != UINT64_MAX &&
            in->raw_base + in->pos + n > in->resume_at)
            n = (size_t)(in->resume_at - (in->raw_base + in->pos));
        memcpy(dst, in->raw + in->pos, n);
        in->pos += n;
        in->plain_run += n;
        in->plain = true;
        return (ssize_t)n;
    }
}

bool trace_input_unread(struct trace_input *in, const uint8_t *p, size_t n)
{
    if (n > in->plain_run || n < 4 || memcmp(p, TRACE_ZSTD_MAGIC, 4) != 0)
        return false;
    if (in->pos < n) { /* make room in front of the unread raw bytes */
        size_t rest = in->fill - in->pos;
        if (in->cap < n + rest) {
            uint8_t *q = realloc(in->raw, n + rest + RAW_STEP);
            if (!q)
                return false;
            in->raw = q;
            in->cap = n + rest + RAW_STEP;
        }
        memmove(in->raw + n, in->raw + in->pos, rest);
        in->raw_base -= n - in->pos;
        in->pos = n;
        in->fill = n + rest;
    }
    in->pos -= n;
    memcpy(in->raw + in->pos, p, n);
    in->plain_run -= n;
    in->plain = false; /* the frame's magic is next */
    return true;
}

bool trace_input_compressed(const struct trace_input *in)
{
    return in->any_frame;
}

bool trace_input_cut(const struct trace_input *in)
{
    return in->cut;
}

uint64_t trace_input_frame_offset(const struct trace_input *in)
{
    return in->frame_off;
}

void trace_input_want_sha256(struct trace_input *in)
{
    in->hashing = in->raw_base == 0 && in->fill == 0 && !in->eof;
}

int trace_input_sha256(struct trace_input *in, char hex[65])
{
    int rc = 0;
    if (!in->hashing)
        return -1;
    while (!in->eof) {
        in->pos = in->fill; /* what is left is not read as records */
        if (refill(in) != 0) {
            rc = -1;
            break;
        }
    }
    in->pos = in->fill;
    sha256_hex(&in->sha, hex);
    return rc;
}

const char *trace_input_error(const struct trace_input *in)
{
    return in->error;
}

const char *trace_input_take_note(struct trace_input *in)
{
    static _Thread_local char out[200];
    memcpy(out, in->note, sizeof(out));
    in->note[0] = '\0';
    return out;
}
