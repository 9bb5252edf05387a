/* run_loop_state: what the run loop asks of its state (is a request
 * left to send, how many are busy) and the records it writes besides the
 * requests' (stage records, the scrapes before and after), with the
 * fatal stop a failed write makes. Calls nothing back in run_loop.c. */
#include "run_loop_state.h"

#include "clock.h"

/* Stops everything after a failed write (RUN_E_WRITE) or allocation. */
void run_loop_fatal(struct run_loop *r, int rc)
{
    if (r->fatal)
        return;
    r->fatal = true;
    r->fatal_rc = rc;
    r->no_more = true;
    if (rc == RUN_E_WRITE) {
        r->out->write_err = r->req.env.write_err;
        r->out->write_errno = trace_writer_errno(r->s->writer);
        r->out->reason = "write_error";
    }
    event_base_loopbreak(r->ev.base);
}

int run_loop_check_write(struct run_loop *r, int err)
{
    int rc = run_requests_note_write(&r->req, err);
    if (rc)
        run_loop_fatal(r, rc);
    return err;
}

/* True when the schedule has another request and nothing stops it. */
bool run_loop_has_next(const struct run_loop *r)
{
    struct schedule_slot slot;
    return !r->no_more && !r->stage_over && !r->fatal &&
           schedule_slot(&r->sched, r->next_k, &slot);
}

/* Requests in flight plus those waiting to retry, plus sessions between
 * two turns (a session holds its place while its user thinks). */
uint64_t run_loop_busy(const struct run_loop *r)
{
    return r->req.n_inflight + r->waiting.n + r->sessions.thinking;
}

/* A sweep's stage is over (nothing in flight, nothing left to send):
 * writes its stage record (with --search, its verdict), once. */
void run_loop_end_stage(struct run_loop *r)
{
    struct trace_stage st;
    if (!r->stage.id || r->stage_written || r->fatal)
        return;
    r->stage_written = true;
    run_stage_end(&r->stage, clock_mono_ns(), &r->lag, &st);
    if (r->cfg->search.mode != SWEEP_NONE) {
        st.search =
            run_search_passed(&r->cfg->search, r->stage_met, r->stage_final)
                ? "pass"
                : "fail";
        st.search_met = r->stage_met;
        st.search_judged = r->stage_final;
    }
    run_loop_check_write(r, trace_write_stage(r->s->writer, &st));
}

/* --search: appends the next probe's load to the plan, or says the
 * search is over. */
bool run_loop_search_more(struct run_loop *r)
{
    double next;
    if (r->cfg->search.mode == SWEEP_NONE || r->plan.n == CLI_MAX_STAGES ||
        !run_search_next(
            &r->search, r->plan.loads[r->stage_idx],
            run_search_passed(&r->cfg->search, r->stage_met, r->stage_final),
            &next))
        return false;
    r->plan.loads[r->plan.n++] = next;
    return true;
}

/* Arms a planned retry (its result was written) and puts it on the
 * waiting list. Returns 0, or -1 (w was freed: the attempt is final). */
int run_loop_arm_retry(struct run_loop *r, struct run_retry *w)
{
    if (run_timer_at(w->timer, w->due_ns) != 0) {
        run_retry_free(w);
        return -1;
    }
    run_retry_link(&r->waiting, w);
    return 0;
}

/* --server-metrics: writes the scrapes taken before the run (the header
 * is written) and arms the interval timer. */
void run_loop_scrapes_begin(struct run_loop *r)
{
    int64_t us = (int64_t)(r->cfg->server_metrics_interval_s * 1e6);
    struct timeval every = {(time_t)(us / 1000000),
                            (suseconds_t)(us % 1000000)};
    if (!r->scrapes.n)
        return;
    run_loop_check_write(r, run_scrapes_write_held(&r->scrapes, r->s->writer));
    if (!r->fatal)
        event_add(r->ev.scrape_timer, &every);
}

/* --server-metrics: the timer stops, the scrapes still running are
 * dropped, and each URL is scraped once more, after the last request. */
void run_loop_scrapes_end(struct run_loop *r)
{
    if (!r->scrapes.n)
        return;
    event_del(r->ev.scrape_timer);
    if (!r->fatal)
        run_loop_check_write(
            r, run_scrapes_after(&r->scrapes, r->ev.loop, r->s->writer));
}
