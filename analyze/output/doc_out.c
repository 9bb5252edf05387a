/* doc_out: writes a whole document from a buf, or says why it cannot. */
#include "doc_out.h"

#include <errno.h>
#include <string.h>

#include "log.h"

static size_t doc_out_cap; /* 0: buf's default */

void doc_out_init(struct buf *b)
{
    buf_init(b, doc_out_cap);
}

void doc_out_test_cap(size_t cap)
{
    doc_out_cap = cap;
}

int doc_out_write(FILE *out, const struct buf *b, const char *what)
{
    int err = buf_error(b);
    if (err != BUF_OK) {
        log_error("%s: %s; nothing written", what, buf_strerror(err));
        return -1;
    }
    if ((b->len && fwrite(b->data, 1, b->len, out) != b->len) || ferror(out)) {
        log_error("%s: cannot write the output: %s", what,
                  errno ? strerror(errno) : "write error");
        return -1;
    }
    return 0;
}
