/* run_requests: one attempt of a request, started and ended. Starting: the
 * body for a schedule slot, its transfer on the event loop, its request
 * record. Ending: how it ended, its result record. Also the list of
 * attempts in flight and the run's first trace write error. It reports
 * what happened (a run_err, the ended attempt's result) and never decides
 * what comes next: run_loop.c does. */
#ifndef TT_RECORD_RUN_REQUESTS_H
#define TT_RECORD_RUN_REQUESTS_H

#include <curl/curl.h>
#include <stdint.h>

#include "event_loop.h"
#include "reply_text.h"
#include "run.h"
#include "run_session.h"
#include "schedule.h"
#include "trace.h"
#include "transfer.h"

struct run_requests {
    const struct run_setup *s;
    struct evloop *loop; /* borrowed */
    struct transfer_config tc;
    struct transfer_env env; /* env.write_err: the run's first failed write */
    struct lag_samples receive_lag; /* env.receive_lag: kernel to hand-over */
    uint32_t next_id;               /* id of the last attempt started */
    struct transfer *inflight;      /* attempts in flight (owned) */
    uint64_t n_inflight;
    uint32_t stage;  /* the sweep stage new attempts belong to, 0: none */
    bool clamp_said; /* a drawn length was clamped to 1, and said so */
};

/* How an attempt ended: its result record, pointing into the transfer
 * (free it only after the record is written) and into the buffers here
 * (do not copy the struct). */
struct run_ended {
    struct trace_result res;
    char kind[32];
    char msg[CURL_ERROR_SIZE + 128];
    bool sse_mislabelled;   /* an event stream under another Content-Type */
    char content_type[128]; /* the type it came with, when mislabelled */
    /* A session's turn: its reply's text as received (the caller owns it:
     * reply_text_delete), else NULL. */
    struct reply_text *reply;
};

/* Prepares q for the run of s on loop (transfer settings from s->cfg).
 * Cannot fail. */
void run_requests_init(struct run_requests *q, const struct run_setup *s,
                       struct evloop *loop);

/* Starts attempt `attempt` of schedule slot k (its model, class, round in
 * slot) and writes its request record (with q->stage). sess: the session
 * it is the current turn of (its body the session's history, its record
 * the session id and turn), or NULL. scheduled_ns: the
 * intended send time (-1 in a closed loop); released_ns: when the
 * in-flight cap let it go after it waited (-1: it did not wait);
 * retry_of: id of the request's first attempt (0 for a first attempt). Returns
 * RUN_OK; RUN_E_NOMEM (out of memory: the attempt may be in flight, without its
 * record); RUN_E_WRITE (in flight, its record not written: env.write_err says
 * why). */
int run_requests_start(struct run_requests *q, uint64_t k,
                       const struct schedule_slot *slot, int64_t scheduled_ns,
                       int64_t released_ns, uint32_t attempt, uint32_t retry_of,
                       struct run_session *sess);

/* Takes t off the in-flight list and describes how it ended in *e (code:
 * libcurl's; end_ns: when the loop learnt it). Returns RUN_OK, or
 * RUN_E_WRITE when a trace write already failed (a chunk of t or earlier):
 * *e is not filled. The caller frees t. */
int run_requests_end(struct run_requests *q, struct transfer *t, CURLcode code,
                     int64_t end_ns, struct run_ended *e);

/* Writes the result record of an ended attempt. Returns RUN_OK or
 * RUN_E_WRITE (env.write_err says why). */
int run_requests_write_result(struct run_requests *q,
                              const struct run_ended *e);

/* Stops t, still in flight, early: out of the event loop, its result to
 * carry error kind `kind` (static). End it next (run_requests_end). */
void run_requests_stop(struct run_requests *q, struct transfer *t,
                       const char *kind);

/* Notes err, the result of a trace write of the run (0: it worked): the
 * first error is kept in env.write_err. Returns RUN_E_WRITE when err is
 * set, else RUN_OK. */
int run_requests_note_write(struct run_requests *q, int err);

/* Stops and frees every attempt still in flight (teardown). */
void run_requests_free_all(struct run_requests *q);

#endif
