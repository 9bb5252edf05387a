/* proxy_server: the listening side: evhttp on the event base, the local
 * token check, and the libcurl multi handle (record/net/event_loop.c) on
 * the same base; each accepted request becomes a proxy_stream. */
#ifndef TT_PROXY_SERVER_H
#define TT_PROXY_SERVER_H

#include <event2/event.h>
#include <stddef.h>

#include "proxy_config.h"
#include "proxy_record.h"

struct proxy_server;

/* Binds cfg->listen on base and starts accepting. inject_key and token
 * (NULL: none) are borrowed for the server's life. Returns 0, or -1 with
 * a one-line reason in err. */
int proxy_server_new(struct event_base *base, const struct proxy_config *cfg,
                     struct proxy_recorder *rec, const char *inject_key,
                     const char *token, struct proxy_server **out, char *err,
                     size_t errlen);

/* The port actually bound. */
unsigned proxy_server_port(const struct proxy_server *s);

/* Ends every stream (recorded as interrupted), closes every connection
 * and frees the server. NULL-safe. */
void proxy_server_free(struct proxy_server *s);

#endif
