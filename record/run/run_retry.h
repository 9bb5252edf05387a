/* run_retry: --retry in the run, as facts about an ended attempt: whether
 * it is sent again, how long to wait first, whether the request ran out of
 * retries; and the list of requests waiting for their next attempt. It
 * arms no timer and starts nothing: run_loop.c decides. Which statuses are
 * retried and how Retry-After reads is record/net/retry.c (the policy). */
#ifndef TT_RECORD_RUN_RETRY_H
#define TT_RECORD_RUN_RETRY_H

#include <event2/event.h>
#include <stdbool.h>
#include <stdint.h>

#include "run.h"
#include "trace.h"
#include "transfer.h"

/* A request waiting to be sent again: its timer (made and armed by the
 * loop, owned by the entry) and what the next attempt needs. */
struct run_retry {
    struct event *timer;
    void *owner;       /* the loop's, for the timer callback */
    uint64_t slot_k;   /* the schedule slot: model, class, prompt */
    void *session;     /* the session it is a turn of (run_session), or NULL */
    int64_t due_ns;    /* when the next attempt may go out */
    uint32_t first_id; /* id of the first attempt */
    uint32_t attempt;  /* the attempt to send (2 for the first retry) */
    bool warmup;
    char last_kind[32]; /* error kind of the attempt it replaces */
    struct run_retry *prev, *next;
};

/* The requests waiting for their next attempt. */
struct run_retry_list {
    struct run_retry *head;
    uint64_t n;
};

/* True when attempt t, which ended as res, is to be sent again under
 * --retry max_retries (0: off): an HTTP answer with a retryable status
 * (retry_status_retryable), retries left, not stopped by the recorder. */
bool run_retry_wanted(uint64_t max_retries, const struct transfer *t,
                      const struct trace_result *res);

/* The wait in ms before attempt next_attempt of the request whose attempt
 * ended as res: its Retry-After headers (an HTTP-date against the wall
 * clock, read here), else the backoff with jitter drawn from *rng. */
int64_t run_retry_wait_ms(const struct trace_result *res, uint32_t next_attempt,
                          uint64_t *rng);

/* True when the request whose last attempt t ended as res failed because
 * its retries ran out (a retryable status, no attempt left). */
bool run_retry_exhausted(uint64_t max_retries, const struct transfer *t,
                         const struct trace_result *res);

/* A new waiting entry for the attempt after t (which ended as res): slot,
 * ids, attempt number, last kind; no timer, due_ns 0, on no list. NULL
 * when out of memory. */
struct run_retry *run_retry_new(const struct transfer *t,
                                const struct trace_result *res);

/* Frees w and its timer (which is disarmed). Take it off its list first.
 * NULL-safe. */
void run_retry_free(struct run_retry *w);

/* Puts w on l / takes it off l. */
void run_retry_link(struct run_retry_list *l, struct run_retry *w);
void run_retry_unlink(struct run_retry_list *l, struct run_retry *w);

/* Takes every waiting request off l and frees it (a signal, or teardown):
 * each ends with its last attempt, counted in out as a failed request (and
 * no longer as retried) unless out is NULL. */
void run_retry_cancel_all(struct run_retry_list *l, struct run_outcome *out);

#endif
