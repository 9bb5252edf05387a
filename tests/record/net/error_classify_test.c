/* error_classify_test: how a finished transfer is named, table-driven. */
#include <string.h>

#include "check.h"
#include "error_classify.h"

static const struct {
    CURLcode code;
    const char *curl_error;
    const char *forced;
    int status;
    const char *content_type;
    bool stream_error;
    bool connected;
    const char *want;
    const char *msg; /* substring of the message */
} cases[] = {
    {CURLE_OK, "", NULL, 200, "text/event-stream", false, true, "", ""},
    {CURLE_OK, "", NULL, 200, "", false, true, "", ""},
    {CURLE_OK, "", NULL, 401, "application/json", false, true, "http_401",
     "HTTP 401 Unauthorized"},
    {CURLE_OK, "", NULL, 429, "application/json", false, true, "http_429",
     "HTTP 429"},
    {CURLE_OK, "", NULL, 302, "text/html", false, true, "http_302", "302"},
    /* an error status wins over a later transport failure */
    {CURLE_RECV_ERROR, "reset", NULL, 500, "", false, true, "http_500", "500"},
    {CURLE_OK, "", NULL, 200, "text/html", false, true, "html", "HTML"},
    {CURLE_OK, "", NULL, 200, "application/json", false, true, "not_streamed",
     "stream"},
    {CURLE_OK, "", NULL, 200, "text/event-stream", true, true, "stream_error",
     "error"},
    {CURLE_RECV_ERROR, "Connection reset by peer", NULL, 200, "", false, true,
     "reset", "reset by peer"},
    {CURLE_PARTIAL_FILE, "transfer closed", NULL, 200, "", false, true, "reset",
     "closed"},
    {CURLE_GOT_NOTHING, "Empty reply", NULL, 0, "", false, true, "reset",
     "Empty"},
    {CURLE_OPERATION_TIMEDOUT, "Operation timed out", NULL, 200, "", false,
     true, "timeout", "--timeout"},
    {CURLE_OPERATION_TIMEDOUT, "Connection timed out after 5000 ms", NULL, 0,
     "", false, false, "connect", "Connection timed out"},
    {CURLE_OPERATION_TIMEDOUT, "Resolving timed out after 5000 ms", NULL, 0, "",
     false, false, "dns", "Resolving"},
    /* TCP connected, TLS handshake never finished (a plain TCP server) */
    {CURLE_OPERATION_TIMEDOUT, "SSL connection timeout", NULL, 0, "", false,
     false, "tls", "SSL connection timeout"},
    {CURLE_COULDNT_CONNECT, "Failed to connect", NULL, 0, "", false, false,
     "connect", "Failed"},
    {CURLE_COULDNT_RESOLVE_HOST, "Could not resolve host: x.invalid", NULL, 0,
     "", false, false, "dns", "x.invalid"},
    {CURLE_SSL_CONNECT_ERROR, "wrong version number", NULL, 0, "", false, false,
     "tls", "wrong version"},
    {CURLE_PEER_FAILED_VERIFICATION, "", NULL, 0, "", false, false, "tls", ""},
    {CURLE_PEER_FAILED_VERIFICATION,
     "SSL certificate problem: self-signed "
     "certificate",
     NULL, 0, "", false, true, "tls",
     "certificate verification failed: SSL certificate problem"},
    {CURLE_WRITE_ERROR, "", NULL, 200, "", false, true, "write", ""},
    {CURLE_UNSUPPORTED_PROTOCOL, "", NULL, 0, "", false, false, "transfer", ""},
    /* kinds decided by the recorder come first */
    {CURLE_OK, "", "idle_timeout", 200, "text/event-stream", false, true,
     "idle_timeout", "--idle-timeout"},
    {CURLE_OK, "", "interrupted", 401, "", false, true, "interrupted",
     "signal"},
    {CURLE_WRITE_ERROR, "Failure writing output", "oversized_event", 200,
     "text/event-stream", false, true, "oversized_event", "16 MiB"},
};

/* A 2xx body with SSE framing is a stream whatever its Content-Type; the
 * mislabelled ones are told apart for the warning. */
static const struct {
    int status;
    const char *content_type;
    bool sse_framed;
    const char *want;
    bool mislabelled;
} body_cases[] = {
    {200, "application/json", true, "", true},
    {200, "application/json", false, "not_streamed", false},
    {200, "text/html", true, "", true},
    {200, "text/html", false, "html", false},
    {200, "text/plain", true, "", true},
    {200, "", true, "", true},
    {200, NULL, true, "", true},
    {200, "text/event-stream", true, "", false},
    {200, "text/event-stream", false, "", false},
    {206, "application/json", true, "", true},
    /* an error status keeps its kind, SSE or not */
    {500, "application/json", true, "http_500", false},
    {429, "text/event-stream", true, "http_429", false},
};

