/* http_proxy: which HTTP proxy a request URL goes through, decided from the
 * environment the way libcurl decides it (http_proxy, https_proxy,
 * HTTPS_PROXY, all_proxy, ALL_PROXY; no_proxy / NO_PROXY exempting hosts),
 * so the recorder can say so and then hand libcurl exactly that choice.
 * Pure: the environment comes through a lookup function; no I/O. */
#ifndef TT_RECORD_HTTP_PROXY_H
#define TT_RECORD_HTTP_PROXY_H

#include <stdbool.h>
#include <stddef.h>

#define HTTP_PROXY_URL_MAX 1024

/* Looks up an environment variable: its value, or NULL when unset. */
typedef const char *(*http_proxy_getenv_fn)(const char *name);

struct http_proxy_choice {
    /* The proxy to use, as libcurl's CURLOPT_PROXY takes it (credentials
     * kept); "" for a direct connection. Never printed or stored. */
    char url[HTTP_PROXY_URL_MAX];
    /* url without user name and password, for notes and the trace. */
    char shown[HTTP_PROXY_URL_MAX];
    /* Where the choice came from: the variable that named the proxy
     * ("https_proxy"); when direct, the reason a set variable was not used
     * ("no_proxy", "NO_PROXY", "--no-proxy"); "" when none is set. */
    char from[32];
};

/* Decides the proxy for request_url (scheme://host[:port]/...). no_proxy
 * is --no-proxy: a direct connection whatever the environment says (from
 * is then "--no-proxy" when a proxy variable was set). A variable set to
 * "" counts as unset, as in libcurl. Returns 0, or -1 when the proxy
 * value does not fit HTTP_PROXY_URL_MAX (out says direct). */
int http_proxy_choose(const char *request_url, bool no_proxy,
                      http_proxy_getenv_fn get, struct http_proxy_choice *out);

/* The process environment (getenv), for http_proxy_choose. */
const char *http_proxy_process(const char *name);

/* One phrase for notes and the doctor: "via proxy URL (from VAR)",
 * "direct (--no-proxy)", "direct (the host is in no_proxy)"; "" when no
 * proxy variable is set (nothing to say). Returns buf. */
const char *http_proxy_describe(const struct http_proxy_choice *c, char *buf,
                                size_t cap);

/* True when host (a name, an IPv4 address or a bracketed IPv6 address)
 * is exempt by a no_proxy list: "*", names matching the host or a domain
 * it is in (a leading dot optional), addresses, IPv4 CIDR ranges;
 * separated by commas or spaces, case-insensitive. */
bool http_proxy_exempt(const char *host, const char *no_proxy_list);

#endif
