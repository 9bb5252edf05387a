/* event_loop: one libcurl multi handle driven by a libevent event_base
 * (curl's "hiperfifo" pattern: CURLMOPT_SOCKETFUNCTION / TIMERFUNCTION hooked
 * to libevent, curl_multi_socket_action on every event). Every stream of a
 * run goes through it, from one thread. Connections are reused through the
 * multi handle's connection cache. */
#ifndef TT_RECORD_EVENT_LOOP_H
#define TT_RECORD_EVENT_LOOP_H

#include <curl/curl.h>
#include <event2/event.h>

struct evloop;

/* Called once per finished transfer, after the handle was removed from the
 * multi handle; the callee owns easy from then on. It may add new
 * transfers. */
typedef void (*evloop_done_fn)(void *ud, CURL *easy, CURLcode result);

enum evloop_err {
    EVLOOP_OK = 0,
    EVLOOP_E_NOMEM = 1,
    EVLOOP_E_CURL = 2,
};

/* Creates the multi handle on base. */
int evloop_new(struct event_base *base, evloop_done_fn done, void *ud,
               struct evloop **out);

/* Starts a transfer (curl_multi_add_handle). The loop does not own easy. */
int evloop_add(struct evloop *l, CURL *easy);

/* Stops a running transfer without calling done; the caller keeps easy. */
void evloop_remove(struct evloop *l, CURL *easy);

/* Frees the multi handle and its events. Remove transfers first.
 * NULL-safe. */
void evloop_free(struct evloop *l);

#endif
