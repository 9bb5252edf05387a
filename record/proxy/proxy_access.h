/* proxy_access: who may use the proxy: the listen address (loopback
 * unless --allow-remote) and the local token a remote client must send.
 * Pure: strings in, decisions out. */
#ifndef TT_PROXY_ACCESS_H
#define TT_PROXY_ACCESS_H

#include <stdbool.h>
#include <stddef.h>

/* Splits "HOST:PORT" or "[V6]:PORT" into host (cap bytes) and port
 * (0..65535). Returns 0, or -1 when it is not such an address. */
int proxy_access_listen(const char *listen, char *host, size_t cap,
                        unsigned *port);

/* True when host is this machine's loopback (127.0.0.0/8, ::1,
 * localhost). */
bool proxy_access_loopback(const char *host);

/* The credential inside a header value: "Bearer K" -> K, else the value
 * itself, surrounding spaces removed; writes its length to *len. NULL for
 * an empty one. Borrowed from value. */
const char *proxy_access_credential(const char *value, size_t *len);

/* True when the credential sent (n bytes) equals token, compared in time
 * that does not depend on where they differ. */
bool proxy_access_token_ok(const char *sent, size_t n, const char *token);

#endif
