/* stream_events_test: SSE streams of each API kind -> token events and
 * facts. Each case is a list of receives (receive i arrives at t = i + 1);
 * every case is also fed split at every byte boundary and must give the
 * same counts. */
#include "stream_events.h"

#include <stdio.h>
#include <string.h>

#include "check.h"

#define CHAT(delta)                                                            \
    "data: {\"choices\":[{\"index\":0,\"delta\":" delta "}]}\n\n"
#define ANT(type, json) "event: " type "\ndata: " json "\n\n"

/* The facts every case states; -1 means none / unknown. */
struct want {
    int64_t tokens, reasoning, first_token, first_content, last_token;
    int64_t out, in, done;
};
#define W(tok, rea, ft, fc, lt, out, in, done)                                 \
    {                                                                          \
        tok, rea, ft, fc, lt, out, in, done                                    \
    }

struct se_case {
    const char *name;
    enum api_kind api;
    const char *recv[8]; /* NULL-terminated */
    struct want w;
    int64_t times[8]; /* token event times, -1 terminated */
    /* Optional facts (0 by default). */
    uint64_t text_bytes, text_chars, errors, comments, pings, bad_json;
    uint64_t incomplete;
    const char *error_type, *error_message, *finish;
    size_t max_event_bytes, max_tokens;
    bool oversized;
    int err;
    uint8_t first_flags; /* STREAM_TOK_CONTENT aside (test_content_flags) */
    uint32_t bare;       /* OpenAI events with choices and no text */
    int64_t usage_at;    /* usage_ns when not 0 */
    int64_t cached;      /* usage_cached_tokens + 1 when not 0 */
};

