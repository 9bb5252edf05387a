/* trace_reader_damage: the reader's error messages ("<file>: byte N: ..."). */
#include "trace_reader_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "trace_input.h"

int trace_reader_fail(struct trace_reader *r, int err, uint64_t offset,
                      const char *fmt, ...)
{
    char detail[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    r->error_offset = offset;
    r->error_code = err;
    /* a compressed trace's offsets count the decompressed bytes */
    snprintf(r->error, sizeof(r->error), "%s: byte %llu%s: %s", r->name,
             (unsigned long long)offset,
             trace_input_compressed(r->in) ? " (decompressed)" : "", detail);
    return -err;
}

int trace_reader_fail_fill(struct trace_reader *r, int err)
{
    if (err == TRACE_E_MALFORMED)
        return trace_reader_fail(r, err, r->base + r->fill, "%s",
                                 trace_input_error(r->in));
    return trace_reader_fail(r, err, r->base + r->fill, "%s: %s",
                             trace_strerror(err), strerror(errno));
}

const char *trace_reader_cut_frame(const struct trace_reader *r, char *out,
                                   size_t size)
{
    out[0] = '\0';
    if (trace_input_cut(r->in))
        snprintf(out, size, " inside the zstd frame at file byte %llu",
                 (unsigned long long)trace_input_frame_offset(r->in));
    return out;
}
