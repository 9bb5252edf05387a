/* trace_reader_window: the reader's bounded window of input bytes. */
#include "trace_reader_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "trace_input.h"

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
