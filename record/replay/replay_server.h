/* replay_server: the listening socket, the evhttp server and the event
 * loop of tokentrace-replay. */
#ifndef TT_REPLAY_SERVER_H
#define TT_REPLAY_SERVER_H

#include <stddef.h>
#include <stdint.h>

#include "keep_awake.h"
#include "replay_capacity.h"
#include "replay_config.h"
#include "replay_prefix_cache.h"

struct event;
struct event_base;
struct evhttp;
struct evhttp_request;

struct replay_server {
    const struct replay_config *cfg; /* borrowed */
    struct event_base *base;
    struct evhttp *http;
    struct replay_streams *streams;
    struct replay_send_log *log;
    struct replay_trace_source *trace;
    uint64_t fault_rng; /* rng.h state of the fault picks */
    struct event *sig_int, *sig_term;
    uint64_t n_requests;
    uint64_t n_images; /* image parts in the requests parsed */
    int port;
    /* the batch model's slots: one per model profile, then the default's */
    struct replay_capacity capacity[SYNTH_MAX_MODELS + 1];
    /* --synthetic cache=N: each model's prefix cache */
    struct replay_prefix_caches caches;
    /* the sending side's keep-awake, from replay_server_keep_awake on */
    struct keep_awake awake;
    int64_t awake_zero_ns; /* when it started (its changes count from it) */
};

/* Loads the trace (if any), opens the send log, binds and listens.
 * Returns 0, or -1 with a one-line reason in err (*out is then NULL). */
int replay_server_open(const struct replay_config *cfg,
                       struct replay_server **out, char *err, size_t errlen);

/* Starts the sending side's keep-awake (--keep-awake) on the calling
 * thread, which must be the one that runs and closes srv, and says on
 * stderr what runs ("keep-awake: spin on CPU 1"). Call it before telling
 * anyone the port: a reader of the port file then finds the note already
 * written. Never fails (keep_awake_start). */
void replay_server_keep_awake(struct replay_server *srv);

/* Serves until SIGINT/SIGTERM. Returns 0, or -1 when the loop failed. */
int replay_server_run(struct replay_server *srv);

/* Stops the keep-awake, frees streams, connections, the log (flushed) and
 * the loop. Returns 0, or
 * an errno when the send log could not be written. NULL-safe. */
int replay_server_close(struct replay_server *srv);

/* evhttp's callback for every request (replay_handler.c). */
void replay_handle_request(struct evhttp_request *req, void *arg);

#endif
