/* check_verdict: the table of --check cases (cause + fix per case) and the
 * template expansion that fills in the probe's facts. */
#include "check_verdict.h"

#include <string.h>
#include <strings.h>

#include "error_kinds.h"

typedef bool (*verdict_match)(const struct probe_facts *f);

struct verdict_case {
    const char *id;
    bool ok;
    verdict_match match;
    const char *cause; /* templates: {name} is replaced by a fact */
    const char *fix;
};

static bool kind_is(const struct probe_facts *f, const char *kind)
{
    return strcmp(f->error_kind, kind) == 0;
}

/* True when s contains needle, ignoring ASCII case. */
static bool has(const char *s, const char *needle)
{
    size_t n = strlen(needle);
    if (!s)
        return false;
    for (; *s; s++)
        if (strncasecmp(s, needle, n) == 0)
            return true;
    return false;
}

static bool is_timeout(const struct probe_facts *f)
{
    return kind_is(f, ERROR_KIND_TIMEOUT) ||
           kind_is(f, ERROR_KIND_IDLE_TIMEOUT);
}

static bool m_dns(const struct probe_facts *f)
{
    return kind_is(f, ERROR_KIND_DNS);
}

static bool m_connect_timeout(const struct probe_facts *f)
{
    return (kind_is(f, ERROR_KIND_CONNECT) &&
            (has(f->curl_error, "timed out") ||
             has(f->curl_error, "timeout"))) ||
           (is_timeout(f) && f->http_status == 0 && !f->tcp_connected);
}

static bool m_connect(const struct probe_facts *f)
{
    return kind_is(f, ERROR_KIND_CONNECT);
}

static bool m_tls_timeout(const struct probe_facts *f)
{
    return (kind_is(f, ERROR_KIND_TLS) && has(f->curl_error, "timeout")) ||
           (is_timeout(f) && f->https && f->tcp_connected && !f->tls_done &&
            f->http_status == 0);
}

static bool m_tls(const struct probe_facts *f)
{
    return kind_is(f, ERROR_KIND_TLS);
}

static bool m_first_byte(const struct probe_facts *f)
{
    return is_timeout(f) && f->http_status == 0;
}

static bool m_429_retry(const struct probe_facts *f)
{
    return f->http_status == 429 && f->retry_after[0];
}

static bool m_429(const struct probe_facts *f)
{
    return f->http_status == 429;
}

static bool m_401_unset(const struct probe_facts *f)
{
    return f->http_status == 401 && f->key_state == CHECK_KEY_UNSET;
}

static bool m_401_empty(const struct probe_facts *f)
{
    return f->http_status == 401 && f->key_state == CHECK_KEY_EMPTY;
}

static bool m_401_bearer(const struct probe_facts *f)
{
    return f->http_status == 401 && f->key_bearer;
}

static bool m_401_quoted(const struct probe_facts *f)
{
    return f->http_status == 401 && f->key_quoted;
}

static bool m_401_xkey(const struct probe_facts *f)
{
    return f->http_status == 401 && f->anthropic;
}

static bool m_401(const struct probe_facts *f)
{
    return f->http_status == 401;
}
static bool m_403(const struct probe_facts *f)
{
    return f->http_status == 403;
}

static bool m_html(const struct probe_facts *f)
{
    return strcmp(f->content_type, "text/html") == 0 &&
           ((f->http_status >= 200 && f->http_status < 300) ||
            f->http_status == 404);
}

/* The server's error talks about the model ("model_not_found", "The model
 * `x` does not exist", "invalid model ID", ...). */
static bool about_model(const struct probe_facts *f)
{
    static const char *const words[] = {
        "not found", "not exist",     "unknown",     "invalid",
        "no such",   "not supported", "unsupported", "not available",
        "no access", "not allowed",   "not a valid",
    };
    size_t i;
    if (has(f->server_code, "model"))
        return true;
    if (!has(f->server_message, "model"))
        return false;
    for (i = 0; i < sizeof words / sizeof words[0]; i++)
        if (has(f->server_message, words[i]))
            return true;
    return false;
}

static bool m_unknown_model(const struct probe_facts *f)
{
    return (f->http_status == 404 || f->http_status == 400 ||
            f->http_status == 422) &&
           about_model(f);
}

/* True when the base URL ends in /v1. */
static bool base_has_v1(const struct probe_facts *f)
{
    size_t n = strlen(f->base);
    return n >= 3 && strcmp(f->base + n - 3, "/v1") == 0;
}

static bool m_404_cline(const struct probe_facts *f)
{
    return f->http_status == 404 && f->sdk_base && !base_has_v1(f);
}

static bool m_404(const struct probe_facts *f)
{
    return f->http_status == 404;
}

