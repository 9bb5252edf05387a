/* resp_headers: the response status and the selected response headers of a
 * request, collected from libcurl's header callback. Credential-bearing
 * headers are kept only as "[redacted]", and the run's key, wherever it
 * shows up in a kept value or the reason phrase, as "[redacted]" too. */
#ifndef TT_RECORD_RESP_HEADERS_H
#define TT_RECORD_RESP_HEADERS_H

#include <stddef.h>

#include "trace.h"

#define RESP_HEADERS_MAX 32
#define RESP_HEADER_VALUE_MAX 512

struct resp_headers {
    int status;      /* of the last status line, 0 before one */
    char reason[64]; /* its reason phrase ("Too Many Requests"), may be "" */
    struct trace_kv kv[RESP_HEADERS_MAX]; /* owned strings */
    size_t n;
    char content_type[128]; /* lower-cased media type, "" if none */
    const char *secret;     /* borrowed: the key to redact, NULL for none */
};

/* Starts empty. */
void resp_headers_init(struct resp_headers *h);

/* Redacts every occurrence of secret (borrowed; NULL or "" for none) in
 * the headers and reason phrase fed from now on. */
void resp_headers_set_secret(struct resp_headers *h, const char *secret);

/* Feeds one header line exactly as libcurl passes it (with its CRLF). A
 * status line ("HTTP/1.1 200 OK") starts a new response: headers of an
 * earlier one (100 Continue) are dropped. Returns 0, or -1 when out of
 * memory (the header is then skipped). */
int resp_headers_line(struct resp_headers *h, const char *line, size_t len);

/* Frees the stored strings; the struct is empty afterwards. */
void resp_headers_free(struct resp_headers *h);

#endif
