/* phase_runs: streams in phase, as a batching server sends them: runs of
 * chunks of many streams received together. The recorder's self-check
 * samples its loop between such runs and cannot see their queue
 * (docs/recording.md, "Keep-awake"), so the summary says when a trace
 * has them. */
#ifndef TT_PHASE_RUNS_H
#define TT_PHASE_RUNS_H

#include <stdbool.h>
#include <stdint.h>

/* Chunks received at most this far apart belong to one run. */
#define PHASE_GAP_NS 200000LL /* 0.2 ms */
/* A run is in phase when its chunks switch streams this many times. */
#define PHASE_MIN_SWITCHES 8
/* A trace is in phase when this share of its chunks (and at least
 * PHASE_MIN_CHUNKS) came in runs in phase. */
#define PHASE_SHARE 0.25
#define PHASE_MIN_CHUNKS 100

/* The detector's state; zero-initialized is the start of a trace. */
struct phase_runs {
    int64_t last_t_ns;
    uint64_t last_id;
    uint32_t run_chunks;   /* chunks of the current run */
    uint32_t run_switches; /* stream changes inside it */
    bool run_counted;      /* its chunks are counted in phase */
    uint64_t chunks;       /* every chunk seen */
    uint64_t in_phase;     /* of them, in runs in phase */
};

/* Feeds one chunk record in the trace's order (the recorder writes them
 * as it receives them): its receive time and request id. Can't fail. */
void phase_runs_add(struct phase_runs *p, int64_t t_ns, uint64_t id);

/* True when the trace's chunks came mostly in phase (see PHASE_SHARE). */
bool phase_runs_in_phase(const struct phase_runs *p);

/* The share of chunks in runs in phase, 0 when none was seen. */
double phase_runs_share(const struct phase_runs *p);

#endif
