/* utf8: validating UTF-8 one sequence at a time, for every writer that must
 * keep untrusted trace text well-formed (JSON, CSV, markdown, gnuplot). */
#ifndef TT_UTF8_H
#define TT_UTF8_H

#include <stddef.h>

/* Returns the length (1..4) of the well-formed UTF-8 sequence starting at s,
 * or 0 when it is invalid, truncated by avail, an overlong form, a
 * surrogate or above U+10FFFF. Reads at most avail bytes. */
size_t utf8_seq_len(const unsigned char *s, size_t avail);

#endif
