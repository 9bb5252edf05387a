/* clock: the one time source of every tokentrace program. */
#ifndef TT_CLOCK_H
#define TT_CLOCK_H

#include <stdint.h>

/* Returns CLOCK_MONOTONIC now, in integer nanoseconds. Cannot fail. */
int64_t clock_mono_ns(void);

/* Returns CLOCK_REALTIME now, in integer nanoseconds since the Unix epoch. */
int64_t clock_real_ns(void);

/* Formats a realtime ns value as RFC 3339 UTC ("2026-11-30T02:00:00Z") into
 * out (at least 32 bytes). Returns out. */
char *clock_format_utc(int64_t real_ns, char *out, unsigned long size);

/* Formats a realtime ns value as a file-name stamp "YYYYMMDD-HHMMSS" (UTC,
 * clock_format_utc without its punctuation) into out (at least 32 bytes).
 * Returns out. */
char *clock_format_stamp(int64_t real_ns, char *out, unsigned long size);

#endif
