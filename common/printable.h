/* printable: untrusted text (model names, labels, error messages from a
 * trace or a server) made safe to show a person on a terminal. The one rule
 * every output follows for bytes (docs/robustness.md, "Text from traces"):
 * invalid UTF-8 becomes U+FFFD everywhere; control characters become \xNN
 * here, spaces in markdown, \u00NN in JSON, and stay inside a quoted CSV
 * field. */
#ifndef TT_COMMON_PRINTABLE_H
#define TT_COMMON_PRINTABLE_H

#include <stddef.h>

#include "buf.h"

/* Copies s into out (size > 0 bytes, always NUL-terminated) with every C0
 * control (TAB, CR, LF and ESC included), DEL and C1 control written as
 * \xNN (C1 as \u00NN) and every byte of invalid UTF-8 as U+FFFD. Cuts at a
 * character boundary when out is too small, ending in "..." when there is
 * room. s NULL copies "". Returns out. */
char *printable_copy(char *out, size_t size, const char *s);

/* Appends s like printable_copy, without a length limit. Returns 0, or
 * BUF_E_LIMIT / BUF_E_NOMEM from buf. */
int printable_put(struct buf *b, const char *s);

#endif
