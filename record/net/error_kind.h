/* error_kind: names how a request failed, from what libcurl and the
 * response said. The kinds are part of the trace contract:
 *   http_<status>  a response status >= 300 (http_401, http_429, ...)
 *   reset          connection reset or closed mid-stream
 *   timeout        the total --timeout ran out
 *   idle_timeout   no byte for --idle-timeout seconds
 *   connect        connection refused / connect timeout / unreachable
 *   dns            host name not resolved
 *   tls            TLS handshake or certificate failure
 *   html           a 2xx text/html page (the base URL points at a website)
 *   not_streamed   a 2xx application/json reply to a stream request
 *   stream_error   a 2xx stream carrying an "error" object
 *   interrupted    stopped by Ctrl-C / SIGTERM
 *   write          the trace could not be written
 *   transfer       any other libcurl failure
 *   oversized_event a 2xx body with an SSE line or event longer than the
 *                  analyzer's cap (SSE_DEFAULT_MAX_EVENT_BYTES): the
 *                  recorder stops it (line_guard.h); the analyzer also
 *                  derives it from the bytes of a trace */
#ifndef TT_RECORD_ERROR_KIND_H
#define TT_RECORD_ERROR_KIND_H

#include <curl/curl.h>
#include <stdbool.h>
#include <stddef.h>

struct error_facts {
    CURLcode code;            /* the transfer's result */
    const char *curl_error;   /* libcurl's error buffer, may be "" or NULL */
    const char *forced;       /* kind decided by the recorder (idle_timeout,
                                 interrupted, oversized_event), or NULL */
    int http_status;          /* 0: no response */
    const char *reason;       /* reason phrase, may be NULL */
    const char *content_type; /* lower-cased media type, may be "" */
    bool stream_error;        /* an "error" object was seen in the body */
    bool connected;           /* the connection was established */
    double timeout_s;         /* the total timeout, for messages */
    double idle_timeout_s;
};

/* Returns the error kind ("" on success) and writes a one-line message
 * ("" on success) into msg. The kind is a static string for fixed kinds and
 * kind_buf (at least 16 bytes) for http_<status>. */
const char *error_kind_classify(const struct error_facts *f, char *kind_buf,
                                size_t kind_len, char *msg, size_t msglen);

#endif
