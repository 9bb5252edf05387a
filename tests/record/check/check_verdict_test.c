/* check_verdict_test: every --check case from the facts of a probe
 * to its verdict id, cause and fix (table-driven); the notes of working
 * probes; error bodies; model lists. */
#include <string.h>

#include "check.h"
#include "check_models.h"
#include "check_verdict.h"
#include "reply_inspect.h"

/* A probe's facts, as the table gives them (unset fields: a clean 200
 * stream of 16 tokens over plain http with a key set). */
struct row {
    const char *kind;
    int status;
    const char *ctype;
    const char *curl;
    int key_state; /* 0: set (default), 1: unset, 2: empty */
    bool bearer, quoted, anthropic, https, no_tcp, tls_done, idle, sdk;
    const char *base;
    const char *server, *code, *retry, *title, *location;
    int tokens; /* token events, -1: 0 */
    uint64_t stream_errors;
    bool oversized;
    const char *alt; /* another API kind whose path answered */
    const char *want_id;
    const char *in_cause;
    const char *in_fix;
};

static const struct row rows[] = {
    {.want_id = "ok",
     .in_cause = "TTFT 200.0 ms, TPOT 20.0 ms, 16 tokens "
                 "(source: usage)",
     .in_fix = "tokentrace-record -u http://gw/api -m m"},
    {.kind = "dns",
     .curl = "Could not resolve host: gw.invalid",
     .want_id = "dns",
     .in_cause = "gw.invalid",
     .in_fix = "typos"},
    {.kind = "connect",
     .no_tcp = true,
     .curl = "Failed to connect to gw "
             "port 80 after 1000 ms: Timeout was reached",
     .want_id = "connect-timeout",
     .in_cause = "within 10 s",
     .in_fix = "dropped"},
    {.kind = "idle_timeout",
     .status = 0,
     .no_tcp = true,
     .idle = true,
     .want_id = "connect-timeout",
     .in_cause = "no TCP connection"},
    {.kind = "connect",
     .no_tcp = true,
     .curl = "Couldn't connect to server",
     .want_id = "connect",
     .in_cause = "gw:80",
     .in_fix = "port"},
    {.kind = "tls",
     .https = true,
     .curl = "SSL connection timeout",
     .want_id = "tls-timeout",
     .in_cause = "handshake did not finish",
     .in_fix = "http://"},
    {.kind = "timeout",
     .https = true,
     .curl = "Operation timed out",
     .want_id = "tls-timeout"},
    {.kind = "tls",
     .https = true,
     .tls_done = false,
     .curl = "wrong version number",
     .want_id = "tls",
     .in_cause = "wrong version number",
     .in_fix = "plain-http"},
    {.kind = "timeout",
     .curl = "Operation timed out after 30000 ms",
     .want_id = "timeout-first-byte",
     .in_cause = "no answer came within "
                 "30 s",
     .in_fix = "--timeout"},
    {.kind = "idle_timeout",
     .idle = true,
     .want_id = "timeout-first-byte",
     .in_cause = "within 20 s"},
    {.kind = "http_429",
     .status = 429,
     .retry = "7",
     .want_id = "rate-limited",
     .in_cause = "Retry-After: 7 s",
     .in_fix = "wait 7 s"},
    {.kind = "http_429",
     .status = 429,
     .want_id = "rate-limited",
     .in_cause = "no Retry-After"},
    {.kind = "http_401",
     .status = 401,
     .key_state = 1,
     .want_id = "auth-no-key",
     .in_cause = "$GW_KEY is not set",
     .in_fix = "export GW_KEY="},
    {.kind = "http_401",
     .status = 401,
     .key_state = 2,
     .want_id = "auth-no-key",
     .in_cause = "set but empty"},
    {.kind = "http_401",
     .status = 401,
     .bearer = true,
     .want_id = "auth-bearer",
     .in_cause = "Bearer Bearer",
     .in_fix = "without 'Bearer '"},
    {.kind = "http_401",
     .status = 401,
     .quoted = true,
     .want_id = "auth-quoted",
     .in_fix = "remove the quotes"},
    {.kind = "http_401",
     .status = 401,
     .anthropic = true,
     .want_id = "auth",
     .in_cause = "x-api-key",
     .in_fix = "--api openai-chat"},
    {.kind = "http_401",
     .status = 401,
     .server = "Incorrect API key",
     .want_id = "auth",
     .in_cause = "$GW_KEY (set, 40 characters, sent as "
                 "'Authorization: Bearer <key>'); the server says: \"Incorrect "
                 "API key\"",
     .in_fix = "copy it again"},
    {.kind = "http_403",
     .status = 403,
     .want_id = "forbidden",
     .in_cause = "out of quota",
     .in_fix = "balance"},
    {.kind = "html",
     .status = 200,
     .ctype = "text/html",
     .title = "Welcome",
     .want_id = "html",
     .in_cause = "page title \"Welcome\"",
     .in_fix = "not the address of its web page"},
    {.kind = "http_404",
     .status = 404,
     .ctype = "text/html",
     .want_id = "html"},
    {.kind = "http_404",
     .status = 404,
     .code = "model_not_found",
     .want_id = "unknown-model",
     .in_cause = "does not know 'm'",
     .in_fix = "gateway offers"},
    {.kind = "http_400",
     .status = 400,
     .server = "Invalid model ID: m",
     .want_id = "unknown-model"},
    {.kind = "http_404",
     .status = 404,
     .sdk = true,
     .code = "unknown_url",
     .want_id = "wrong-path",
     .in_fix = "set cline.openAiBaseUrl to "
               "http://gw/api/v1"},
    {.kind = "http_404",
     .status = 404,
     .sdk = true,
     .base = "http://gw/v1",
     .want_id = "wrong-path",
     .in_fix = "the part before"},
    {.kind = "http_404",
     .status = 404,
     .want_id = "wrong-path",
     .in_cause = "nothing answers at http://gw/api/v1/chat/completions",
     .in_fix = "the part before /v1/chat/completions"},
    /* the fix names the path of the API kind asked for */
    {.kind = "http_404",
     .status = 404,
     .anthropic = true,
     .want_id = "wrong-path",
     .in_cause = "nothing answers at http://gw/api/v1/messages",
     .in_fix = "the part before /v1/messages"},
    /* ... and when another kind's path answers, that kind */
    {.kind = "http_404",
     .status = 404,
     .anthropic = true,
     .alt = "openai-chat",
     .want_id = "wrong-api",
     .in_cause = "but POST http://gw/api/v1/chat/completions answers (HTTP "
                 "200): the server speaks openai-chat, not anthropic",
     .in_fix = "add --api openai-chat"},
    {.kind = "http_301",
     .status = 301,
     .location = "https://gw/api",
     .want_id = "redirect",
     .in_cause = "to https://gw/api"},
    {.kind = "http_422",
     .status = 422,
     .server = "max_tokens too large",
     .want_id = "bad-request",
     .in_cause = "max_tokens too large",
     .in_fix = "max_tokens 64"},
    {.kind = "http_502",
     .status = 502,
     .want_id = "server-error",
     .in_cause = "HTTP 502"},
    {.kind = "not_streamed",
     .status = 200,
     .ctype = "application/json",
     .tokens = -1,
     .want_id = "not-streamed",
     .in_cause = "TTFT cannot be measured"},
    {.kind = "reset",
     .curl = "Connection reset by peer",
     .tokens = 3,
     .want_id = "reset",
     .in_cause = "after 3 token events"},
    {.kind = "reset",
     .curl = "Empty reply from server",
     .tokens = -1,
     .status = 0,
     .want_id = "reset",
     .in_cause = "before the answer"},
    {.kind = "stream_error",
     .tokens = 3,
     .stream_errors = 1,
     .want_id = "stream-error",
     .in_cause = "after 3 token events",
     .in_fix = "users see a cut answer"},
    /* llama.cpp's HTTP 400 body for a prompt over the context (seen in
     * tests/data/real-server/err-err.ttrace.zst): deterministic */
    {.kind = "http_4xx",
     .status = 400,
     .server = "the request exceeds the available context size. try "
               "increasing the context size or enable context shift",
     .tokens = -1,
     .want_id = "context-full",
     .in_cause = "prompt longer than the context: HTTP 400",
     .in_fix = "fails the same way every time"},
    {.kind = "stream_error",
     .tokens = -1,
     .stream_errors = 1,
     .want_id = "stream-error",
     .in_cause = "an error event before the first token",
     .in_fix = "users get no answer at all"},
    {.kind = "idle_timeout",
     .idle = true,
     .tokens = 3,
     .want_id = "stall",
     .in_cause = "no data for 20 s after 3 token events"},
    {.kind = "idle_timeout",
     .idle = true,
     .tokens = -1,
     .status = 200,
     .want_id = "timeout-first-token",
     .in_cause = "HTTP 200"},
    {.kind = "oversized_event",
     .tokens = -1,
     .oversized = true,
     .want_id = "not-sse"},
    {.kind = "interrupted", .want_id = "interrupted"},
    {.kind = "transfer",
     .status = 200,
     .curl = "Failed writing received "
             "data",
     .want_id = "transfer",
     .in_cause = "Failed writing"},
    {.tokens = -1,
     .want_id = "no-token",
     .in_cause = "without generated "
                 "text",
     .in_fix = "--max-tokens 1024"},
};

