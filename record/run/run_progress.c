/* run_progress: the run's facts onto the progress line. */
#include "run_progress.h"

#include "run_pacer.h"

void run_progress_take_ttft(struct progress *p, struct transfer *t)
{
    if (t->rx.stream.first_token_ns < 0 || t->first_token_counted)
        return;
    t->first_token_counted = true;
    progress_add_ttft(p, t->rx.stream.first_token_ns - t->start_ns);
}

void run_progress_update(struct progress *p, struct transfer *inflight,
                         uint64_t n_inflight, uint64_t waiting,
                         const struct run_outcome *out, int64_t now_ns)
{
    struct transfer *t;
    p->stalled = 0;
    for (t = inflight; t; t = t->next) {
        run_progress_take_ttft(p, t);
        if (run_timer_idle(t, now_ns, PROGRESS_STALL_NS))
            p->stalled++;
    }
    p->done = out->ok + out->failed;
    p->errors = out->failed;
    p->retries = out->retried;
    p->in_flight = n_inflight;
    p->waiting = waiting;
}
