/* phase_runs: runs of chunks of many streams received together. */
#include "phase_runs.h"

void phase_runs_add(struct phase_runs *p, int64_t t_ns, uint64_t id)
{
    /* unsigned: a hostile trace's times may span more than int64 */
    bool joins =
        p->chunks > 0 && t_ns >= p->last_t_ns &&
        (uint64_t)t_ns - (uint64_t)p->last_t_ns <= (uint64_t)PHASE_GAP_NS;
    if (!joins) {
        p->run_chunks = 0;
        p->run_switches = 0;
        p->run_counted = false;
    } else if (id != p->last_id) {
        p->run_switches++;
    }
    p->run_chunks++;
    p->chunks++;
    if (p->run_counted) {
        p->in_phase++;
    } else if (p->run_switches >= PHASE_MIN_SWITCHES) {
        p->in_phase += p->run_chunks; /* the run so far, this one included */
        p->run_counted = true;
    }
    p->last_t_ns = t_ns;
    p->last_id = id;
}

double phase_runs_share(const struct phase_runs *p)
{
    return p->chunks ? (double)p->in_phase / (double)p->chunks : 0.0;
}

bool phase_runs_in_phase(const struct phase_runs *p)
{
    return p->chunks >= PHASE_MIN_CHUNKS && phase_runs_share(p) >= PHASE_SHARE;
}
