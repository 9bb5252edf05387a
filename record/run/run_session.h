/* run_session: the sessions of a run in progress (a session workload,
 * docs/workloads.md): which turn each is at, the replies it received,
 * its think timer. Facts only: it arms nothing and starts nothing;
 * run_loop.c decides when a turn goes out.
 *
 * Ownership: a session owns its received replies and its timer; the
 * workload's conversation is borrowed (shared by every session run from
 * it, never copied). */
#ifndef TT_RECORD_RUN_SESSION_H
#define TT_RECORD_RUN_SESSION_H

#include <cjson/cJSON.h>
#include <event2/event.h>
#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "reply_text.h"
#include "schedule.h"
#include "workload.h"
#include "workload_session.h"

/* A sweep stage's sessions are numbered from stage x RUN_SESSION_STAGE_IDS
 * + 1 (stage 0: from 1), so ids stay unique across stages. */
#define RUN_SESSION_STAGE_IDS 10000000u

struct run_session {
    uint32_t id;     /* run_session_global_id: in the trace's request records */
    uint64_t slot_k; /* the schedule slot: model, class, conversation */
    const struct workload_session *ws;
    bool warmup;
    uint32_t turn;       /* the turn in flight or next, from 0 */
    cJSON **replies;     /* per turn: the reply received (owned), or NULL */
    struct event *timer; /* the think time before the next turn (owned) */
    void *owner;         /* the loop's, for the timer callback */
    int64_t due_ns;      /* when the next turn is due (while thinking) */
    int64_t think_ns;    /* the pause drawn before the next turn */
    bool thinking;       /* waiting for the next turn */
    struct run_session *prev, *next;
};

struct run_session_list {
    struct run_session *head;
    uint64_t n;        /* sessions in progress */
    uint64_t thinking; /* of them: between two turns */
    /* run_session_global_id's count: the session slots of the global
     * schedule below counted_k, in stage stage */
    uint64_t counted_k, counted;
    size_t stage;
};

/* The conversation of schedule slot slot of wl, or NULL when its item is
 * a single request. */
const struct workload_session *
run_session_of_slot(const struct workload *wl,
                    const struct schedule_slot *slot);

/* Starts the count of session ids over for sweep stage stage (its slots
 * count from 0 again). */
void run_session_ids_stage(struct run_session_list *l, size_t stage);

/* The id of the session on global slot k (k at or above every k asked
 * before in this stage): stage x RUN_SESSION_STAGE_IDS + the number of
 * session slots of the global schedule sched (of wl) below k, + 1. Every
 * shard counts the slots of all shards, so a session has the same id on
 * its shard (--shard I/N) as in one process: merged shards never mix two
 * sessions, and its think times (a function of the seed, the id and the
 * turn) are the same wherever it runs. */
uint32_t run_session_global_id(struct run_session_list *l,
                               const struct schedule *sched,
                               const struct workload *wl, uint64_t k);

/* A new session on slot k for conversation ws with id id, linked into l.
 * NULL when out of memory. */
struct run_session *run_session_start(struct run_session_list *l, uint64_t k,
                                      uint32_t id,
                                      const struct workload_session *ws,
                                      bool warmup);

/* Moves s to its next turn after its current one ended at end_ns with
 * reply (NULL: none received): keeps the reply when the next turns' history
 * needs it (cfg's --history, a turn with no captured reply), then draws the
 * think time before the next turn (a captured turn waits as long as its
 * user did) and sets due_ns. Call only when run_session_has_more. Returns
 * 0, or -1 out of memory. */
int run_session_advance(struct run_session *s, const struct config *cfg,
                        struct reply_text *reply, int64_t end_ns);

/* The messages of the session's current turn (workload_session_history):
 * the history with the received replies (HISTORY_RECEIVED) or the
 * file's (HISTORY_RECORDED; a turn the file gives none for uses the
 * received one). NULL when out of memory. */
cJSON *run_session_messages(const struct run_session *s,
                            enum history_mode mode);

/* True when the session has a turn after its current one. */
bool run_session_has_more(const struct run_session *s);

/* Marks s as between turns (or not), keeping l's count. */
void run_session_set_thinking(struct run_session_list *l, struct run_session *s,
                              bool thinking);

/* Takes s off l and frees it (its replies, its timer). NULL-safe. */
void run_session_end(struct run_session_list *l, struct run_session *s);

/* Ends every session of l between two turns (a signal, --duration,
 * teardown): their next turns are not sent. */
void run_session_end_thinking(struct run_session_list *l);

#endif
