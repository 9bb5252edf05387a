/* trace_reader_scratch: the reader's bump allocator for one record's strings
 * and arrays, whose blocks never move and are reset per record. */
#include "trace_reader_internal.h"

#include <stdlib.h>

#define SCRATCH_BLOCK ((size_t)64 << 10)

void *trace_reader_scratch_alloc(struct trace_reader *r, size_t size)
{
    struct scratch_block *b = r->scratch;
    size = (size + 7) & ~(size_t)7;
    if (!b || b->cap - b->used < size) {
        size_t cap = size > SCRATCH_BLOCK ? size : SCRATCH_BLOCK;
        struct scratch_block *nb = malloc(sizeof(*nb) + cap);
        if (!nb)
            return NULL;
        nb->next = b;
        nb->used = 0;
        nb->cap = cap;
        r->scratch = b = nb;
    }
    b->used += size;
    return b->data + b->used - size;
}

void trace_reader_scratch_free(struct trace_reader *r)
{
    while (r->scratch) {
        struct scratch_block *n = r->scratch->next;
        free(r->scratch);
        r->scratch = n;
    }
}
