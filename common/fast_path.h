/* fast_path: one switch for the analyzer's fast paths (the trace reader's
 * chunk records, the stream parser's JSON scan), so that a test or a
 * benchmark can run the general code on the same input and compare.
 *
 * Environment: TOKENTRACE_NO_FAST_PATH set to anything but "" or "0" turns
 * them off. The results are the same either way
 * (tests/common/trace_fast_test.c, tests/common/stream_scan_test.c and
 * tests/analyze/load/analyze_fast_path.sh compare the two
 * on every corpus input and on recorded streams); only the speed differs.
 */
#ifndef TT_FAST_PATH_H
#define TT_FAST_PATH_H

#include <stdbool.h>

/* True when the environment asks for the general code only. Read on every
 * call (callers ask once per reader or stream state). */
bool fast_path_disabled(void);

#endif
