/* run_internal: the state of a recording run, shared by run.c (lifecycle),
 * run_requests.c (starting and finishing requests) and run_timers.c (tick,
 * pacing, deadline). Not for use outside the run module. */
#ifndef TT_RECORD_RUN_INTERNAL_H
#define TT_RECORD_RUN_INTERNAL_H

#include <event2/event.h>

#include "event_loop.h"
#include "progress.h"
#include "self_lag.h"
#include "run.h"
#include "schedule.h"
#include "transfer.h"

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
    uint64_t max_inflight;
    bool no_more;  /* no new requests (duration, signal, failure) */
    bool aborting; /* a signal: stop the requests in flight too */
    bool fatal;    /* a write failed or memory ran out: stop at once */
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

/* Closed loop: keeps the configured number of requests in flight. */
void run_refill(struct run *r);

/* evloop callback: a transfer ended. */
void run_on_done(void *ud, CURL *easy, CURLcode code);

/* Stops a running transfer and records it with the given error kind. */
void run_stop_transfer(struct run *r, struct transfer *t, const char *kind);

/* Takes t off the in-flight list. */
void run_unlink_transfer(struct run *r, struct transfer *t);

/* run_timers.c: libevent callbacks (arg is the struct run). */
void run_on_tick(evutil_socket_t fd, short what, void *arg);
void run_on_pace(evutil_socket_t fd, short what, void *arg);
void run_on_deadline(evutil_socket_t fd, short what, void *arg);

#endif
