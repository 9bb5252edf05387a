/* phase_runs_test: streams in phase are found (a batching server's steps),
 * and neither one stream's own bursts nor streams spread over a step are
 * taken for them; the run counts from its first chunk once it has enough
 * stream changes; times going back start a new run. */
#include <stdint.h>

#include "check.h"
#include "phase_runs.h"

#define MS 1000000LL
#define US 1000LL

/* streams streams, steps steps: stream i's chunk of step k at
 * k * step_ns + i * offset_ns. */
static struct phase_runs steps(int streams, int n_steps, int64_t step_ns,
                               int64_t offset_ns)
{
    struct phase_runs p = {0};
    for (int k = 0; k < n_steps; k++)
        for (int i = 0; i < streams; i++)
            phase_runs_add(&p, k * step_ns + i * offset_ns, (uint64_t)i + 1);
    return p;
}

int main(void)
{
    struct phase_runs p;

    /* 16 streams, each step's chunks 10 us apart: all in phase */
    p = steps(16, 20, 20 * MS, 10 * US);
    CHECK(p.chunks == 320);
    CHECK(p.in_phase == 320);
    CHECK(phase_runs_in_phase(&p));

    /* the same streams spread over the step (1.25 ms apart): none */
    p = steps(16, 20, 20 * MS, 1250 * US);
    CHECK(p.in_phase == 0);
    CHECK(!phase_runs_in_phase(&p));

    /* one stream whose chunks come 10 us apart (a gateway's burst): no
     * stream changes, so not in phase */
    p = (struct phase_runs){0};
    for (int i = 0; i < 400; i++)
        phase_runs_add(&p, i * 10 * US, 7);
    CHECK(p.in_phase == 0);
    CHECK(!phase_runs_in_phase(&p));

    /* 8 streams: 7 changes a step, one short of PHASE_MIN_SWITCHES; 9
     * streams: the run counts from its first chunk */
    p = steps(PHASE_MIN_SWITCHES, 20, 20 * MS, 10 * US);
    CHECK(p.in_phase == 0);
    p = steps(PHASE_MIN_SWITCHES + 1, 20, 20 * MS, 10 * US);
    CHECK(p.in_phase == 20 * (PHASE_MIN_SWITCHES + 1));

    /* in phase, but fewer chunks than PHASE_MIN_CHUNKS: not judged */
    p = steps(16, 5, 20 * MS, 10 * US);
    CHECK(p.in_phase == 80);
    CHECK(!phase_runs_in_phase(&p));
    CHECK(phase_runs_share(&p) == 1.0);

    /* a quarter of the chunks in phase is enough, less is not */
    p = steps(16, 10, 20 * MS, 10 * US); /* 160 in phase */
    for (int i = 0; i < 480; i++)        /* then 480 alone, 1 ms apart */
        phase_runs_add(&p, 300 * MS + i * MS, (uint64_t)(i % 16) + 1);
    CHECK(p.chunks == 640 && p.in_phase == 160);
    CHECK(phase_runs_in_phase(&p));
    for (int i = 0; i < 10; i++)
        phase_runs_add(&p, 900 * MS + i * MS, 1);
    CHECK(!phase_runs_in_phase(&p));

    /* times going back (chunks of a merged or damaged trace) start anew */
    p = (struct phase_runs){0};
    for (int i = 0; i < 20; i++)
        phase_runs_add(&p, 50 * MS - i * 10 * US, (uint64_t)i + 1);
    CHECK(p.in_phase == 0);
    CHECK(phase_runs_share(&(struct phase_runs){0}) == 0.0);

    /* hostile times: the widest gap int64 holds is no run (and no UB) */
    p = (struct phase_runs){0};
    phase_runs_add(&p, INT64_MIN, 1);
    phase_runs_add(&p, INT64_MAX, 2);
    phase_runs_add(&p, INT64_MAX, 3);
    CHECK(p.chunks == 3 && p.run_chunks == 2 && p.run_switches == 1);
    return CHECK_DONE();
}
