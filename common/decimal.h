/* decimal: integers to decimal text without printf, for hot paths that
 * write many numbers (the replay server's events and send log). */
#ifndef TT_DECIMAL_H
#define TT_DECIMAL_H

#include <stddef.h>
#include <stdint.h>

/* Longest output of decimal_i64 ("-9223372036854775808"), no NUL. */
#define DECIMAL_MAX 20

/* Writes v in decimal at dst (at least DECIMAL_MAX bytes, no NUL added) and
 * returns the number of bytes: the same text as printf's "%llu". */
size_t decimal_u64(char *dst, uint64_t v);

/* Writes v in decimal at dst (at least DECIMAL_MAX bytes, no NUL added) and
 * returns the number of bytes: the same text as printf's "%lld". */
size_t decimal_i64(char *dst, int64_t v);

#endif
