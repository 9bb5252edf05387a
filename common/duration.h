/* duration: the one grammar of time values on every command line
 * (tokentrace-record --timeout 500ms, tokentrace-analyze --slo ttft=1.5s,
 * tokentrace-replay --synthetic ttft=80ms), documented in README.md,
 * "Durations":
 *
 *   DURATION := NUMBER UNIT | NUMBER
 *   NUMBER   := digits [ "." [digits] ] [ exponent ] | "." digits [exponent]
 *   UNIT     := ns | us | ms | s | m | h   (m is minutes)
 *
 * No sign, no space, no other spelling. A bare NUMBER is in the unit the
 * flag documents (the recorder's flags: seconds); a flag without one
 * refuses a bare number other than 0 (0 is 0 in any unit). */
#ifndef TT_COMMON_DURATION_H
#define TT_COMMON_DURATION_H

/* Units, smallest first. DURATION_NONE as a bare unit: a bare number other
 * than 0 is refused. */
enum duration_unit {
    DURATION_NONE = 0,
    DURATION_NS,
    DURATION_US,
    DURATION_MS,
    DURATION_S,
    DURATION_M,
    DURATION_H,
};

/* The accepted unit suffixes, for help texts and error messages. */
#define DURATION_UNITS "ns, us, ms, s, m or h"

/* Parses s into *out, expressed in out_unit (DURATION_NS...DURATION_H): the
 * number scaled by an exact integer ratio, so "300ms" in seconds is the
 * double nearest 0.3, the same as "0.3" in seconds. bare is the unit of a
 * number without a suffix. Returns 0, or -1 (and leaves *out alone) when s
 * is NULL, not a duration, or too large to be finite. Range limits are the
 * caller's. */
int duration_parse(const char *s, enum duration_unit bare,
                   enum duration_unit out_unit, double *out);

#endif