/* 404 here while another API kind's path answers. */
static bool m_404_other_api(const struct probe_facts *f)
{
    return f->http_status == 404 && f->alt_api && f->alt_api[0];
}

static bool m_redirect(const struct probe_facts *f)
{
    return f->http_status >= 300 && f->http_status < 400;
}

static bool m_4xx(const struct probe_facts *f)
{
    return f->http_status >= 400 && f->http_status < 500;
}

static bool m_5xx(const struct probe_facts *f)
{
    return f->http_status >= 500;
}

static bool m_not_streamed(const struct probe_facts *f)
{
    return kind_is(f, ERROR_KIND_NOT_STREAMED);
}

static bool m_reset_mid(const struct probe_facts *f)
{
    return kind_is(f, ERROR_KIND_RESET) && f->token_events > 0;
}

static bool m_reset(const struct probe_facts *f)
{
    return kind_is(f, ERROR_KIND_RESET);
}

static bool m_stream_error(const struct probe_facts *f)
{
    return f->stream_errors > 0 || kind_is(f, ERROR_KIND_STREAM_ERROR);
}

/* The error came before any token: the user got no answer at all. */
static bool m_stream_error_first(const struct probe_facts *f)
{
    return m_stream_error(f) && f->token_events == 0;
}

/* Case-insensitive substring search in a NUL-terminated string. */
static bool has_words(const char *s, const char *w)
{
    size_t n = strlen(w);
    for (; s && *s; s++)
        if (strncasecmp(s, w, n) == 0)
            return true;
    return false;
}

/* The server said the prompt does not fit its context (llama.cpp's "the
 * request exceeds the available context size", OpenAI's and vLLM's
 * "maximum context length"): the same probe fails the same way every
 * time, so "check again later" would be wrong. */
static bool m_context_full(const struct probe_facts *f)
{
    static const char *const words[] = {
        "exceeds the available context size", "maximum context length",
        "context_length_exceeded", "context window", "prompt is too long"};
    const char *msgs[3] = {f->stream_error_message, f->server_message,
                           f->server_code};
    if (!m_stream_error_first(f) && !m_4xx(f))
        return false;
    for (size_t i = 0; i < 3; i++)
        for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
            if (msgs[i] && has_words(msgs[i], words[k]))
                return true;
    return false;
}

static bool m_stall(const struct probe_facts *f)
{
    return is_timeout(f) && f->token_events > 0;
}

static bool m_first_token(const struct probe_facts *f)
{
    return is_timeout(f);
}

static bool m_oversized(const struct probe_facts *f)
{
    return f->oversized;
}

static bool m_interrupted(const struct probe_facts *f)
{
    return kind_is(f, ERROR_KIND_INTERRUPTED);
}

/* Any other failure; a stream without a token has its own case below. */
static bool m_failed(const struct probe_facts *f)
{
    return f->error_kind[0] != '\0' && !kind_is(f, ERROR_KIND_NO_TOKENS);
}

static bool m_no_token(const struct probe_facts *f)
{
    return f->token_events == 0;
}

static bool m_ok(const struct probe_facts *f)
{
    (void)f;
    return true;
}

