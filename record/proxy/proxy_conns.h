/* proxy_conns: the client connections of one proxy, so that no client
 * can lock the others out. It raises the open-file limit, caps the
 * connections at what the limit can serve (each may need an upstream
 * socket too), closes a connection that has not sent a whole request
 * within --header-timeout of connecting or of its last reply, makes room
 * at the cap by closing the connection that has waited longest for its
 * request, answers 503 (through the caller) when there is none to close,
 * and backs off instead of spinning when accept() runs out of file
 * descriptors, answering that client 503 from a reserved descriptor.
 * Every one of them is said and counted (proxy_recorder_limit).
 *
 * evhttp owns the connections: this file holds a reference on each one's
 * bufferevent (evhttp_set_bevcb) and learns it is gone when evhttp has
 * let go of it (its callbacks cleared), on a 1 s sweep. */
#ifndef TT_PROXY_CONNS_H
#define TT_PROXY_CONNS_H

#include <event2/event.h>
#include <event2/http.h>
#include <event2/listener.h>
#include <stddef.h>

#include "proxy_record.h"

struct proxy_conns;

/* Raises the open-file limit to its hard limit (saying so when it cannot)
 * and takes over http's new connections. header_timeout_s: see above.
 * Returns 0 or -1 (out of memory; err says so). */
int proxy_conns_new(struct event_base *base, struct evhttp *http,
                    struct proxy_recorder *rec, double header_timeout_s,
                    struct proxy_conns **out, char *err, size_t errlen);

/* The listener evhttp accepts on: accept errors come here. */
void proxy_conns_listener(struct proxy_conns *c, struct evconnlistener *l);

/* The connections it admits at once, and the open-file limit. */
size_t proxy_conns_cap(const struct proxy_conns *c, size_t *fd_limit);

/* A request arrived on its connection: it stops waiting (until its reply
 * is complete). Returns 0, or -1 when the connection came in over the
 * cap: the caller answers 503 (it closes after). */
int proxy_conns_request(struct proxy_conns *c, struct evhttp_request *req);

/* Drops every reference (after evhttp_free) and frees c. */
void proxy_conns_free(struct proxy_conns *c);

#endif
