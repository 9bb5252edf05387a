/* error_classify: names how a request failed, from what libcurl and the
 * response said. The kinds, their meaning and the HTTP status rule (a status
 * of 300 or above is http_<status>) are common/error_kinds.h's, shared with
 * the doctor and the analyzer; this file only decides which one applies.
 * oversized_event is forced by the recorder (stream_rx.h) when a 2xx body
 * has an SSE line or event longer than the analyzer's cap. A 2xx stream
 * that ended well but carried an error is stream_error, and one without a
 * single token no_tokens, as the analyzer derives them from the bytes, so
 * that the recorder's ok / failed counts are the analyzer's. */
#ifndef TT_RECORD_ERROR_CLASSIFY_H
#define TT_RECORD_ERROR_CLASSIFY_H

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
    bool stream_error;        /* an in-stream error was seen (stream_rx) */
    const char *stream_error_message; /* its server's words, may be "" */
    bool token_seen;  /* a token event was seen in the body (stream_rx) */
    bool sse_framed;  /* the body has a "data:" line (stream_rx) */
    bool connected;   /* the connection was established */
    double timeout_s; /* the total timeout, for messages */
    double idle_timeout_s;
};

/* True when a 2xx body was an event stream (sse_framed) under another
 * Content-Type than text/event-stream (application/json, text/plain,
 * none...): the body decides, it is recorded as a stream, and the caller
 * warns about the header. */
bool error_classify_sse_mislabelled(int http_status, const char *content_type,
                                    bool sse_framed);

/* Returns the error kind ("" on success) and writes a one-line message
 * ("" on success) into msg. The kind is a static string for fixed kinds and
 * kind_buf (at least 16 bytes) for http_<status>. */
const char *error_classify(const struct error_facts *f, char *kind_buf,
                           size_t kind_len, char *msg, size_t msglen);

#endif
