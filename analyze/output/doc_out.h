/* doc_out: a document built whole in a buf goes out whole, or not at all:
 * the one place the analyzer's formats meet their output stream, so an
 * out-of-memory or a hit cap while building is an error (stderr, non-zero
 * exit), never a truncated document with exit 0. */
#ifndef TT_DOC_OUT_H
#define TT_DOC_OUT_H

#include <stdio.h>

#include "buf.h"

/* Initializes b, empty, for a whole document: capped at 1 GiB, or at the
 * cap doc_out_test_cap set. */
void doc_out_init(struct buf *b);

/* Sets the cap of the buffers doc_out_init makes from now on (0: back to
 * the default), so a unit test can hit the cap at every byte of a
 * document. Not thread-safe; the analyzer never calls it. */
void doc_out_test_cap(size_t cap);

/* Writes b's bytes to out when its sticky error (buf_error) is clear;
 * otherwise writes nothing and says "WHAT: out of memory; nothing
 * written" (or the cap). A failed write is said too ("WHAT: cannot write
 * the output"). Returns 0, or -1 after saying why. b stays the caller's. */
int doc_out_write(FILE *out, const struct buf *b, const char *what);

#endif