/* The facts of a row. */
static void facts_of(const struct row *r, struct probe_facts *f)
{
    memset(f, 0, sizeof *f);
    f->model = "m";
    f->base = r->base ? r->base : "http://gw/api";
    f->url = r->sdk         ? "http://gw/api/chat/completions"
             : r->anthropic ? "http://gw/api/v1/messages"
                            : "http://gw/api/v1/chat/completions";
    f->host = r->https ? "gw:443" : "gw:80";
    f->https = r->https;
    f->sdk_base = r->sdk;
    f->anthropic = r->anthropic;
    f->key_source = "$GW_KEY";
    f->key_env = "GW_KEY";
    f->key_state = r->key_state == 1   ? CHECK_KEY_UNSET
                   : r->key_state == 2 ? CHECK_KEY_EMPTY
                                       : CHECK_KEY_SET;
    f->key_len = 40;
    f->key_bearer = r->bearer;
    f->key_quoted = r->quoted;
    f->max_tokens = 64;
    f->timeout_s = 30;
    f->idle_timeout_s = 20;
    f->connect_timeout_s = 10;
    f->models_hint = "";
    f->record_hint = "-u http://gw/api -m m";
    f->error_kind = r->kind ? r->kind : "";
    f->forced_idle = r->idle;
    f->curl_error = r->curl ? r->curl : "";
    f->http_status = r->status ? r->status
                     : r->kind && (strcmp(r->kind, "timeout") == 0 ||
                                   strcmp(r->kind, "idle_timeout") == 0 ||
                                   strcmp(r->kind, "dns") == 0 ||
                                   strcmp(r->kind, "connect") == 0 ||
                                   strcmp(r->kind, "tls") == 0 ||
                                   strcmp(r->kind, "reset") == 0)
                         ? (r->tokens > 0 ? 200 : 0)
                         : 200;
    f->content_type = r->ctype ? r->ctype : "text/event-stream";
    f->retry_after = r->retry ? r->retry : "";
    f->location = r->location ? r->location : "";
    f->server_message = r->server ? r->server : "";
    f->server_code = r->code ? r->code : "";
    f->html_title = r->title ? r->title : "";
    f->tcp_connected = !r->no_tcp;
    f->tls_done = r->tls_done;
    f->total_ns = 520000000;
    f->connect_ns = 100000;
    f->tls_ns = -1;
    f->first_byte_ns = 200000000;
    f->token_events = r->tokens < 0 ? 0 : r->tokens ? (uint64_t)r->tokens : 16;
    f->sse_events = f->token_events + 3;
    f->text_chars = f->token_events * 6;
    f->usage_tokens = r->tokens ? -1 : 16;
    f->json_usage_tokens = -1;
    f->ttft_ns = f->token_events ? 200000000 : -1;
    f->ttft_content_ns = f->ttft_ns;
    f->last_token_ns = f->token_events ? 500000000 : -1;
    f->done_seen = !r->kind;
    f->stream_errors = r->stream_errors;
    f->stream_error_type = "";
    f->stream_error_message = "";
    f->oversized = r->oversized;
    f->api = r->anthropic ? "anthropic" : "openai-chat";
    f->alt_api = r->alt ? r->alt : "";
    f->alt_url = r->alt ? "http://gw/api/v1/chat/completions" : "";
    f->alt_status = r->alt ? 200 : 0;
}

