/* error_kinds: the table of error kinds and the HTTP status rule. */
#include "error_kinds.h"

#include <stdio.h>
#include <string.h>

#define REC ERROR_KIND_BY_RECORDER
#define ANA ERROR_KIND_BY_ANALYZER

const struct error_kind_desc error_kinds[] = {
    {"http_<status>", "an HTTP status of 300 or above (http_401, http_429)",
     REC | ANA},
    {ERROR_KIND_RESET, "connection reset or closed mid-stream", REC},
    {ERROR_KIND_TIMEOUT, "the total --timeout ran out", REC},
    {ERROR_KIND_IDLE_TIMEOUT, "no byte for --idle-timeout", REC},
    {ERROR_KIND_CONNECT, "connection refused, unreachable or timed out", REC},
    {ERROR_KIND_DNS, "host name not resolved", REC},
    {ERROR_KIND_TLS, "TLS handshake or certificate failure", REC},
    {ERROR_KIND_HTML, "a 2xx text/html page: the base URL is a website", REC},
    {ERROR_KIND_NOT_STREAMED,
     "a 2xx application/json reply to a stream request", REC},
    {ERROR_KIND_STREAM_ERROR,
     "a 2xx stream that carried an error (an \"error\" object, an "
     "\"event: error\", an \"error:\" line)",
     REC | ANA},
    {ERROR_KIND_INTERRUPTED, "stopped by Ctrl-C / SIGTERM", REC},
    {ERROR_KIND_WRITE, "the trace could not be written", REC},
    {ERROR_KIND_TRANSFER, "any other libcurl failure", REC},
    {ERROR_KIND_CLIENT_CANCELLED,
     "tokentrace-proxy: the client disconnected before the response ended "
     "(the upstream request was cancelled)",
     REC},
    {ERROR_KIND_PROXY_REFUSED,
     "tokentrace-proxy: it refused the request itself (a limit of its own "
     "or a malformed request; the upstream was not asked)",
     REC},
    {ERROR_KIND_OVERSIZED_EVENT,
     "an SSE line or event longer than the analyzer's cap", REC | ANA},
    {ERROR_KIND_UNFINISHED, "the trace has no result for the request", ANA},
    {ERROR_KIND_NO_TOKENS, "a 2xx stream without a single token event",
     REC | ANA},
    {ERROR_KIND_BAD_TIMES,
     "times that cannot be: a chunk before its request's start, an end "
     "before the start, token times out of order",
     ANA},
};

const size_t error_kinds_count = sizeof(error_kinds) / sizeof(*error_kinds);

bool error_kinds_http_failed(int status)
{
    return status >= 300;
}

const char *error_kinds_http(int status, char *buf, size_t len)
{
    snprintf(buf, len, ERROR_KIND_HTTP_PREFIX "%d", status);
    return buf;
}

/* True for "http_" followed by three digits, 300 to 999. */
static bool is_http_kind(const char *kind)
{
    size_t n = strlen(ERROR_KIND_HTTP_PREFIX);
    const char *d = kind + n;
    if (strncmp(kind, ERROR_KIND_HTTP_PREFIX, n) != 0)
        return false;
    for (int i = 0; i < 3; i++)
        if (d[i] < '0' || d[i] > '9')
            return false;
    return d[3] == '\0' && d[0] >= '3';
}

const struct error_kind_desc *error_kinds_find(const char *kind)
{
    if (!kind)
        return NULL;
    if (is_http_kind(kind))
        return &error_kinds[0];
    for (size_t i = 1; i < error_kinds_count; i++)
        if (strcmp(kind, error_kinds[i].name) == 0)
            return &error_kinds[i];
    return NULL;
}
