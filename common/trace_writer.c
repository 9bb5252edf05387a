/* trace_writer: the trace file a writer appends to: opening it, its
 * buffer of whole records, the format version, zstd frames, flushing and
 * closing (the records themselves: trace_writer_records.c). */
#include "trace.h"

#include <errno.h>
#include <fcntl.h>
#include <msgpack.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "trace_writer_internal.h"

static int pack_to_buf(void *data, const char *p, size_t len)
{
    struct trace_writer *w = data;
    if (buf_append(&w->out, p, len) != BUF_OK) {
        if (!w->error)
            w->error = TRACE_E_NOMEM;
        return -1;
    }
    return 0;
}

int trace_writer_open(const char *path, bool force, struct trace_writer **out)
{
    struct trace_writer *w = calloc(1, sizeof(*w));
    if (!w)
        return TRACE_E_NOMEM;
    if (strcmp(path, "-") == 0) {
        w->fd = STDOUT_FILENO;
    } else {
        int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (force ? O_TRUNC : O_EXCL);
        w->fd = open(path, flags, 0644);
        if (w->fd < 0) {
            int e = errno;
            free(w);
            errno = e;
            return e == EEXIST ? TRACE_E_EXISTS : TRACE_E_IO;
        }
        w->owns_fd = true;
    }
    buf_init(&w->out, (size_t)512 << 20);
    msgpack_packer_init(&w->pk, w, pack_to_buf);
    w->version = TRACE_FORMAT_VERSION;
    sha256_init(&w->sha);
    *out = w;
    return TRACE_OK;
}

void trace_writer_want_digest(struct trace_writer *w)
{
    w->hashing = w->out.len == 0 && w->frames == 0;
}

int trace_writer_set_version(struct trace_writer *w, unsigned version)
{
    if (w->out.len || w->frames || version < 1 ||
        version > TRACE_FORMAT_VERSION)
        return TRACE_E_VERSION;
    w->version = version;
    return TRACE_OK;
}

unsigned trace_writer_version(const struct trace_writer *w)
{
    return w->version;
}

int trace_writer_set_compression(struct trace_writer *w, int level)
{
    if (w->out.len || w->frames)
        return TRACE_E_MALFORMED; /* only before the first record */
    if (level <= 0) {
        ZSTD_freeCCtx(w->zc);
        w->zc = NULL;
        return TRACE_OK;
    }
    if (!w->zc && !(w->zc = ZSTD_createCCtx()))
        return TRACE_E_NOMEM;
    /* each frame carries its content checksum: a damaged frame is found */
    if (ZSTD_isError(
            ZSTD_CCtx_setParameter(w->zc, ZSTD_c_compressionLevel, level)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(w->zc, ZSTD_c_checksumFlag, 1)))
        return TRACE_E_MALFORMED;
    return TRACE_OK;
}

bool trace_path_compressed(const char *path)
{
    size_t n = strlen(path);
    return n > 4 && strcmp(path + n - 4, ".zst") == 0;
}

/* Compresses the buffered records into one zstd frame in zbuf; returns
 * its size, or 0 with w->error set. */
static size_t compress_frame(struct trace_writer *w)
{
    size_t bound = ZSTD_compressBound(w->out.len), n;
    if (w->zcap < bound) {
        uint8_t *p = realloc(w->zbuf, bound);
        if (!p) {
            w->error = TRACE_E_NOMEM;
            return 0;
        }
        w->zbuf = p;
        w->zcap = bound;
    }
    n = ZSTD_compress2(w->zc, w->zbuf, w->zcap, w->out.data, w->out.len);
    if (ZSTD_isError(n)) {
        w->error = TRACE_E_NOMEM;
        return 0;
    }
    w->frames++;
    return n;
}

int trace_writer_flush(struct trace_writer *w)
{
    size_t off = 0, len;
    const char *data;
    if (w->error)
        return w->error;
    if (w->out.len == 0)
        return TRACE_OK;
    data = w->out.data;
    len = w->out.len;
    if (w->zc) {
        /* A frame is written whole or the error sticks: never half a
         * frame followed by another one. */
        if ((len = compress_frame(w)) == 0)
            return w->error;
        data = (const char *)w->zbuf;
    }
    while (off < len) {
        ssize_t n = write(w->fd, data + off, len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n > 0 && w->hashing)
            sha256_update(&w->sha, data + off, (size_t)n);
        if (n <= 0) {
            w->saved_errno = n < 0 ? errno : EIO;
            w->error = TRACE_E_IO;
            if (!w->zc)
                buf_consume(&w->out, off);
            return w->error;
        }
        off += (size_t)n;
    }
    buf_reset(&w->out);
    return TRACE_OK;
}

size_t trace_writer_pending(const struct trace_writer *w)
{
    return w->out.len;
}

int trace_writer_errno(const struct trace_writer *w)
{
    return w ? w->saved_errno : 0;
}

int trace_writer_close(struct trace_writer *w)
{
    return trace_writer_close_digest(w, NULL);
}

int trace_writer_close_digest(struct trace_writer *w, char *sha256_hex_out)
{
    int err, saved;
    if (!w)
        return TRACE_OK;
    trace_writer_flush(w);
    if (sha256_hex_out && w->hashing)
        sha256_hex(&w->sha, sha256_hex_out);
    else if (sha256_hex_out)
        sha256_hex_out[0] = '\0';
    err = w->error;
    if (w->owns_fd && close(w->fd) != 0 && !err) {
        w->saved_errno = errno;
        err = TRACE_E_IO;
    }
    saved = err == TRACE_E_IO ? w->saved_errno : 0;
    buf_free(&w->out);
    ZSTD_freeCCtx(w->zc);
    free(w->zbuf);
    free(w);
    if (saved)
        errno = saved;
    return err;
}