/* Notes of working probes: several tokens per chunk, TTFT vs TPOT. */
static void test_notes(void)
{
    struct probe_facts f;
    struct check_notes n;
    struct row ok = {.want_id = "ok"};
    const char *src;
    facts_of(&ok, &f);
    check_verdict_notes(&f, &n);
    CHECK(n.n == 0);
    CHECK(check_output_tokens(&f, &src) == 16 && strcmp(src, "usage") == 0);
    /* 64 tokens in 16 events: warned */
    f.usage_tokens = 64;
    check_verdict_notes(&f, &n);
    CHECK(n.n == 1 && n.warn[0] &&
          strstr(n.text[0], "several tokens per "
                            "chunk"));
    /* high TTFT, normal TPOT */
    facts_of(&ok, &f);
    f.ttft_ns = 2500000000LL;
    f.last_token_ns = f.ttft_ns + 15 * 5000000LL;
    check_verdict_notes(&f, &n);
    CHECK(n.n == 1 && strstr(n.text[0], "network and first-packet path"));
    /* normal TTFT, high TPOT */
    facts_of(&ok, &f);
    f.ttft_ns = 300000000;
    f.last_token_ns = f.ttft_ns + 15 * 150000000LL;
    check_verdict_notes(&f, &n);
    CHECK(n.n == 1 && strstr(n.text[0], "decoding settings and output "
                                        "length"));
    CHECK(check_tpot_ms(&f) > 149.9 && check_tpot_ms(&f) < 150.1);
    /* no usage: counted from chunks, noted; long chunks warned */
    facts_of(&ok, &f);
    f.usage_tokens = -1;
    check_verdict_notes(&f, &n);
    CHECK(n.n == 1 && !n.warn[0] && strstr(n.text[0], "no usage"));
    CHECK(check_output_tokens(&f, &src) == 16 && strcmp(src, "chunks") == 0);
    f.text_chars = 16 * 40;
    check_verdict_notes(&f, &n);
    CHECK(n.n == 1 && n.warn[0]);
    /* one token: TPOT undefined, not zero */
    f.token_events = 1;
    f.usage_tokens = 1;
    CHECK(check_tpot_ms(&f) < 0);
    /* reasoning, keep-alives, no [DONE] */
    facts_of(&ok, &f);
    f.reasoning_events = 8;
    f.comments = 3;
    f.done_seen = false;
    check_verdict_notes(&f, &n);
    CHECK(n.n == 3);
}

