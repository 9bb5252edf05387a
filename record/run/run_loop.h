/* run_loop: the recording run's event loop and the one place that decides
 * what happens next. run.c opens it, starts it and closes it; in between,
 * every event lands here (a transfer ended, the 100 ms tick, the open-loop
 * pace timer, the --duration deadline, a retry's wait ran out) and this
 * file alone decides: refill to the concurrency, start the next attempt,
 * arm a retry, stop, end the run. The files below it report facts and
 * never call back: run_requests (an attempt started or ended), run_retry
 * (sent again? after how long?), run_pacer (what is due, idle),
 * run_outcome (the counts), progress (the line), self_lag; and beside
 * it the plumbing it decides with: run_events (base, timers), run_checks
 * (keep-awake, self-checks, dispatch), run_plan (counts planned from the
 * config and the --ramp). Not for use
 * outside record/run. */
#ifndef TT_RECORD_RUN_LOOP_H
#define TT_RECORD_RUN_LOOP_H

#include <event2/event.h>
#include <stdbool.h>
#include <stdint.h>

#include "event_loop.h"
#include "progress.h"
#include "run.h"
#include "run_events.h"
#include "run_pacer.h"
#include "run_requests.h"
#include "run_retry.h"
#include "run_scrapes.h"
#include "run_search.h"
#include "run_session.h"
#include "run_stage.h"
#include "schedule.h"
#include "self_lag.h"
#include "wake_probe.h"

/* The run's state. run_loop.c changes it; run.c reads fatal, fatal_rc,
 * mono_zero and lag after the loop. */
struct run_loop {
    const struct run_setup *s;
    const struct config *cfg;
    struct run_outcome *out;
    struct run_events ev;             /* the base, the multi loop, the timers */
    struct run_scrapes scrapes;       /* --server-metrics */
    struct run_requests req;          /* attempts in flight */
    struct run_retry_list waiting;    /* requests waiting for their next try */
    struct run_session_list sessions; /* sessions in progress */
    struct run_pacer pacer;           /* open loop */
    struct progress progress;
    uint64_t planned; /* open loop with --duration: the sends it plans, or
                         UINT64_MAX (unknown, or no progress line) */
    struct schedule sched;
    struct self_lag lag;     /* the recorder's own event-loop lateness */
    struct keep_awake awake; /* --keep-awake, from open to the loop's end */
    struct wake_probe probe; /* cross-CPU wake-ups of the loop */
    uint64_t next_k;         /* next schedule slot */
    uint64_t shard_i;        /* --shard I/N (slots: cli_shard_next) */
    uint64_t shard_n;        /* 1: not sharded */
    uint64_t lanes;          /* closed loop: the whole run's concurrency,
                                whose lanes the shards split; 0 open */
    uint64_t max_inflight;   /* requests in flight or waiting to retry */
    uint64_t retry_rng;      /* state of the backoff jitter (retry_wait_ms) */
    double rate;             /* the open loop's requests/s now, 0: closed */
    bool cap_blocked;        /* open loop: a due request waits for the cap */
    int64_t released_ns;     /* when the last attempt ended (a place freed) */
    struct run_stage stage;  /* --sweep: the stage running */
    size_t stage_idx;
    bool stage_over;      /* the stage sends no more (its --duration ran out) */
    bool stage_written;   /* its stage record is written */
    int64_t ramp_zero_ns; /* --ramp counts from the run's or stage's start */
    int64_t send_until_ns;    /* open loop: nothing due from here is sent
                                 (--duration's end), -1 none */
    struct cli_sweep plan;    /* the stages: --sweep's, or --search's so far */
    struct run_search search; /* --search */
    uint64_t stage_final;     /* requests of the stage ended for good */
    uint64_t stage_met;       /* of them: ok within --search's TTFT */
    bool no_more;             /* no new requests (duration, signal, failure) */
    bool aborting;            /* a signal: stop the requests in flight too */
    bool fatal;               /* a write failed or memory ran out: stop now */
    int fatal_rc;
    int64_t mono_zero;
    int64_t idle_ns;
};

/* Sets up r for the run of s, reporting into out: the event base, the
 * curl multi handle, the timers, the schedule. inflight_cap: how many
 * requests the open-file limit allows at once. Returns RUN_OK or
 * RUN_E_SETUP; call run_loop_close either way. */
int run_loop_open(struct run_loop *r, const struct run_setup *s,
                  struct run_outcome *out, uint64_t inflight_cap);

/* Before the run's clock starts: the --server-metrics scrapes of the
 * server's state before any request (synchronous; none when there are no
 * URLs; with --start-at, within the time left before it). Call once,
 * before run_loop_begin. */
void run_loop_prepare(struct run_loop *r);

/* The run's clock starts at mono_zero (arrivals count from it) and the
 * progress line with it. Call once, before run_loop_run. */
void run_loop_begin(struct run_loop *r, int64_t mono_zero);

/* Runs the recording: arms --duration, sends the first requests, and
 * serves events until nothing is left to do, a signal stopped it, or a
 * failure did (r->fatal). */
void run_loop_run(struct run_loop *r);

/* A trace write outside the loop (header, footer) returned err: on an
 * error the run is failed (RUN_E_WRITE, the outcome's write_err). Returns
 * err. */
int run_loop_check_write(struct run_loop *r, int err);

/* Draws the progress line's final state at end_ns (when it is shown). */
void run_loop_end(struct run_loop *r, int64_t end_ns);

/* Frees what run_loop_open made, any attempt still in flight and any
 * retry still waiting. */
void run_loop_close(struct run_loop *r);

#endif
