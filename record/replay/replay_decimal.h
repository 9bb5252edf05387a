/* replay_decimal: integers to decimal text without printf, for hot paths that
 * write many numbers (the replay server's events and send log). */
#ifndef TT_REPLAY_DECIMAL_H
#define TT_REPLAY_DECIMAL_H

#include <stddef.h>
#include <stdint.h>

/* Longest output of replay_decimal_i64 ("-9223372036854775808"), no NUL. */
#define REPLAY_DECIMAL_MAX 20

/* Writes v in decimal at dst (at least REPLAY_DECIMAL_MAX bytes, no NUL added)
 * and returns the number of bytes: the same text as printf's "%llu". */
size_t replay_decimal_u64(char *dst, uint64_t v);

/* Writes v in decimal at dst (at least REPLAY_DECIMAL_MAX bytes, no NUL added)
 * and returns the number of bytes: the same text as printf's "%lld". */
size_t replay_decimal_i64(char *dst, int64_t v);

#endif
