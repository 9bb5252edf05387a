/* trace_writer_internal: the writer's state, shared by its two files
 * (trace_writer.c: the file, buffer and flushing; trace_writer_records.c:
 * the records). Not for use outside them. */
#ifndef TT_COMMON_TRACE_WRITER_INTERNAL_H
#define TT_COMMON_TRACE_WRITER_INTERNAL_H

#include <msgpack.h>
#include <stdbool.h>
#include <stdint.h>
#include <zstd.h>

#include "buf.h"
#include "sha256.h"

/* Flush on its own once this many bytes wait (callers also flush on a timer).
 */
#define WRITER_AUTO_FLUSH (256u * 1024u)

struct trace_writer {
    int fd;
    bool owns_fd;
    struct buf out;
    msgpack_packer pk;
    int error; /* first error, sticky */
    int saved_errno;
    ZSTD_CCtx *zc; /* compressing: one zstd frame per flush */
    uint8_t *zbuf;
    size_t zcap;
    uint64_t frames;   /* zstd frames written */
    unsigned version;  /* format version written: 2 (checksums) or 1 */
    bool hashing;      /* trace_writer_want_digest */
    struct sha256 sha; /* of every byte written, when hashing */
};

#endif
