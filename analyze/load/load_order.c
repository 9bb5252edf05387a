/* load_order: the order to read trace files in, so that of several copies
 * of one trace (a cut prefix beside the whole file) the fullest is read
 * and the others are the repeats skipped. */
#include "load_order.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "trace.h"

/* One file's identity (its first record's header) and size. */
struct copy {
    char *trace_id; /* owned; NULL: not a readable header, or stdin */
    int64_t mono_zero_ns, real_zero_ns;
    long long size;
};

/* Reads path's first record; fills c (trace_id NULL when it is no
 * header, the file is stdin or cannot be read). */
static void identify(const char *path, struct copy *c)
{
    struct trace_reader *r;
    struct trace_record rec;
    struct stat sb;
    memset(c, 0, sizeof(*c));
    c->size = -1;
    if (strcmp(path, "-") == 0 || stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
        return;
    c->size = (long long)sb.st_size;
    if (trace_reader_open(path, &r) != TRACE_OK)
        return;
    if (trace_reader_next(r, &rec) > 0 && rec.kind == TRACE_HEADER &&
        rec.u.header.trace_id && rec.u.header.trace_id[0]) {
        c->trace_id = strdup(rec.u.header.trace_id);
        c->mono_zero_ns = rec.u.header.mono_zero_ns;
        c->real_zero_ns = rec.u.header.real_zero_ns;
    }
    trace_reader_close(r);
}

static bool same_trace(const struct copy *a, const struct copy *b)
{
    return a->trace_id && b->trace_id &&
           strcmp(a->trace_id, b->trace_id) == 0 &&
           a->mono_zero_ns == b->mono_zero_ns &&
           a->real_zero_ns == b->real_zero_ns;
}

int load_order_copies(char *const *paths, size_t n, size_t *order)
{
    struct copy *c;
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    if (n < 2)
        return 0;
    c = calloc(n, sizeof(*c));
    if (!c)
        return -1;
    for (size_t i = 0; i < n; i++)
        identify(paths[i], &c[i]);
    /* each slot i takes, among the not yet placed copies of its trace
     * from i on, the largest: the copies keep their trace's slots, the
     * fullest in the first */
    for (size_t i = 0; i < n; i++) {
        size_t best = i;
        for (size_t j = i + 1; j < n; j++)
            if (same_trace(&c[order[i]], &c[order[j]]) &&
                c[order[j]].size > c[order[best]].size)
                best = j;
        if (best != i) {
            size_t t = order[i];
            order[i] = order[best];
            order[best] = t;
        }
    }
    for (size_t i = 0; i < n; i++)
        free(c[i].trace_id);
    free(c);
    return 0;
}
