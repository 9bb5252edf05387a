/* proxy_stream: one client request forwarded to the upstream and its
 * response streamed back, chunk by chunk, as it arrives. This file owns
 * every callback of an exchange (libcurl's receive callbacks, the client
 * connection's drain and close callbacks, its deferred-work event) and is
 * the one place that decides what happens next to it: start the reply,
 * pause the upstream for a slow client and resume it, end or abort the
 * reply, cancel the upstream when the client goes. What it records goes
 * through proxy_record.h. */
#ifndef TT_PROXY_STREAM_H
#define TT_PROXY_STREAM_H

#include <curl/curl.h>
#include <event2/event.h>
#include <event2/http.h>
#include <stddef.h>

#include "event_loop.h"
#include "proxy_config.h"
#include "proxy_record.h"

struct proxy_stream;

/* What every stream of a proxy shares (owned by the caller). */
struct proxy_stream_env {
    const struct proxy_config *cfg;
    struct event_base *base;
    struct evloop *loop;
    struct proxy_recorder *rec;
    const char *inject_key;    /* --key-env's key, or NULL */
    const char *token;         /* the local token, or NULL */
    struct proxy_stream *head; /* the streams alive */
    size_t active;
    struct tcp_socks socks; /* upstream sockets, for their TCP RTT */
};

/* Forwards req (evhttp's; on the client's connection) upstream. api is
 * the path's API name (recorded), or NULL (forwarded only). On failure
 * (out of memory) the client gets a 502 and nothing else happens.
 * Returns 0 or -1. */
int proxy_stream_start(struct proxy_stream_env *env, struct evhttp_request *req,
                       const char *api);

/* libcurl finished the upstream transfer of easy (a stream's, from
 * CURLINFO_PRIVATE) with code: records the result and ends or aborts the
 * reply once every chunk has left. */
void proxy_stream_upstream_done(CURL *easy, CURLcode code);

/* Ends every stream now (the proxy is stopping): unfinished upstream
 * transfers are recorded as interrupted. The client connections are the
 * caller's to free (evhttp_free). */
void proxy_stream_stop_all(struct proxy_stream_env *env);

#endif
