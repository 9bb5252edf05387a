/* gen_trace.h: the two extra modes of the one synthetic-trace generator of
 * the tests (tests/tools/gen_trace.c). Jitter comes from common/rng.c, so a
 * seed gives the same trace forever. */
#ifndef TT_TEST_GEN_TRACE_H
#define TT_TEST_GEN_TRACE_H

#include <stdint.h>
#include <stdio.h>

/* The default trace id of a generated trace: 8 hex digits of FNV-1a over
 * argv[first..argc) (the options, not the output path). The same options
 * make the same trace, so its copies share the id; other options make
 * another trace with another id (the analyzer counts a repeated trace once
 * by id and clock zeros). */
static inline void gen_trace_id_of_args(int argc, char **argv, int first,
                                        char out[9])
{
    uint32_t h = 2166136261u;
    for (int i = first; i < argc; i++)
        for (const char *c = argv[i];; c++) {
            h = (h ^ (unsigned char)*c) * 16777619u;
            if (!*c)
                break;
        }
    snprintf(out, 9, "%08x", (unsigned)h);
}

/* gen_trace --mix OUT [...]: several models and classes, concurrency,
 * failures, labels. argv[0] is "--mix", argv[1] OUT. Returns the exit code
 * (2 on a usage error, 1 when the trace cannot be written). */
int gen_trace_mix(int argc, char **argv);

/* gen_trace --replay OUT DIR: the small hand-made trace the replay tests
 * serve back, and DIR/req<N>.body beside it. argv as for gen_trace_mix. */
int gen_trace_replay(int argc, char **argv);

/* gen_trace --script [--max-tokens N] [--api KIND] OUT MODEL FILE...: one reply
 * per FILE (its SSE body), served in order by tokentrace-replay --trace
 * (gen_trace_script.c). */
int gen_trace_script(int argc, char **argv);

/* gen_trace --definitions OUT: the golden trace of summary --as
 * (gen_trace_defs.c says what is in it). */
int gen_trace_definitions(int argc, char **argv);

#endif
