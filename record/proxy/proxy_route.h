/* proxy_route: where a client's request goes and what of it is passed on,
 * as pure string rules: the API a path speaks, the upstream URL, and the
 * headers forwarded each way (hop-by-hop ones never are). */
#ifndef TT_PROXY_ROUTE_H
#define TT_PROXY_ROUTE_H

#include <stdbool.h>
#include <stddef.h>

/* The header a client sends the local token in (--allow-remote). */
#define PROXY_TOKEN_HEADER "X-Tokentrace-Token"

/* The API name of a request path ("/v1/chat/completions?x" ->
 * "openai-chat"; ".../completions" openai-completions, ".../responses"
 * openai-responses, ".../messages" anthropic), by its last segments, any
 * prefix; NULL for a path that is not a streaming API (not recorded).
 * Static string. */
const char *proxy_route_api(const char *uri);

/* Writes base (no trailing slash needed) + uri into out: a base ending
 * in "/v1" and a uri starting "/v1/" give one "/v1" (Cline's base URL is
 * ".../v1", its requests "/v1/..." on some providers). Returns 0, or -1
 * when out (cap bytes) is too small or uri does not start with '/'. */
int proxy_route_url(const char *base, const char *uri, char *out, size_t cap);

/* True when a client request header of this name is passed upstream: not
 * hop-by-hop (Connection, Keep-Alive, TE, Trailer, Transfer-Encoding,
 * Upgrade, Proxy-*), not Host or Content-Length (libcurl sets them), not
 * Expect, not Accept-Encoding (the bytes stay uncompressed, as recorded),
 * not the local token. Authorization / x-api-key are the caller's
 * decision (forwarded, or replaced by --key-env). */
bool proxy_route_request_header(const char *name);

/* True when an upstream response header of this name is passed to the
 * client: not hop-by-hop, not Content-Length (the proxy streams the body
 * chunked). */
bool proxy_route_response_header(const char *name);

/* True for the headers a client's credential comes in, the one table of
 * them: Authorization, x-api-key, api-key, x-goog-api-key,
 * Proxy-Authorization (without case). Their values are masked in all
 * that is stored (proxy_secrets.h); --key-env replaces them upstream. */
bool proxy_route_credential_header(const char *name);

#endif