static const struct verdict_case cases[] = {
    {"interrupted", false, m_interrupted, "stopped by Ctrl-C", "-"},
    {"not-sse", false, m_oversized,
     "not an event stream: an SSE line longer than the parser's limit",
     "the reply is not server-sent events: check the base URL and that the "
     "gateway supports \"stream\": true"},
    {"dns", false, m_dns,
     "DNS: the host name of {url} does not resolve ({curl})",
     "check the host in the base URL for typos; a host that only resolves "
     "inside a VPN or a company network needs that network (or a proxy: "
     "https_proxy)"},
    {"connect-timeout", false, m_connect_timeout,
     "connect timeout: no TCP connection to {host} within {connect_timeout} "
     "s ({curl})",
     "packets to {host} are dropped: a firewall, a wrong host or port, or a "
     "network that needs a proxy (https_proxy); check the port in the base "
     "URL"},
    {"connect", false, m_connect,
     "connect: no TCP connection to {host} ({curl})",
     "nothing accepts connections there: check the scheme and the port of "
     "the base URL (https is port 443, http 80) and that the gateway is up"},
    {"tls-timeout", false, m_tls_timeout,
     "TLS timeout: connected to {host}, but the TLS handshake did not finish "
     "in time ({curl})",
     "the server on that port may not speak TLS (try http:// instead of "
     "https://), or a proxy or firewall holds the handshake"},
    {"tls", false, m_tls, "TLS: the handshake with {host} failed ({curl})",
     "an https:// URL on a plain-http port (try http://); a self-signed "
     "certificate, one from a private or company CA, or a company proxy "
     "that intercepts TLS: --cacert FILE with that certificate or CA "
     "(PEM); --insecure skips "
     "verification (last resort: anyone in between can read the key and "
     "the prompts); an expired certificate or a wrong host name is the "
     "server's to fix"},
    {"timeout-first-byte", false, m_first_byte,
     "timeout (first byte): connected to {host} and sent the request, but "
     "no answer came within {wait} s",
     "the gateway took the request and never answered: an overloaded or "
     "queued upstream, a proxy that buffers, or a port that speaks another "
     "protocol; try again, and raise --timeout if the model is slow to "
     "start"},
    {"rate-limited", false, m_429_retry,
     "rate-limited (HTTP 429, Retry-After: {retry} s): the key works but is "
     "over its request or token limit, or the gateway is busy{server}",
     "wait {retry} s and check again; when recording, lower -c / -r or ask "
     "the gateway for a higher limit"},
    {"rate-limited", false, m_429,
     "rate-limited (HTTP 429, no Retry-After): the key works but is over its "
     "request or token limit, or the gateway is busy{server}",
     "wait a minute and check again; when recording, lower -c / -r or ask "
     "the gateway for a higher limit"},
    {"auth-no-key", false, m_401_unset,
     "unauthorized (HTTP 401): no key was sent, {key_source} is not "
     "set{server}",
     "export {key_env}=<your gateway key>, or name the variable that holds "
     "it with --api-key-env VAR"},
    {"auth-no-key", false, m_401_empty,
     "unauthorized (HTTP 401): no key was sent, {key_source} is set but "
     "empty{server}",
     "export {key_env}=<your gateway key>, or name the variable that holds "
     "it with --api-key-env VAR"},
    {"auth-bearer", false, m_401_bearer,
     "unauthorized (HTTP 401): the key in {key_source} starts with "
     "'Bearer ' and 'Bearer ' is added when sending, so the gateway got "
     "'Bearer Bearer ...'{server}",
     "store only the key itself in {key_source}, without 'Bearer '"},
    {"auth-quoted", false, m_401_quoted,
     "unauthorized (HTTP 401): the key in {key_source} is wrapped in "
     "quotes, which were sent as part of the key{server}",
     "remove the quotes around the key in {key_source}"},
    {"auth", false, m_401_xkey,
     "unauthorized (HTTP 401): the gateway refused the key from "
     "{key_source} (set, {key_len} characters, sent as 'x-api-key' for "
     "--api anthropic){server}",
     "check the key; if the gateway wants 'Authorization: Bearer <key>', "
     "use --api openai-chat"},
    {"auth", false, m_401,
     "unauthorized (HTTP 401): the gateway refused the key from "
     "{key_source} (set, {key_len} characters, sent as 'Authorization: "
     "Bearer <key>'){server}",
     "the key is wrong, revoked or belongs to another gateway: copy it again "
     "from the gateway's console into {key_source}. It is sent as "
     "'Authorization: Bearer <key>', as Cline's OpenAI Compatible provider "
     "sends it"},
    {"forbidden", false, m_403,
     "forbidden (HTTP 403): the key was read but may not do this: disabled, "
     "out of quota or credit, or not allowed to use {model}{server}",
     "check the key's status, balance and model permissions in the "
     "gateway's console; a check of another model tells a per-model limit "
     "from a disabled key"},
    {"html", false, m_html,
     "HTML page instead of JSON (HTTP {status}{title}): the base URL points "
     "at a website, not at the API",
     "use the API base URL from the gateway's docs (like "
     "https://gateway.example/api or .../v1), not the address of its web "
     "page or dashboard"},
    {"unknown-model", false, m_unknown_model,
     "unknown model (HTTP {status}): the gateway does not know '{model}' or "
     "this key may not use it{server}",
     "use a model id the gateway offers to this key{models}"},
    {"wrong-path", false, m_404_cline,
     "not found (HTTP 404): nothing answers at {url}{server}",
     "Cline posts to {base_key} + /chat/completions and most "
     "gateways want that base to end in /v1: set {base_key} to "
     "{base}/v1"},
    {"wrong-api", false, m_404_other_api,
     "not found (HTTP 404): nothing answers at {url}, but POST {alt_url} "
     "answers (HTTP {alt_status}): the server speaks {alt_api}, not "
     "{api}{server}",
     "add --api {alt_api} (the base URL is right; the API kind is not)"},
    {"wrong-path", false, m_404,
     "not found (HTTP 404): nothing answers at {url}: the base URL's path "
     "is wrong{server}",
     "use the API base from the gateway's docs: the part before "
     "{api_path} (like https://gateway.example/api)"},
    {"redirect", false, m_redirect,
     "redirect (HTTP {status}) to {location}: API clients do not follow a "
     "redirected POST",
     "use the address it redirects to as the base URL (often https:// "
     "instead of http://)"},
    {"context-full", false, m_context_full,
     "prompt longer than the context: HTTP {status}{stream_error}{server}",
     "the server's context (or the slot's share of it) is smaller than the "
     "probe's prompt plus max_tokens {max_tokens}: this fails the same way "
     "every time; start the server with a larger context (llama-server -c, "
     "fewer --parallel slots; vLLM --max-model-len) or send shorter prompts "
     "and a lower --max-tokens (the analyzer counts these as stream_error "
     "or the HTTP status)"},
    {"bad-request", false, m_4xx, "request refused (HTTP {status}){server}",
     "the gateway refused the probe (a short chat request with \"stream\": "
     "true, stream_options.include_usage and max_tokens {max_tokens}); "
     "check --extra-body and --max-tokens, and whether the model needs "
     "another --api"},
    {"server-error", false, m_5xx, "server error (HTTP {status}){server}",
     "the gateway or the model behind it failed (502/504: the upstream is "
     "down or timed out); check again later, and keep the probe's trace (-o "
     "FILE) for the gateway's support"},
    {"not-streamed", false, m_not_streamed,
     "not streamed: HTTP {status} with one JSON reply to \"stream\": true "
     "after {elapsed} s{json_tokens}: TTFT cannot be measured",
     "the gateway or this route buffers the answer: turn streaming on for "
     "the key or route, or use an endpoint that streams (Cline shows nothing "
     "until the whole answer arrives)"},
    {"reset", false, m_reset_mid,
     "connection reset mid-stream after {token_events} ({curl})",
     "a proxy or load balancer cut the stream, or the upstream crashed; "
     "check again, and look at proxy timeouts and buffer limits if it "
     "repeats"},
    {"reset", false, m_reset, "connection closed before the answer ({curl})",
     "the server or a proxy hung up: check the scheme (http or https) and "
     "the port, and that the gateway is up"},
    {"stream-error", false, m_stream_error_first,
     "error inside the stream: HTTP {status}, then an error event before "
     "the first token{stream_error}",
     "the upstream failed after the gateway had answered 200 (overload, "
     "content filter, a prompt longer than the context); users get no "
     "answer at all; check again later (the analyzer counts these as "
     "stream_error)"},
    {"stream-error", false, m_stream_error,
     "error inside the stream: HTTP {status}, then after {token_events} an "
     "error event{stream_error}",
     "the upstream failed mid-answer after the gateway had answered 200 "
     "(overload, content filter, the context filled up); users see a cut "
     "answer; check again later (the analyzer counts these as "
     "stream_error)"},
    {"stall", false, m_stall,
     "stalled: no data for {wait} s after {token_events}",
     "the stream stopped without ending: a hung upstream or a buffering "
     "proxy; check again, and raise --idle-timeout if the model pauses long "
     "(long reasoning)"},
    {"timeout-first-token", false, m_first_token,
     "timeout (first token): HTTP {status} and {what}, but no token within "
     "{wait} s",
     "the model is slow to start or queued (keep-alives mean the gateway is "
     "waiting for it): raise --timeout / --idle-timeout, or try another "
     "model"},
    {"transfer", false, m_failed, "the request failed: {curl}",
     "check again; if it repeats, keep the probe's trace (-o FILE)"},
    {"no-token", false, m_no_token,
     "no token: the stream ended after {events}{done} without "
     "generated text",
     "check max_tokens (a reasoning model may spend {max_tokens} tokens on "
     "hidden reasoning: try --max-tokens 1024) and the model id; a "
     "completion-only model needs --api openai-completions"},
    {"ok", true, m_ok,
     "streams: TTFT {ttft} ms, TPOT {tpot}, {out_tokens} tokens (source: "
     "{source}), {token_events}",
     "ready to record: tokentrace-record {record} -o first.ttrace"},
};

#define N_CASES (sizeof cases / sizeof cases[0])

void check_verdict_classify(const struct probe_facts *f,
                            struct check_verdict *v)
{
    size_t i;
    for (i = 0; i < N_CASES; i++)
        if (cases[i].match(f))
            break;
    if (i == N_CASES)
        i = N_CASES - 1;
    v->ok = cases[i].ok;
    v->id = cases[i].id;
    check_verdict_expand(cases[i].cause, f, v->cause, sizeof v->cause);
    check_verdict_expand(cases[i].fix, f, v->fix, sizeof v->fix);
}

const char *const *check_verdict_ids(void)
{
    static const char *ids[N_CASES + 1];
    size_t i;
    for (i = 0; i < N_CASES; i++)
        ids[i] = cases[i].id;
    ids[N_CASES] = NULL;
    return ids;
}