/* A 2xx stream that ended well: no token, an in-stream error and its
 * words, as the analyzer would name them. */
static const struct {
    bool token_seen, stream_error;
    const char *said; /* the server's message */
    const char *want, *msg;
} stream_cases[] = {
    {true, false, "", "", ""},
    {false, false, "", "no_tokens", "without a single token"},
    {true, true, "context shift is disabled", "stream_error",
     "the stream carried an error: context shift is disabled"},
    {false, true, "the request exceeds the available context size",
     "stream_error", "error: the request exceeds the available context size"},
    {true, true, "", "stream_error", "the stream carried an error object"},
    /* the server's words are cut at 200 bytes, on one line */
    {true, true,
     "line one\nline two "
     "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
     "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
     "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
     "END",
     "stream_error", "error: line one line two xxx"},
};

int main(void)
{
    size_t i;
    for (i = 0; i < sizeof stream_cases / sizeof stream_cases[0]; i++) {
        struct error_facts f;
        char kind_buf[32], msg[512];
        const char *kind;
        memset(&f, 0, sizeof f);
        f.code = CURLE_OK;
        f.curl_error = "";
        f.http_status = 200;
        f.content_type = "text/event-stream";
        f.sse_framed = f.connected = true;
        f.token_seen = stream_cases[i].token_seen;
        f.stream_error = stream_cases[i].stream_error;
        f.stream_error_message = stream_cases[i].said;
        kind = error_classify(&f, kind_buf, sizeof kind_buf, msg, sizeof msg);
        CHECK_MSG(strcmp(kind, stream_cases[i].want) == 0,
                  "stream case %zu: kind '%s', want '%s'", i, kind,
                  stream_cases[i].want);
        CHECK_MSG(strstr(msg, stream_cases[i].msg) != NULL &&
                      !strstr(msg, "END") && strlen(msg) < 240,
                  "stream case %zu: message '%s' lacks '%s'", i, msg,
                  stream_cases[i].msg);
    }
    for (i = 0; i < sizeof body_cases / sizeof body_cases[0]; i++) {
        struct error_facts f;
        char kind_buf[32], msg[256];
        const char *kind;
        memset(&f, 0, sizeof f);
        f.code = CURLE_OK;
        f.curl_error = "";
        f.http_status = body_cases[i].status;
        f.content_type = body_cases[i].content_type;
        f.sse_framed = body_cases[i].sse_framed;
        f.connected = true;
        f.token_seen = true;
        kind = error_classify(&f, kind_buf, sizeof kind_buf, msg, sizeof msg);
        CHECK_MSG(strcmp(kind, body_cases[i].want) == 0,
                  "body case %zu: kind '%s', want '%s'", i, kind,
                  body_cases[i].want);
        CHECK_MSG(error_classify_sse_mislabelled(f.http_status, f.content_type,
                                                 f.sse_framed) ==
                      body_cases[i].mislabelled,
                  "body case %zu: mislabelled", i);
    }
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct error_facts f;
        char kind_buf[32], msg[256];
        const char *kind;
        memset(&f, 0, sizeof f);
        f.code = cases[i].code;
        f.curl_error = cases[i].curl_error;
        f.forced = cases[i].forced;
        f.http_status = cases[i].status;
        f.reason = cases[i].status == 401 ? "Unauthorized" : "";
        f.content_type = cases[i].content_type;
        f.stream_error = cases[i].stream_error;
        f.connected = cases[i].connected;
        f.token_seen = true;
        f.timeout_s = 600;
        f.idle_timeout_s = 120;
        kind = error_classify(&f, kind_buf, sizeof kind_buf, msg, sizeof msg);
        CHECK_MSG(strcmp(kind, cases[i].want) == 0,
                  "case %zu: kind '%s', "
                  "want '%s'",
                  i, kind, cases[i].want);
        CHECK_MSG(strstr(msg, cases[i].msg) != NULL,
                  "case %zu: message '%s' lacks '%s'", i, msg, cases[i].msg);
        CHECK_MSG((kind[0] == '\0') == (msg[0] == '\0'),
                  "case %zu: message '%s' for kind '%s'", i, msg, kind);
    }
    return CHECK_DONE();
}