/* Error bodies of the usual shapes. */
static void test_bodies(void)
{
    struct reply_inspect_facts i;
    const char *openai = "{\"error\":{\"message\":\"The model `x` does not "
                         "exist\",\"type\":\"invalid_request_error\","
                         "\"code\":\"model_not_found\"}}";
    const char *anth = "{\"type\":\"error\",\"error\":{\"type\":"
                       "\"authentication_error\",\"message\":\"invalid "
                       "x-api-key\"}}";
    const char *leak = "{\"error\":\"Incorrect API key provided: "
                       "sk-abcdefghijklmnop1234\\nsee docs\"}";
    const char *full = "{\"choices\":[],\"usage\":{\"completion_tokens\":"
                       "12}}";
    const char *html = "<html><head><TITLE>\n  Sign in\n</TITLE></head>";
    reply_inspect(openai, strlen(openai), NULL, &i);
    CHECK(strcmp(i.code, "model_not_found") == 0 &&
          strstr(i.message, "does not exist"));
    reply_inspect(anth, strlen(anth), NULL, &i);
    CHECK(strcmp(i.code, "authentication_error") == 0);
    reply_inspect(leak, strlen(leak), "sk-abcdefghijklmnop1234", &i);
    CHECK(strstr(i.message, "sk-abc") == NULL &&
          strstr(i.message, "[redacted]") && strchr(i.message, '\n') == NULL);
    reply_inspect(full, strlen(full), NULL, &i);
    CHECK(i.usage_tokens == 12 && i.message[0] == '\0');
    reply_inspect(html, strlen(html), NULL, &i);
    CHECK(strcmp(i.title, "Sign in") == 0);
    reply_inspect("not json", 8, NULL, &i);
    CHECK(i.message[0] == '\0' && i.usage_tokens == -1);
}

