/* proxy_hup: learns that a client closed its connection while the proxy
 * is not reading from it. evhttp stops reading a client's socket from the
 * moment a request is read until its reply starts (the whole wait for the
 * upstream's first byte), so a client that leaves then would be noticed
 * only at that byte, or at --timeout. This watches the socket for the
 * peer's close (EV_CLOSED where the backend has it, else readability and
 * a peek) and says so at once. */
#ifndef TT_PROXY_HUP_H
#define TT_PROXY_HUP_H

#include <event2/event.h>

/* Watches fd on base; gone(arg) runs once, from the loop, when the peer
 * has closed (or reset) the connection. Returns the watch, or NULL (out
 * of memory: nothing is watched). A watch whose socket turns out to have
 * bytes waiting (a pipelined request) when the backend has no EV_CLOSED
 * stops watching: the close is then noticed when evhttp reads again. */
struct event *proxy_hup_watch(struct event_base *base, evutil_socket_t fd,
                              void (*gone)(void *arg), void *arg);

/* Stops and frees a watch (NULL: nothing). Safe inside gone(). */
void proxy_hup_free(struct event *watch);

#endif
