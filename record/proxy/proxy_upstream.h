/* proxy_upstream: the libcurl easy handle of one forwarded request and
 * the request headers it carries: the client's own, less hop-by-hop ones,
 * with the credential replaced when the proxy injects its key. The
 * receive callbacks are the caller's. */
#ifndef TT_PROXY_UPSTREAM_H
#define TT_PROXY_UPSTREAM_H

#include <curl/curl.h>
#include <event2/http.h>
#include <stdbool.h>
#include <stddef.h>

struct proxy_upstream_spec {
    const char *url;
    const char *method; /* "POST", "GET", ... */
    const char *body;   /* borrowed until the handle is freed */
    size_t body_len;
    struct curl_slist *headers; /* borrowed likewise */
    long timeout_ms, connect_timeout_ms;
    bool insecure;
    bool kernel_time; /* SO_TIMESTAMPNS on its sockets (rx_stamp.h) */
    curl_write_callback on_body, on_header;
    void *ud;     /* both callbacks' and CURLOPT_PRIVATE's */
    char *errbuf; /* CURL_ERROR_SIZE bytes */
    /* set when opening the upstream socket failed for want of a file
     * descriptor (the proxy's own limit, not the upstream's failure) */
    bool *out_of_fds;
};

/* A configured easy handle, or NULL when out of memory. */
CURL *proxy_upstream_new(const struct proxy_upstream_spec *s);

/* The request headers for the upstream, from the client's (in): each
 * one proxy_route_request_header passes; without the client's credential
 * headers when inject_line (a whole "Authorization: Bearer K" line) is
 * given, which is then added. Returns 0 and the list in *out (free with
 * curl_slist_free_all), or -1 when out of memory. */
int proxy_upstream_headers(struct evkeyvalq *in, const char *inject_line,
                           struct curl_slist **out);

/* The method name of an evhttp command ("POST"); NULL for one the proxy
 * does not forward. */
const char *proxy_upstream_method(enum evhttp_cmd_type cmd);

#endif
