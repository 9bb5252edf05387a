/* self_test: `tokentrace-record --self-test`: what this machine's
 * recorder can drive before its own timing goes wrong. It starts the
 * local tokentrace-replay (next to this program), records a rate sweep
 * against it with a child recorder (every step a stage of one trace),
 * and judges each step by the recorder's own send lag and event-loop lag
 * (docs/capacity.md, "Before a sweep: --self-test"). */
#ifndef TT_RECORD_SELF_TEST_H
#define TT_RECORD_SELF_TEST_H

#include <stdbool.h>

/* The limit a step must keep: p99 of the send lag and of the event
 * loop's lateness, ns (1 ms: the error every timestamp then carries). */
#define SELF_TEST_LIMIT_NS 1000000LL

/* True when argv holds --self-test (before any "--"). */
bool self_test_wanted(int argc, char **argv);

/* Runs the self-test with argv's other flags (--duration D per step,
 * --sweep rate=LIST, -q) and prints the table and the verdict on stdout.
 * Returns the exit code: 0 when at least the lightest step held, 1 when
 * none did or the test could not run, 2 on a usage error. */
int self_test_run(int argc, char **argv);

#endif