/* clang-format off */
static const struct se_case cases[] = {
    {.name = "chat: role-only first chunk, usage in the final chunk",
     .api = API_OPENAI_CHAT,
     .recv = {CHAT("{\"role\":\"assistant\",\"content\":\"\"}"),
              CHAT("{\"content\":\"Hel\"}"),
              CHAT("{\"content\":\"lo\"}")
                  "data: {\"choices\":[{\"delta\":{\"content\":\"!\"},"
                  "\"finish_reason\":\"stop\"}]}\n\n",
              "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":12,"
              "\"completion_tokens\":3}}\n\ndata: [DONE]\n\n"},
     .w = W(3, 0, 2, 2, 3, 3, 12, 4),
     .times = {2, 3, 3, -1},
     .text_bytes = 6,
     .text_chars = 6,
     .finish = "stop",
     .bare = 1,
     .usage_at = 4},
    {.name = "chat: role only, no content at all",
     .api = API_OPENAI_CHAT,
     .recv = {CHAT("{\"role\":\"assistant\"}"), "data: [DONE]\n\n"},
     .w = W(0, 0, -1, -1, -1, -1, -1, 2),
     .times = {-1},
     .bare = 1},
    {.name = "completions",
     .bare = 1,
     .api = API_OPENAI_COMPLETIONS,
     .recv = {"data: {\"choices\":[{\"text\":\"\",\"index\":0}]}\n\n",
              "data: {\"choices\":[{\"text\":\" one\"}]}\n\n",
              "data: {\"choices\":[{\"text\":\" two\",\"finish_reason\":"
              "\"length\"}],\"usage\":{\"prompt_tokens\":5,"
              "\"completion_tokens\":2}}\n\n",
              "data: [DONE]\n\n"},
     .w = W(2, 0, 2, 2, 3, 2, 5, 4),
     .times = {2, 3, -1},
     .text_bytes = 8,
     .text_chars = 8,
     .finish = "length"},
    {.name = "chat parser ignores completions text",
     .bare = 1,
     .api = API_OPENAI_CHAT,
     .recv = {"data: {\"choices\":[{\"text\":\" one\"}]}\n\n"},
     .w = W(0, 0, -1, -1, -1, -1, -1, -1),
     .times = {-1}},
    {.name = "reasoning_content then reasoning then content",
     .bare = 1,
     .api = API_OPENAI_CHAT,
     .recv = {CHAT("{\"role\":\"assistant\"}"),
              CHAT("{\"reasoning_content\":\"Let\",\"content\":null}"),
              CHAT("{\"reasoning\":\" me\",\"content\":\"\"}"),
              CHAT("{\"content\":\"Answer\"}"),
              "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":9,"
              "\"completion_tokens\":40,\"completion_tokens_details\":"
              "{\"reasoning_tokens\":30}}}\n\ndata: [DONE]\n\n"},
     .w = W(3, 2, 2, 4, 4, 40, 9, 5),
     .times = {2, 3, 4, -1},
     .text_bytes = 12,
     .text_chars = 12,
     .first_flags = STREAM_TOK_REASONING},
    {.name = "anthropic with ping and message_delta usage",
     .api = API_ANTHROPIC,
     .recv = {ANT("message_start",
                  "{\"type\":\"message_start\",\"message\":{\"id\":\"m1\","
                  "\"role\":\"assistant\",\"content\":[],\"usage\":"
                  "{\"input_tokens\":25,\"output_tokens\":1}}}")
                  ANT("content_block_start",
                      "{\"type\":\"content_block_start\",\"index\":0,"
                      "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}"),
              ANT("ping", "{\"type\": \"ping\"}"),
              ANT("content_block_delta",
                  "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                  "{\"type\":\"thinking_delta\",\"thinking\":\"Hmm\"}}"),
              ANT("content_block_delta",
                  "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                  "{\"type\":\"text_delta\",\"text\":\"Hello\"}}")
                  ANT("content_block_delta",
                      "{\"type\":\"content_block_delta\",\"index\":0,"
                      "\"delta\":{\"type\":\"text_delta\",\"text\":\"!\"}}"),
              ANT("content_block_stop",
                  "{\"type\":\"content_block_stop\",\"index\":0}")
                  ANT("message_delta",
                      "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":"
                      "\"end_turn\",\"stop_sequence\":null},\"usage\":"
                      "{\"output_tokens\":15}}"),
              ANT("message_stop", "{\"type\":\"message_stop\"}")},
     .w = W(3, 1, 3, 4, 4, 15, 25, 6),
     .times = {3, 4, 4, -1},
     .text_bytes = 9,
     .text_chars = 9,
     .pings = 1,
     .finish = "end_turn",
     .first_flags = STREAM_TOK_REASONING},
    {.name = "openai error object mid-stream",
     .api = API_OPENAI_CHAT,
     .recv = {CHAT("{\"content\":\"a\"}"),
              "data: {\"error\":{\"message\":\"upstream overloaded\","
              "\"type\":\"server_error\",\"code\":502}}\n\n"},
     .w = W(1, 0, 1, 1, 1, -1, -1, -1),
     .times = {1, -1},
     .text_bytes = 1,
     .text_chars = 1,
     .errors = 1,
     .error_type = "server_error",
     .error_message = "upstream overloaded"},
    {.name = "openai error with numeric code only",
     .api = API_OPENAI_CHAT,
     .recv = {"data: {\"error\":{\"message\":\"rate\",\"code\":429}}\n\n"},
     .w = W(0, 0, -1, -1, -1, -1, -1, -1),
     .times = {-1},
     .errors = 1,
     .error_type = "429",
     .error_message = "rate"},
    {.name = "anthropic event: error",
     .api = API_ANTHROPIC,
     .recv = {ANT("error", "{\"type\":\"error\",\"error\":{\"type\":"
                           "\"overloaded_error\",\"message\":"
                           "\"Overloaded\"}}")},
     .w = W(0, 0, -1, -1, -1, -1, -1, -1),
     .times = {-1},
     .errors = 1,
     .error_type = "overloaded_error",
     .error_message = "Overloaded"},
    {.name = "llama.cpp error: field line, then [DONE]",
     .api = API_OPENAI_CHAT,
     .recv = {CHAT("{\"content\":\"a\"}"),
              "error: {\"code\":500,\"message\":\"context shift is "
              "disabled\",\"type\":\"server_error\"}\n\n",
              "data: [DONE]\n\n"},
     .w = W(1, 0, 1, 1, 1, -1, -1, 3),
     .times = {1, -1},
     .text_bytes = 1,
     .text_chars = 1,
     .errors = 1,
     .error_type = "server_error",
     .error_message = "context shift is disabled"},
    {.name = "llama.cpp error: field before any token, numeric code only",
     .api = API_OPENAI_CHAT,
     .recv = {"error: {\"code\":400,\"message\":\"the request exceeds the "
              "available context size\"}\n\ndata: [DONE]\n\n"},
     .w = W(0, 0, -1, -1, -1, -1, -1, 1),
     .times = {-1},
     .errors = 1,
     .error_type = "400",
     .error_message = "the request exceeds the available context size"},
    {.name = "error: field with a text value",
     .api = API_ANTHROPIC,
     .recv = {"error:gone away\r\n\r\n"},
     .w = W(0, 0, -1, -1, -1, -1, -1, -1),
     .times = {-1},
     .errors = 1,
     .error_type = "error",
     .error_message = "gone away"},
    {.name = "vLLM bare ErrorResponse in a data event",
     .api = API_OPENAI_CHAT,
     .recv = {CHAT("{\"content\":\"a\"}"),
              "data: {\"object\":\"error\",\"message\":\"prompt is too "
              "long\",\"type\":\"BadRequestError\",\"param\":null,"
              "\"code\":400}\n\ndata: [DONE]\n\n"},
     .w = W(1, 0, 1, 1, 1, -1, -1, 2),
     .times = {1, -1},
     .text_bytes = 1,
     .text_chars = 1,
     .errors = 1,
     .error_type = "BadRequestError",
     .error_message = "prompt is too long"},
    {.name = "an unknown field is no error",
     .api = API_OPENAI_CHAT,
     .recv = {"warning: {\"message\":\"x\"}\n\n" CHAT("{\"content\":\"a\"}")},
     .w = W(1, 0, 1, 1, 1, -1, -1, -1),
     .times = {1, -1},
     .text_bytes = 1,
     .text_chars = 1},
    {.name = "event: error with text payload",
     .api = API_ANTHROPIC,
     .recv = {"event: error\ndata: upstream gone\n\n"},
     .w = W(0, 0, -1, -1, -1, -1, -1, -1),
     .times = {-1},
     .errors = 1,
     .bad_json = 1,
     .error_type = "error",
     .error_message = "upstream gone"},
    /* "h\xC3\xA9 \xE2\x82\xAC" is h, e-acute (2 bytes), space, euro (3
     * bytes): 7 bytes, 4 code points; \u00e9 decodes to 2 more bytes. */
    {.name = "split inside multibyte UTF-8",
     .api = API_OPENAI_CHAT,
     .recv = {"data: {\"choices\":[{\"delta\":{\"content\":\"h\xC3",
              "\xA9 \xE2\x82", "\xAC\"}}]}\n", "\n",
              CHAT("{\"content\":\"\\u00e9\"}")},
     .w = W(2, 0, 4, 4, 5, -1, -1, -1),
     .times = {4, 5, -1},
     .text_bytes = 9,
     .text_chars = 5},
    {.name = "multi-token chunks: fewer events than usage",
     .api = API_OPENAI_CHAT,
     .recv = {CHAT("{\"content\":\"Hello world,\"}"),
              CHAT("{\"content\":\" how are\"}"),
              CHAT("{\"content\":\" you today?\"}")
                  "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":4,"
                  "\"completion_tokens\":9}}\n\n"
                  "data: [DONE]\n\n"},
     .w = W(3, 0, 1, 1, 3, 9, 4, 3),
     .times = {1, 2, 3, -1},
     .text_bytes = 31,
     .text_chars = 31},
    {.name = "usage on every chunk: last wins; CRLF; keep-alives",
     .api = API_OPENAI_CHAT,
     .recv = {": keep-alive\r\n\r\n",
              "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}],"
              "\"usage\":{\"completion_tokens\":1}}\r\n\r\n",
              ": OPENROUTER PROCESSING\r\n\r\n"
              "data: {\"choices\":[{\"delta\":{\"content\":\"b\"}}],"
              "\"usage\":{\"completion_tokens\":2}}\r\n\r\n",
              "data: [DONE]\r\n\r\n"},
     .w = W(2, 0, 2, 2, 3, 2, -1, 4),
     .times = {2, 3, -1},
     .text_bytes = 2,
     .text_chars = 2,
     .comments = 2},
    {.name = "tool call arguments are generated text",
     .bare = 1,
     .api = API_OPENAI_CHAT,
     .recv = {CHAT("{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":"
                   "\"f\",\"arguments\":\"\"}}]}"),
              CHAT("{\"tool_calls\":[{\"index\":0,\"function\":"
                   "{\"arguments\":\"{\\\"a\\\"\"}}]}")},
     .w = W(1, 0, 2, 2, 2, -1, -1, -1),
     .times = {2, -1},
     .text_bytes = 4,
     .text_chars = 4,
     .first_flags = STREAM_TOK_TOOL},
    {.name = "not a stream: a plain JSON reply",
     .api = API_OPENAI_CHAT,
     .recv = {"{\"choices\":[{\"message\":{\"content\":\"hi\"}}]}"},
     .w = W(0, 0, -1, -1, -1, -1, -1, -1),
     .times = {-1},
     .incomplete = 1},
    {.name = "bad JSON and an event cut at EOF",
     .api = API_OPENAI_CHAT,
     .recv = {"data: not json\n\n", CHAT("{\"content\":\"x\"}"),
              "data: {\"choices\":[{\"delta\":{\"content\":\"y\"}}]}\n"},
     .w = W(1, 0, 2, 2, 2, -1, -1, -1),
     .times = {2, -1},
     .text_bytes = 1,
     .text_chars = 1,
     .bad_json = 1,
     .incomplete = 1},
    {.name = "oversized event dropped",
     .api = API_OPENAI_CHAT,
     .recv = {CHAT("{\"content\":\"0123456789012345678901234567890123456789"
                   "0123456789\"}"),
              CHAT("{\"content\":\"ok\"}")},
     .w = W(1, 0, 2, 2, 2, -1, -1, -1),
     .times = {2, -1},
     .text_bytes = 2,
     .text_chars = 2,
     .max_event_bytes = 64,
     .oversized = true},
    {.name = "responses: text, reasoning summary, tool args, usage",
     .api = API_OPENAI_RESPONSES,
     .recv = {ANT("response.created",
                  "{\"type\":\"response.created\",\"response\":{\"id\":"
                  "\"resp_1\",\"status\":\"in_progress\",\"error\":null,"
                  "\"usage\":null}}")
                  ANT("response.output_item.added",
                      "{\"type\":\"response.output_item.added\","
                      "\"item\":{\"type\":\"reasoning\"}}"),
              ANT("response.reasoning_summary_text.delta",
                  "{\"type\":\"response.reasoning_summary_text.delta\","
                  "\"delta\":\"Hmm\"}"),
              ANT("response.output_text.delta",
                  "{\"type\":\"response.output_text.delta\",\"delta\":"
                  "\"Hello\"}")
                  ANT("response.output_text.delta",
                      "{\"type\":\"response.output_text.delta\",\"delta\":"
                      "\"!\"}"),
              ANT("response.function_call_arguments.delta",
                  "{\"type\":\"response.function_call_arguments.delta\","
                  "\"delta\":\"{}\"}")
                  ANT("response.output_text.done",
                      "{\"type\":\"response.output_text.done\",\"text\":"
                      "\"Hello!\"}"),
              ANT("response.completed",
                  "{\"type\":\"response.completed\",\"response\":{"
                  "\"status\":\"completed\",\"usage\":{\"input_tokens\":"
                  "25,\"input_tokens_details\":{\"cached_tokens\":7},"
                  "\"output_tokens\":15,\"output_tokens_details\":{"
                  "\"reasoning_tokens\":4}}}}")},
     .w = W(4, 1, 2, 3, 4, 15, 25, 5),
     .times = {2, 3, 3, 4, -1},
     .text_bytes = 11,
     .text_chars = 11,
     .finish = "completed",
     .first_flags = STREAM_TOK_REASONING,
     .usage_at = 5,
     .cached = 7 + 1},
    {.name = "responses: incomplete at max_output_tokens",
     .api = API_OPENAI_RESPONSES,
     .recv = {ANT("response.output_text.delta",
                  "{\"type\":\"response.output_text.delta\",\"delta\":"
                  "\"ab\"}"),
              ANT("response.incomplete",
                  "{\"type\":\"response.incomplete\",\"response\":{"
                  "\"status\":\"incomplete\",\"incomplete_details\":{"
                  "\"reason\":\"max_output_tokens\"},\"usage\":{"
                  "\"input_tokens\":3,\"output_tokens\":16}}}")},
     .w = W(1, 0, 1, 1, 1, 16, 3, 2),
     .times = {1, -1},
     .text_bytes = 2,
     .text_chars = 2,
     .finish = "max_output_tokens"},
    {.name = "responses: error event",
     .api = API_OPENAI_RESPONSES,
     .recv = {ANT("response.output_text.delta",
                  "{\"type\":\"response.output_text.delta\",\"delta\":"
                  "\"a\"}"),
              ANT("error", "{\"type\":\"error\",\"code\":"
                           "\"rate_limit_exceeded\",\"message\":\"slow down\","
                           "\"param\":null}")},
     .w = W(1, 0, 1, 1, 1, -1, -1, -1),
     .times = {1, -1},
     .text_bytes = 1,
     .text_chars = 1,
     .errors = 1,
     .error_type = "rate_limit_exceeded",
     .error_message = "slow down"},
    {.name = "responses: response.failed",
     .api = API_OPENAI_RESPONSES,
     .recv = {ANT("response.failed",
                  "{\"type\":\"response.failed\",\"response\":{"
                  "\"status\":\"failed\",\"error\":{\"code\":"
                  "\"server_error\",\"message\":\"The model failed\"},"
                  "\"usage\":null}}")},
     .w = W(0, 0, -1, -1, -1, -1, -1, 1),
     .times = {-1},
     .errors = 1,
     .error_type = "server_error",
     .error_message = "The model failed",
     .finish = "failed"},
    {.name = "token cap",
     .api = API_OPENAI_CHAT,
     .recv = {CHAT("{\"content\":\"a\"}"), CHAT("{\"content\":\"b\"}"),
              CHAT("{\"content\":\"c\"}")},
     .w = W(3, 0, 1, 1, 3, -1, -1, -1),
     .times = {1, 2, -1},
     .text_bytes = 3,
     .text_chars = 3,
     .max_tokens = 2,
     .err = STREAM_E_TOO_MANY_TOKENS},
};

/* clang-format on */

#define CHECK_I(c, got, want)                                                  \
    CHECK_MSG((int64_t)(got) == (int64_t)(want), "%s: %s = %lld, want %lld",   \
              (c)->name, #got, (long long)(got), (long long)(want))

/* Sets up s for case c (caps included). */
static void setup(struct stream_state *s, const struct se_case *c)
{
    stream_state_init(s, c->api, c->max_event_bytes);
    if (c->max_tokens)
        s->max_token_events = c->max_tokens;
}

/* Checks every stated fact of a case against a state fed receive by
 * receive. */
static void check_full(const struct se_case *c, const struct stream_state *s)
{
    size_t i;
    CHECK_I(c, s->token_events, c->w.tokens);
    CHECK_I(c, s->reasoning_events, c->w.reasoning);
    CHECK_I(c, s->first_token_ns, c->w.first_token);
    CHECK_I(c, s->first_content_ns, c->w.first_content);
    CHECK_I(c, s->last_token_ns, c->w.last_token);
    CHECK_I(c, s->usage_output_tokens, c->w.out);
    CHECK_I(c, s->usage_input_tokens, c->w.in);
    CHECK_I(c, s->done_ns, c->w.done);
    CHECK_I(c, s->done_seen, c->w.done >= 0);
    CHECK_I(c, s->text_bytes, c->text_bytes);
    CHECK_I(c, s->text_chars, c->text_chars);
    CHECK_I(c, s->stream_errors, c->errors);
    CHECK_I(c, s->comments, c->comments);
    CHECK_I(c, s->pings, c->pings);
    CHECK_I(c, s->bad_json, c->bad_json);
    CHECK_I(c, s->incomplete, c->incomplete);
    CHECK_I(c, s->oversized, c->oversized);
    CHECK_I(c, s->err, c->err);
    for (i = 0; i < s->n_tokens && c->times[i] >= 0; i++)
        CHECK_I(c, s->tokens[i].t_ns, c->times[i]);
    CHECK_MSG(i == s->n_tokens && c->times[i] == -1, "%s: %zu token times",
              c->name, s->n_tokens);
    if (s->n_tokens > 0)
        CHECK_I(c, s->tokens[0].flags & ~STREAM_TOK_CONTENT, c->first_flags);
    if (c->api != API_ANTHROPIC)
        CHECK_I(c, s->bare_choices, c->bare);
    if (c->usage_at)
        CHECK_I(c, s->usage_ns, c->usage_at);
    if (c->cached)
        CHECK_I(c, s->usage_cached_tokens, c->cached - 1);
    if (c->error_type)
        CHECK_MSG(strcmp(s->error_type, c->error_type) == 0 &&
                      strcmp(s->error_message, c->error_message) == 0,
                  "%s: error %s / %s", c->name, s->error_type,
                  s->error_message);
    else
        CHECK_MSG(s->error_type[0] == '\0' && s->error_ns == -1,
                  "%s: unexpected error %s", c->name, s->error_type);
    CHECK_MSG(strcmp(s->finish_reason, c->finish ? c->finish : "") == 0,
              "%s: finish_reason %s", c->name, s->finish_reason);
}

/* The counts that must not depend on how the bytes were cut. */
static void check_same(const struct se_case *c, const struct stream_state *a,
                       const struct stream_state *b, size_t cut)
{
    CHECK_MSG(
        a->token_events == b->token_events &&
            a->reasoning_events == b->reasoning_events &&
            a->text_bytes == b->text_bytes && a->text_chars == b->text_chars &&
            a->usage_output_tokens == b->usage_output_tokens &&
            a->usage_input_tokens == b->usage_input_tokens &&
            a->usage_cached_tokens == b->usage_cached_tokens &&
            a->done_seen == b->done_seen &&
            a->stream_errors == b->stream_errors &&
            a->comments == b->comments && a->pings == b->pings &&
            a->incomplete == b->incomplete && a->sse_events == b->sse_events,
        "%s: split at %zu changes the counts", c->name, cut);
}

/* Runs a case receive by receive, then split at every byte boundary. */
static void run_case(const struct se_case *c, struct stream_state *reused)
{
    struct stream_state s, t;
    char all[4096];
    size_t n = 0, i, cut;
    setup(&s, c);
    for (i = 0; c->recv[i]; i++) {
        size_t len = strlen(c->recv[i]);
        if (n + len < sizeof(all)) {
            memcpy(all + n, c->recv[i], len);
            n += len;
        }
        stream_feed(&s, (int64_t)i + 1, c->recv[i], len);
    }
    CHECK_MSG(stream_finish(&s) == c->err, "%s: finish return", c->name);
    check_full(c, &s);

    /* The same case through a state reused from other requests. */
    stream_state_reset(reused, c->api);
    reused->max_token_events =
        c->max_tokens ? c->max_tokens : STREAM_MAX_TOKEN_EVENTS;
    if (c->max_event_bytes == 0) {
        for (i = 0; c->recv[i]; i++)
            stream_feed(reused, (int64_t)i + 1, c->recv[i], strlen(c->recv[i]));
        stream_finish(reused);
        check_full(c, reused);
    }

    for (cut = 0; cut <= n; cut++) {
        setup(&t, c);
        stream_feed(&t, 1, all, cut);
        stream_feed(&t, 2, all + cut, n - cut);
        stream_finish(&t);
        check_same(c, &s, &t, cut);
        stream_state_free(&t);
    }
    stream_state_free(&s);
}

/* Names round-trip; unknown names are refused. */
static void test_api_names(void)
{
    enum api_kind api = API_OPENAI_CHAT;
    CHECK_MSG(api_kind_from_name("anthropic", &api) == 0 &&
                  api == API_ANTHROPIC,
              "anthropic");
    CHECK_MSG(api_kind_from_name("openai-completions", &api) == 0 &&
                  api == API_OPENAI_COMPLETIONS,
              "completions");
    CHECK_MSG(strcmp(api_kind_name(API_OPENAI_CHAT), "openai-chat") == 0,
              "name");
    CHECK_MSG(api_kind_from_name("openai", &api) == -1, "bad name");
    CHECK_MSG(api_kind_from_name(NULL, &api) == -1, "NULL name");
}

/* Many token events grow the array past its first allocation. */
static void test_many_tokens(void)
{
    struct stream_state s;
    const char *ev = CHAT("{\"content\":\"x\"}");
    int i;
    stream_state_init(&s, API_OPENAI_CHAT, 0);
    for (i = 0; i < 5000; i++)
        stream_feed(&s, i, ev, strlen(ev));
    CHECK_MSG(stream_finish(&s) == 0 && s.n_tokens == 5000 &&
                  s.tokens[4999].t_ns == 4999,
              "5000 tokens: %zu", s.n_tokens);
    stream_state_free(&s);
    stream_state_free(NULL);
}

/* Which text an event carried (answer, reasoning, tool arguments), the
 * bare choice events around it, and llama.cpp's timings object, through
 * both the fast scan and cJSON. */
static void test_content_flags(bool slow)
{
    static const char *recv[] = {
        CHAT("{\"role\":\"assistant\"}"),
        CHAT("{\"reasoning_content\":\"hm\"}"),
        CHAT("{\"reasoning_content\":\"so\",\"content\":\"A\"}"),
        CHAT("{\"tool_calls\":[{\"function\":{\"arguments\":\"{}\"}}]}"),
        "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}],"
        "\"timings\":{\"prompt_n\":7,\"prompt_ms\":12.5,\"predicted_n\":4,"
        "\"predicted_ms\":30,\"predicted_per_token_ms\":7.5,\"cache_n\":2}}"
        "\n\n",
        "data: {\"choices\":[],\"usage\":{\"completion_tokens\":4}}\n\n",
    };
    static const uint8_t want[] = {STREAM_TOK_REASONING, STREAM_TOK_CONTENT,
                                   STREAM_TOK_TOOL};
    struct stream_state s;
    stream_state_init(&s, API_OPENAI_CHAT, 0);
    s.slow_json = slow;
    for (size_t i = 0; i < sizeof(recv) / sizeof(recv[0]); i++)
        stream_feed(&s, (int64_t)i + 1, recv[i], strlen(recv[i]));
    stream_finish(&s);
    CHECK_MSG(s.n_tokens == 3, "content flags: %zu tokens", s.n_tokens);
    for (size_t i = 0; i < s.n_tokens && i < 3; i++)
        CHECK_MSG(s.tokens[i].flags == want[i], "token %zu flags %u, want %u",
                  i, s.tokens[i].flags, want[i]);
    CHECK_MSG(s.bare_choices == 2 && s.bare_choice_ns[0] == 1 &&
                  s.bare_choice_ns[1] == 5,
              "bare choices %llu", (unsigned long long)s.bare_choices);
    CHECK_MSG(s.usage_ns == 6, "usage_ns %lld", (long long)s.usage_ns);
    CHECK_MSG(s.server_timings.present && s.server_timings.t_ns == 5 &&
                  s.server_timings.prompt_n == 7 &&
                  s.server_timings.prompt_ms == 12.5 &&
                  s.server_timings.predicted_n == 4 &&
                  s.server_timings.predicted_ms == 30 &&
                  s.server_timings.predicted_per_token_ms == 7.5 &&
                  s.server_timings.cache_n == 2,
              "llama.cpp timings");
    stream_state_free(&s);
}

int main(void)
{
    struct stream_state reused;
    size_t i;
    stream_state_init(&reused, API_OPENAI_CHAT, 0);
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        run_case(&cases[i], &reused);
    stream_state_free(&reused);
    test_api_names();
    test_many_tokens();
    test_content_flags(false);
    test_content_flags(true);
    if (check_failures) {
        fprintf(stderr, "stream_events_test: %d check_failures\n",
                check_failures);
        return 1;
    }
    printf("stream_events_test: %zu cases ok\n", i);
    return 0;
}
