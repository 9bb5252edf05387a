/* run_internal: the state of a recording run, shared by run.c (lifecycle),
 * run_requests.c (starting and finishing requests) and run_timers.c (tick,
 * pacing, deadline). Not for use outside the run module. */
#ifndef TT_RECORD_RUN_INTERNAL_H
#define TT_RECORD_RUN_INTERNAL_H

#include <event2/event.h>

#include "arrival.h"
#include "event_loop.h"
#include "progress.h"
#include "run.h"
#include "schedule.h"
#include "self_lag.h"
#include "transfer.h"

/* A request waiting to be sent again (--retry): its timer and what the
 * next attempt needs. On the run's waiting list. */
struct run_retry {
    struct run *r;
    struct event *timer;
    uint64_t slot_k;   /* the schedule slot: model, class, prompt */
    int64_t due_ns;    /* when the timer is meant to fire */
    uint32_t first_id; /* id of the first attempt */
    uint32_t attempt;  /* the attempt to send (2 for the first retry) */
    bool warmup;
    char last_kind[32]; /* error kind of the attempt it replaces */
    struct run_retry *prev, *next;
};

struct run {
    const struct run_setup *s;
    const struct config *cfg;
    struct run_outcome *out;
    struct event_base *base;
    struct evloop *loop;
    struct event *tick;
    struct event *pace;     /* open loop: the next request is due */
    struct event *deadline; /* --duration */
    struct transfer_config tc;
    struct transfer_env env;
    struct progress progress;
    struct schedule sched;
    struct arrival arrival;
    uint64_t next_k;     /* next schedule slot */
    int64_t next_due_ns; /* open loop: when slot next_k is due */
    uint32_t next_id;
    struct transfer *inflight;
    uint64_t n_inflight;
    uint64_t max_inflight;     /* requests in flight or waiting to retry */
    struct run_retry *waiting; /* requests waiting for their next attempt */
    uint64_t n_waiting;
    uint64_t retry_rng; /* splitmix64 state of the backoff jitter */
    bool no_more;       /* no new requests (duration, signal, failure) */
    bool aborting;      /* a signal: stop the requests in flight too */
    bool fatal;         /* a write failed or memory ran out: stop at once */
    int fatal_rc;
    int64_t mono_zero;
    int64_t idle_ns;
    struct self_lag lag; /* the recorder's own event-loop lateness */
};

/* run.c */

/* Stops everything after a failed write (RUN_E_WRITE) or allocation. */
void run_set_fatal(struct run *r, int rc);

/* Records a write error from a trace_write_* call; returns err. */
int run_check_write(struct run *r, int err);

/* True when the schedule has another request to start now. */
bool run_has_next(const struct run *r);

/* Ends the event loop once nothing is left to do. */
void run_check_end(struct run *r);

/* run_requests.c */

/* Starts the next request of the schedule; scheduled_ns is its intended
 * send time (-1 in a closed loop). */
void run_start_next(struct run *r, int64_t scheduled_ns);

/* Starts one attempt of schedule slot k: attempt 1 (retry_of 0) or a retry
 * of request retry_of. Writes its request record. */
void run_start_attempt(struct run *r, uint64_t k, int64_t scheduled_ns,
                       uint32_t attempt, uint32_t retry_of);

/* Requests in flight plus those waiting to retry. */
uint64_t run_busy(const struct run *r);

/* Closed loop: keeps the configured number of requests in flight. */
void run_refill(struct run *r);

/* evloop callback: a transfer ended. */
void run_on_done(void *ud, CURL *easy, CURLcode code);

/* Stops a running transfer and records it with the given error kind. */
void run_stop_transfer(struct run *r, struct transfer *t, const char *kind);

/* Takes t off the in-flight list. */
void run_unlink_transfer(struct run *r, struct transfer *t);

/* run_retry.c */

/* Decides whether the attempt t, which ended as res, is sent again. When it
 * is, marks res (will_retry, retry_wait_ms) and returns a waiting retry,
 * not yet armed; else NULL (also when out of memory: the attempt is then
 * final). */
struct run_retry *run_retry_plan(struct run *r, const struct transfer *t,
                                 struct trace_result *res);

/* Arms a planned retry's timer (its result was written). Returns 0, or -1
 * (the retry was freed: count the attempt as final). */
int run_retry_arm(struct run *r, struct run_retry *w);

/* Frees a planned retry that was never armed. NULL-safe. */
void run_retry_drop(struct run_retry *w);

/* Cancels every waiting retry (a signal or teardown): each request ends
 * with its last attempt, counted as failed when count is true. */
void run_retry_cancel_all(struct run *r, bool count);

/* run_requests.c: counts a final failure of kind (outcome and progress). */
void run_count_failure(struct run *r, const char *kind);

/* run_timers.c: libevent callbacks (arg is the struct run). */
void run_on_tick(evutil_socket_t fd, short what, void *arg);
void run_on_pace(evutil_socket_t fd, short what, void *arg);
void run_on_deadline(evutil_socket_t fd, short what, void *arg);

#endif
