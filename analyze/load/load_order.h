/* load_order: of several files holding copies of one trace (the same
 * trace id and clock zeros in their first header: a cut prefix and the
 * whole file, say), which to read first, so that the fullest copy is the
 * one counted and the others are the repeats skipped (docs/robustness.md).
 * Only a file's first record and size are read; stdin ("-") and files
 * that are not regular keep their place. */
#ifndef TT_LOAD_ORDER_H
#define TT_LOAD_ORDER_H

#include <stddef.h>

/* Fills order[0..n) with the indices of paths in the order to read them:
 * the given order, except that copies of one trace trade places so the
 * largest comes first. Returns 0, or -1 out of memory (order is then the
 * given one). */
int load_order_copies(char *const *paths, size_t n, size_t *order);

#endif
