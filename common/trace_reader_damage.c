/* trace_reader_damage: how the reader says where a trace is damaged (the
 * one error message of every decoder); its own file so the decoders and
 * the checksum check call down to it, not back into the reading loop. */
#include <stdarg.h>
#include <stdio.h>

#include "trace_input.h"
#include "trace_reader_internal.h"

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
