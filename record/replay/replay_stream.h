/* replay_stream: the per-request engine. It owns one evhttp request, one
 * timer and a producer (synthetic or trace) that supplies timed steps; it
 * performs each step at its absolute CLOCK_MONOTONIC due time, logs every
 * body write, and frees everything when the reply ends or the client goes
 * away. One event_base, one thread. */
#ifndef TT_REPLAY_STREAM_H
#define TT_REPLAY_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "replay_steps.h"

struct event_base;
struct evhttp_request;
struct keep_awake;
struct replay_send_log;

/* A source of steps. refill appends at least one step to the (empty) queue
 * and returns 0, or returns -1 when it cannot (out of memory: the engine
 * then aborts the connection). free releases the state. */
struct replay_producer {
    int (*refill)(void *state, struct replay_steps *q);
    void (*free)(void *state);
};

struct replay_streams;

/* Creates the set of live streams on base; log may be NULL. Returns 0 or
 * ENOMEM. */
int replay_streams_new(struct event_base *base, struct replay_send_log *log,
                       struct replay_streams **out);

/* Frees every live stream (their requests stay with evhttp, which frees
 * them in evhttp_free), then the set. NULL-safe. */
void replay_streams_free(struct replay_streams *set);

/* Tells awake (borrowed; it must outlive set) whenever the first stream
 * starts and the last one ends, so it spins only while there is something
 * to send (keep_awake_busy). */
void replay_streams_set_awake(struct replay_streams *set,
                              struct keep_awake *awake);

/* Streams alive now. */
size_t replay_streams_active(const struct replay_streams *set);

/* Streams the client closed before their end, since start. */
uint64_t replay_streams_aborted(const struct replay_streams *set);

/* Starts serving req with producer p. Takes ownership of state (freed with
 * p->free even on failure). log_id names the request in the send log.
 * Returns 0 or ENOMEM (then a 500 has been sent). */
int replay_stream_start(struct replay_streams *set, struct evhttp_request *req,
                        const char *log_id, const struct replay_producer *p,
                        void *state);

/* Sends a whole reply at once (through the send log). body may be NULL.
 * header_name/value add one optional header. */
void replay_streams_reply(struct replay_streams *set,
                          struct evhttp_request *req, const char *log_id,
                          int status, const char *content_type,
                          const char *header_name, const char *header_value,
                          const char *body, size_t len);

#endif
