/* utf8: validating UTF-8 one sequence at a time, for every writer that must
 * keep untrusted trace text well-formed (JSON, CSV, markdown, gnuplot). */
#ifndef TT_UTF8_H
#define TT_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Returns the length (1..4) of the well-formed UTF-8 sequence starting at s,
 * or 0 when it is invalid, truncated by avail, an overlong form, a
 * surrogate or above U+10FFFF. Reads at most avail bytes. */
size_t utf8_seq_len(const unsigned char *s, size_t avail);

/* True when the well-formed sequence s of n bytes (utf8_seq_len's answer)
 * is a control character: C0 (TAB, CR and LF included), DEL or C1
 * (U+0080..U+009F), the characters a terminal may act on. */
bool utf8_is_control(const unsigned char *s, size_t n);

#endif
