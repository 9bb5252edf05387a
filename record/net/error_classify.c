/* error_classify: maps libcurl results and responses to trace error kinds. */
#include "error_classify.h"

#include <stdio.h>
#include <string.h>

#include "error_json.h"
#include "error_kinds.h"
#include "sse.h"

/* The kind for a libcurl failure. */
static const char *curl_kind(const struct error_facts *f)
{
    switch (f->code) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
        return ERROR_KIND_DNS;
    case CURLE_COULDNT_CONNECT:
        return ERROR_KIND_CONNECT;
    case CURLE_OPERATION_TIMEDOUT:
        if (f->connected)
            return ERROR_KIND_TIMEOUT;
        /* libcurl names the phase: "Resolving timed out after ...",
         * "SSL connection timeout" (connected, handshake unfinished) */
        if (f->curl_error && strstr(f->curl_error, "Resolving timed out"))
            return ERROR_KIND_DNS;
        if (f->curl_error && strstr(f->curl_error, "SSL connection timeout"))
            return ERROR_KIND_TLS;
        return ERROR_KIND_CONNECT;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_SHUTDOWN_FAILED:
    case CURLE_USE_SSL_FAILED:
        return ERROR_KIND_TLS;
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_HTTP3:
        return ERROR_KIND_RESET;
    case CURLE_WRITE_ERROR:
        return ERROR_KIND_WRITE;
    default:
        return ERROR_KIND_TRANSFER;
    }
}

bool error_classify_sse_mislabelled(int http_status, const char *content_type,
                                    bool sse_framed)
{
    return sse_framed && http_status >= 200 && http_status < 300 &&
           (!content_type || strcmp(content_type, "text/event-stream") != 0);
}

const char *error_classify(const struct error_facts *f, char *kind_buf,
                           size_t kind_len, char *msg, size_t msglen)
{
    const char *ce = f->curl_error && *f->curl_error
                         ? f->curl_error
                         : curl_easy_strerror(f->code);
    msg[0] = '\0';
    if (f->forced) {
        if (strcmp(f->forced, ERROR_KIND_IDLE_TIMEOUT) == 0)
            snprintf(msg, msglen, "no data for %g s (--idle-timeout)",
                     f->idle_timeout_s);
        else if (strcmp(f->forced, ERROR_KIND_INTERRUPTED) == 0)
            snprintf(msg, msglen, "stopped by a signal before the end");
        else if (strcmp(f->forced, ERROR_KIND_CLIENT_CANCELLED) == 0)
            snprintf(msg, msglen,
                     "the proxy's client disconnected before "
                     "the end; the upstream request was "
                     "cancelled");
        else if (strcmp(f->forced, ERROR_KIND_PROXY_REFUSED) == 0)
            snprintf(msg, msglen, "tokentrace-proxy's own limit: %s", ce);
        else if (strcmp(f->forced, ERROR_KIND_OVERSIZED_EVENT) == 0)
            snprintf(msg, msglen,
                     "an SSE line or event longer than %zu MiB "
                     "(the analyzer's cap): stopped",
                     SSE_DEFAULT_MAX_EVENT_BYTES >> 20);
        else
            snprintf(msg, msglen, "%s", f->forced);
        return f->forced;
    }
    /* A server that answered with an error status is the story, even if
     * the connection broke afterwards. */
    if (error_kinds_http_failed(f->http_status)) {
        error_kinds_http(f->http_status, kind_buf, kind_len);
        snprintf(msg, msglen, "HTTP %d%s%s", f->http_status,
                 f->reason && *f->reason ? " " : "",
                 f->reason ? f->reason : "");
        return kind_buf;
    }
    if (f->code != CURLE_OK) {
        const char *kind = curl_kind(f);
        if (f->code == CURLE_OPERATION_TIMEDOUT && f->connected)
            snprintf(msg, msglen,
                     "request took longer than %g s "
                     "(--timeout): %s",
                     f->timeout_s, ce);
        else if (f->code == CURLE_PEER_FAILED_VERIFICATION)
            snprintf(msg, msglen,
                     "TLS certificate verification failed: %s "
                     "(a private CA: --cacert FILE; --insecure skips "
                     "verification)",
                     ce);
        else
            snprintf(msg, msglen, "%s", ce);
        return kind;
    }
    /* the body decides: SSE framing is a stream whatever the header says
     * (error_classify_sse_mislabelled); only a body without it is the page or
     * the one reply its Content-Type claims */
    if (f->http_status >= 200 && f->http_status < 300 && f->content_type &&
        !f->sse_framed) {
        if (strcmp(f->content_type, "text/html") == 0) {
            snprintf(msg, msglen,
                     "HTTP %d with an HTML page instead of an "
                     "event stream: does the base URL point at a website?",
                     f->http_status);
            return ERROR_KIND_HTML;
        }
        if (strcmp(f->content_type, "application/json") == 0) {
            snprintf(msg, msglen,
                     "HTTP %d with one JSON reply instead of an "
                     "event stream: the server ignored \"stream\": true",
                     f->http_status);
            return ERROR_KIND_NOT_STREAMED;
        }
    }
    if (f->http_status < 200) {
        snprintf(msg, msglen, "no HTTP response status");
        return ERROR_KIND_TRANSFER;
    }
    if (f->stream_error) {
        char said[ERROR_JSON_MESSAGE_MAX + 1];
        const char *m = f->stream_error_message ? f->stream_error_message : "";
        error_json_one_line(said, sizeof said, m, strlen(m),
                            ERROR_JSON_MESSAGE_MAX);
        if (said[0])
            snprintf(msg, msglen, "the stream carried an error: %s", said);
        else
            snprintf(msg, msglen, "the stream carried an error object");
        return ERROR_KIND_STREAM_ERROR;
    }
    if (!f->token_seen) {
        snprintf(msg, msglen,
                 "HTTP %d stream that ended without a single token",
                 f->http_status);
        return ERROR_KIND_NO_TOKENS;
    }
    return "";
}