/* Model lists and the closest name. */
static void test_models(void)
{
    char names[256], best[64];
    const char *list = "{\"object\":\"list\",\"data\":[{\"id\":\"openai/"
                       "gpt-4o\"},{\"id\":\"anthropic/claude-sonnet-4\"},"
                       "{\"id\":\"deepseek-chat\"}]}";
    CHECK(check_models_parse(list, strlen(list), "gpt-4o", 12, names,
                             sizeof names, best, sizeof best) == 3);
    CHECK(strcmp(best, "openai/gpt-4o") == 0);
    CHECK(strstr(names, "deepseek-chat") != NULL);
    CHECK(check_models_parse(list, strlen(list), "deepseek-chta", 12, names,
                             sizeof names, best, sizeof best) == 3 &&
          strcmp(best, "deepseek-chat") == 0);
    CHECK(check_models_parse(list, strlen(list), "llama", 1, names,
                             sizeof names, best, sizeof best) == 3 &&
          best[0] == '\0' && strstr(names, ", ...") != NULL);
    CHECK(check_models_parse("{}", 2, "x", 12, names, sizeof names, best,
                             sizeof best) == -1);
    CHECK(check_models_parse("[\"a\",\"b\"]", 9, "A", 12, names, sizeof names,
                             best, sizeof best) == 2 &&
          strcmp(best, "a") == 0);
}

/* Whether a list names the model, and the closest when not. */
static void test_models_listed(void)
{
    char closest[256];
    int n = 0;
    const char *list = "{\"data\":[{\"id\":\"llama-3.1-8b-instruct\"},"
                       "{\"id\":\"llama-3.1-70b-instruct\"},{\"id\":"
                       "\"qwen2.5-7b\"},{\"id\":\"models/Tiny.gguf\"}]}";
    CHECK(check_models_listed(list, strlen(list), "qwen2.5-7b", 3, closest,
                              sizeof closest, &n) == 1);
    /* a path or provider prefix, and case, do not matter */
    CHECK(check_models_listed(list, strlen(list), "tiny.gguf", 3, closest,
                              sizeof closest, &n) == 1);
    CHECK(check_models_listed(list, strlen(list), "llama-3.1-8b-instruc", 3,
                              closest, sizeof closest, &n) == 0 &&
          n == 4);
    CHECK_MSG(strcmp(closest, "'llama-3.1-8b-instruct', "
                              "'llama-3.1-70b-instruct'") == 0,
              "closest: %s", closest);
    CHECK(check_models_listed(list, strlen(list), "gpt-4o", 3, closest,
                              sizeof closest, &n) == 0 &&
          closest[0] == '\0');
    /* at most max names, nearest first */
    CHECK(check_models_listed(list, strlen(list), "llama-3.1-8b-instruc", 1,
                              closest, sizeof closest, &n) == 0 &&
          strcmp(closest, "'llama-3.1-8b-instruct'") == 0);
    CHECK(check_models_listed("{}", 2, "x", 3, closest, sizeof closest, &n) ==
          -1);
    CHECK(check_models_listed("{\"data\":[]}", 11, "x", 3, closest,
                              sizeof closest, &n) == -1);
}

int main(void)
{
    const char *const *ids = check_verdict_ids();
    size_t i, j;
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct probe_facts f;
        struct check_verdict v;
        facts_of(&rows[i], &f);
        check_verdict_classify(&f, &v);
        CHECK_MSG(strcmp(v.id, rows[i].want_id) == 0,
                  "row %zu: id %s, want "
                  "%s (%s)",
                  i, v.id, rows[i].want_id, v.cause);
        CHECK_MSG(v.ok == (strcmp(rows[i].want_id, "ok") == 0), "row %zu", i);
        CHECK_MSG(!rows[i].in_cause || strstr(v.cause, rows[i].in_cause),
                  "row %zu: cause '%s' lacks '%s'", i, v.cause,
                  rows[i].in_cause);
        CHECK_MSG(!rows[i].in_fix || strstr(v.fix, rows[i].in_fix),
                  "row %zu: fix '%s' lacks '%s'", i, v.fix, rows[i].in_fix);
        CHECK_MSG(!strchr(v.cause, '{') && !strchr(v.fix, '{'),
                  "row %zu: unexpanded placeholder in '%s' / '%s'", i, v.cause,
                  v.fix);
    }
    /* every case of the table is reached by some row */
    for (i = 0; ids[i]; i++) {
        bool seen = false;
        for (j = 0; j < sizeof rows / sizeof rows[0]; j++)
            seen |= strcmp(rows[j].want_id, ids[i]) == 0;
        CHECK_MSG(seen, "case %s has no test row", ids[i]);
    }
    test_notes();
    test_bodies();
    test_models();
    test_models_listed();
    return CHECK_DONE();
}
