/* gen_trace.h: the two extra modes of the one synthetic-trace generator of
 * the tests (tests/tools/gen_trace.c). Jitter comes from common/rng.c, so a
 * seed gives the same trace forever. */
#ifndef TT_TEST_GEN_TRACE_H
#define TT_TEST_GEN_TRACE_H

/* gen_trace --mix OUT [...]: several models and classes, concurrency,
 * failures, labels. argv[0] is "--mix", argv[1] OUT. Returns the exit code
 * (2 on a usage error, 1 when the trace cannot be written). */
int gen_trace_mix(int argc, char **argv);

/* gen_trace --replay OUT DIR: the small hand-made trace the replay tests
 * serve back, and DIR/req<N>.body beside it. argv as for gen_trace_mix. */
int gen_trace_replay(int argc, char **argv);

#endif
