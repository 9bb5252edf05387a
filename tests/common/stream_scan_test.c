/* stream_scan_test: stream_events' JSON fast scan (common/stream_scan.c)
 * gives exactly what the cJSON path gives. Every input is fed twice, once
 * as usual and once with the state's slow_json flag (cJSON for every
 * event), and every fact and token event of the two states must match:
 *   - every file of tests/fuzz/corpus/NAME and tests/fuzz/crashes/NAME: as a
 *     fuzz_stream_events input, as a raw body of each API kind, and, when
 *     it reads as a trace, each request's chunks as recorded;
 *   - traces named on the command line (analyze_fast_path.sh passes
 *     recordings of the replay server's OpenAI and Anthropic streams);
 *   - a table of events at the edges of JSON and of cJSON (duplicates,
 *     escapes, surrogates, numbers, nesting, trailing bytes), with the
 *     decision the scan must take on each (decide or hand over to cJSON);
 *   - every one-byte deletion, replacement and insertion of the common
 *     event shapes.
 *
 * usage: stream_scan_test [TRACE...]   (no argument: the built-in inputs) */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fuzz_files.h"
#include "sse.h"
#include "stream_events.h"
#include "stream_scan.h"
#include "trace.h"

#ifndef TT_FUZZ_DIR
#define TT_FUZZ_DIR "tests/fuzz"
#endif

static unsigned long bodies, events, decided;

/* ---- the two paths side by side ------------------------------------------ */

/* Compares every fact of two states fed the same bytes; names what differs. */
static void check_same(const char *what, const struct stream_state *a,
                       const struct stream_state *b)
{
    int before = check_failures;
#define SAME(f) CHECK_MSG(a->f == b->f, "%s: " #f " differs", what)
#define SAME_STR(f)                                                            \
    CHECK_MSG(strcmp(a->f, b->f) == 0, "%s: " #f " '%s' vs '%s'", what, a->f,  \
              b->f)
    SAME(n_tokens);
    for (size_t i = 0; i < a->n_tokens && i < b->n_tokens; i++) {
        SAME(tokens[i].t_ns);
        SAME(tokens[i].text_bytes);
        SAME(tokens[i].pieces);
        SAME(tokens[i].flags);
    }
    SAME(first_token_ns);
    SAME(first_content_ns);
    SAME(last_token_ns);
    SAME(token_events);
    SAME(reasoning_events);
    SAME(text_bytes);
    SAME(text_chars);
    SAME(reasoning_bytes);
    SAME(usage_output_tokens);
    SAME(usage_input_tokens);
    SAME(usage_reasoning_tokens);
    SAME(usage_ns);
    SAME(bare_choices);
    SAME(n_bare_ns);
    SAME(empty_choices);
    SAME(usage_bare_output_tokens);
    SAME(tool_call_events);
    SAME(tool_call_first_ns);
    SAME(tool_call_last_ns);
    SAME(tool_name_first_ns);
    SAME(tool_name_last_ns);
    for (size_t i = 0; i < a->n_bare_ns; i++)
        SAME(bare_choice_ns[i]);
    SAME(server_timings.present);
    SAME(server_timings.prompt_n);
    SAME(server_timings.predicted_n);
    SAME(bytes);
    SAME(sse_events);
    SAME(json_events);
    SAME(bad_json);
    SAME(comments);
    SAME(pings);
    SAME(finish_reasons);
    SAME_STR(finish_reason);
    SAME(done_seen);
    SAME(done_ns);
    SAME(first_byte_ns);
    SAME(last_feed_ns);
    SAME(stream_errors);
    SAME_STR(error_type);
    SAME_STR(error_message);
    SAME(error_ns);
    SAME(oversized);
    SAME(incomplete);
    SAME(err);
#undef SAME
#undef SAME_STR
    if (check_failures > before && check_failures - before < 3)
        fprintf(stderr, "  (%s: %zu tokens fast, %zu cJSON)\n", what,
                a->n_tokens, b->n_tokens);
}

/* SSE callback that only counts JSON events (not [DONE]) and the scan's
 * decisions. */
static void count_event(void *ctx, const struct sse_event *ev)
{
    struct stream_scan_facts f;
    enum api_kind api = *(enum api_kind *)ctx;
    if (ev->data_len == 6 && memcmp(ev->data, "[DONE]", 6) == 0)
        return;
    events++;
    decided += stream_scan_event(api, ev->data, ev->data_len, &f);
}

/* Feeds body in pieces of step bytes (0: whole), each piece 10 ns after
 * the one before, with the fast scan on or off. */
static void feed(struct stream_state *s, enum api_kind api, bool slow,
                 const uint8_t *body, size_t n, size_t step)
{
    int64_t t = 1000;
    stream_state_init(s, api, 0);
    s->slow_json = slow;
    if (step == 0)
        step = n ? n : 1;
    for (size_t off = 0; off < n; off += step, t += 10)
        (void)stream_feed(s, t, body + off, n - off < step ? n - off : step);
    (void)stream_finish(s);
}

/* One body through both paths, whole and (unless whole_only) in 7-byte
 * pieces. */
static void compare_feeds(const char *what, enum api_kind api,
                          const uint8_t *body, size_t n, bool whole_only)
{
    static const size_t steps[] = {0, 7};
    struct sse_parser p;
    struct sse_handler h = {count_event, NULL, NULL, NULL};
    for (size_t i = 0; i < (whole_only ? 1 : 2); i++) {
        struct stream_state fast, slow;
        char name[600];
        snprintf(name, sizeof(name), "%s [%s, step %zu]", what,
                 api_kind_name(api), steps[i]);
        feed(&fast, api, false, body, n, steps[i]);
        feed(&slow, api, true, body, n, steps[i]);
        check_same(name, &fast, &slow);
        stream_state_free(&fast);
        stream_state_free(&slow);
    }
    h.ctx = &api;
    sse_parser_init(&p, 0);
    (void)sse_parser_feed(&p, 0, body, n, &h);
    sse_parser_free(&p);
    bodies++;
}

static void compare_body(const char *what, enum api_kind api,
                         const uint8_t *body, size_t n)
{
    compare_feeds(what, api, body, n, false);
}

/* ---- files: fuzz inputs and traces -------------------------------------- */

/* Each request's chunks of a trace, compared request by request, with the
 * API kind of its header. Returns false when path is not a trace. */
static bool compare_trace(const char *path)
{
    struct trace_reader *r;
    struct trace_record rec;
    struct stream_state fast[64], slow[64];
    bool used[64] = {false};
    enum api_kind api = API_OPENAI_CHAT;
    int st;
    unsigned long before = events;
    if (trace_reader_open(path, &r) != TRACE_OK)
        return false;
    while ((st = trace_reader_next(r, &rec)) > 0) {
        uint32_t slot;
        if (rec.kind == TRACE_HEADER &&
            api_kind_from_name(rec.u.header.api, &api) != 0)
            api = API_OPENAI_CHAT;
        if (rec.kind == TRACE_REQUEST) {
            slot = rec.u.request.id % 64;
            if (used[slot]) {
                stream_state_free(&fast[slot]);
                stream_state_free(&slow[slot]);
            }
            stream_state_init(&fast[slot], api, 0);
            stream_state_init(&slow[slot], api, 0);
            fast[slot].slow_json = false;
            slow[slot].slow_json = true;
            used[slot] = true;
        }
        if (rec.kind == TRACE_CHUNK && used[rec.u.chunk.request_id % 64]) {
            const struct trace_chunk *c = &rec.u.chunk;
            struct sse_parser p;
            struct sse_handler h = {count_event, NULL, &api, NULL};
            slot = c->request_id % 64;
            (void)stream_feed(&fast[slot], c->t_ns, c->data, c->len);
            (void)stream_feed(&slow[slot], c->t_ns, c->data, c->len);
            /* Count the decisions on whole chunks (events seldom split). */
            sse_parser_init(&p, 0);
            (void)sse_parser_feed(&p, 0, c->data, c->len, &h);
            sse_parser_free(&p);
        }
        if (rec.kind == TRACE_RESULT && used[rec.u.result.id % 64]) {
            char what[600];
            slot = rec.u.result.id % 64;
            snprintf(what, sizeof(what), "%s request %" PRIu32, path,
                     rec.u.result.id);
            (void)stream_finish(&fast[slot]);
            (void)stream_finish(&slow[slot]);
            check_same(what, &fast[slot], &slow[slot]);
            stream_state_free(&fast[slot]);
            stream_state_free(&slow[slot]);
            used[slot] = false;
            bodies++;
        }
    }
    for (int i = 0; i < 64; i++) {
        if (used[i]) {
            (void)stream_finish(&fast[i]);
            (void)stream_finish(&slow[i]);
            check_same(path, &fast[i], &slow[i]);
            stream_state_free(&fast[i]);
            stream_state_free(&slow[i]);
        }
    }
    trace_reader_close(r);
    return events > before || st == 0;
}

/* A file as a fuzz_stream_events input (byte 0 picks the API kind), as a
 * body of each API kind, and as a trace. */
static void compare_file(const char *path)
{
    size_t n;
    uint8_t *data = (uint8_t *)test_read_file(path, &n);
    CHECK_MSG(data != NULL, "cannot read %s", path);
    if (!data)
        return;
    if (n > 0)
        compare_body(path, (enum api_kind)(data[0] % 3), data + 1, n - 1);
    for (int api = 0; api < API_KIND_COUNT; api++)
        compare_body(path, (enum api_kind)api, data, n);
    (void)compare_trace(path);
    free(data);
}

static void test_fuzz_files(void)
{
    unsigned long before = bodies;
    fuzz_files_each(compare_file);
    CHECK_MSG(bodies - before >= 100, "only %lu bodies from %s",
              bodies - before, TT_FUZZ_DIR);
}

/* ---- events at the edges ------------------------------------------------ */

enum expect { ANY, DECIDE, DECLINE };

struct edge_case {
    enum api_kind api; /* the kind the expectation is for */
    enum expect expect;
    const char *json;
};

#define CHAT API_OPENAI_CHAT
#define COMPL API_OPENAI_COMPLETIONS
#define ANTH API_ANTHROPIC
#define RESP API_OPENAI_RESPONSES

/* clang-format off */
static const struct edge_case edge_cases[] = {
    /* The shapes servers send: decided by the scan. */
    {CHAT, DECIDE, "{\"id\":\"chatcmpl-9x\",\"object\":\"chat.completion.chunk\",\"created\":1764460800,\"model\":\"gpt-4o-2024-08-06\",\"system_fingerprint\":\"fp_abc\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\",\"refusal\":null},\"logprobs\":null,\"finish_reason\":null}],\"usage\":null}"},
    {CHAT, DECIDE, "{\"id\":\"chatcmpl-9x\",\"object\":\"chat.completion.chunk\",\"created\":1764460800,\"model\":\"gpt-4o\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello\"},\"logprobs\":null,\"finish_reason\":null}]}"},
    {CHAT, DECIDE, "{\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{},\"logprobs\":null,\"finish_reason\":\"stop\"}]}"},
    {CHAT, DECIDE, "{\"id\":\"c\",\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":345,\"total_tokens\":357,\"prompt_tokens_details\":{\"cached_tokens\":0,\"audio_tokens\":0},\"completion_tokens_details\":{\"reasoning_tokens\":64,\"audio_tokens\":0,\"accepted_prediction_tokens\":0,\"rejected_prediction_tokens\":0}}}"},
    {CHAT, DECIDE, "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"Let me think\"}}]}"},
    {CHAT, DECIDE, "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\"hm\",\"content\":null}}]}"},
    {CHAT, DECIDE, "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"\",\"reasoning\":\"hm\"}}]}"},
    {CHAT, DECIDE, "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"get\",\"arguments\":\"{\\\"city\\\": \\\"Par\"}}]}}]}"},
    {CHAT, DECIDE, "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}},{\"index\":1,\"delta\":{\"content\":\"bc\"},\"finish_reason\":\"length\"}]}"},
    {CHAT, DECIDE, "{\"choices\":[{\"delta\":{\"content\":\"h\\u00e9llo \\ud83d\\ude00 \\u4e2d \\n\\t\\\"\\\\\\/\\b\\f\\r\"}}]}"},
    {CHAT, DECIDE, "{\"choices\":[{\"delta\":{\"content\":\"h\xc3\xa9llo \xf0\x9f\x98\x80 \xe4\xb8\xad\"}}]}"},
    {CHAT, DECIDE, "{\"choices\":[{\"delta\":{\"content\":\"\xff\xfe bytes that are not UTF-8 \x80\"}}]}"},
    {CHAT, DECIDE, " \t\r\n{ \"choices\" : [ { \"delta\" : { \"content\" : \"x\" } } ] } \r\n\t "},
    {CHAT, DECIDE, "{}"},
    {CHAT, DECIDE, "{\"choices\":{\"delta\":{\"content\":\"not an array\"}}}"},
    {CHAT, DECIDE, "{\"choices\":[1,\"s\",null,true,[{\"delta\":{\"content\":\"nested\"}}],{}]}"},
    {CHAT, DECIDE, "{\"choices\":[{\"delta\":[{\"content\":\"x\"}]}]}"},
    {CHAT, DECIDE, "{\"choices\":[{\"delta\":{\"content\":7,\"tool_calls\":{\"function\":{\"arguments\":\"x\"}}}}]}"},
    {CHAT, DECIDE, "{\"choices\":[{\"delta\":{\"content\":\"a\",\"content\":\"bb\"},\"delta\":{\"content\":\"ccc\"}}]}"},
    {CHAT, DECIDE, "{\"choices\":null,\"choices\":[{\"delta\":{\"content\":\"second\"}}]}"},
    {CHAT, DECIDE, "{\"usage\":{\"completion_tokens\":-5,\"prompt_tokens\":-0,\"completion_tokens_details\":{\"reasoning_tokens\":\"3\"}}}"},
    {CHAT, DECIDE, "{\"usage\":{\"completion_tokens\":999999999999999,\"prompt_tokens\":0}}"},
    {CHAT, DECIDE, "{\"usage\":{\"completion_tokens\":1,\"completion_tokens\":2.5,\"x\":[1.5e300,-0.0,1E-7,123456789012345678901234567890]}}"},
    {CHAT, DECIDE, "{\"choices\":[{\"finish_reason\":\"\"},{\"finish_reason\":\"a_very_long_finish_reason_beyond_thirty_one_bytes\"}]}"},
    {CHAT, DECIDE, "{\"choices\":[{\"finish_reason\":\"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\"}]}"},
    {CHAT, DECIDE, "{\"choices\":[{\"delta\":{\"content\":\"x\"},\"text\":\"ignored for chat\"}],\"text\":1}"},
    {COMPL, DECIDE, "{\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"created\":1,\"model\":\"m\",\"choices\":[{\"text\":\" world\",\"index\":0,\"logprobs\":null,\"finish_reason\":null}]}"},
    {COMPL, DECIDE, "{\"choices\":[{\"text\":\"\",\"index\":0,\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":9}}"},
    {COMPL, DECIDE, "{\"choices\":[{\"delta\":{\"content\":\"ignored for completions\"},\"text\":\"t\"}]}"},
    {ANTH, DECIDE, "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"claude-sonnet-4-5\",\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":25,\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":0,\"output_tokens\":1}}}"},
    {ANTH, DECIDE, "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}"},
    {ANTH, DECIDE, "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hello\"}}"},
    {ANTH, DECIDE, "{\"delta\":{\"text\":\"before the type\",\"type\":\"text_delta\"},\"index\":0,\"type\":\"content_block_delta\"}"},
    {ANTH, DECIDE, "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"Let me \\u00e9\"}}"},
    {ANTH, DECIDE, "{\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"loc\"}}"},
    {ANTH, DECIDE, "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"signature_delta\",\"signature\":\"EqQB\"}}"},
    {ANTH, DECIDE, "{\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"thinking\":\"wrong field\"}}"},
    {ANTH, DECIDE, "{\"type\":\"content_block_stop\",\"index\":0}"},
    {ANTH, DECIDE, "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":15}}"},
    {ANTH, DECIDE, "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},\"usage\":{\"input_tokens\":10,\"output_tokens\":89,\"cache_read_input_tokens\":0}}"},
    {ANTH, DECIDE, "{\"type\":\"message_stop\"}"},
    {ANTH, DECIDE, "{\"type\":\"ping\"}"},
    {ANTH, DECIDE, "{\"type\":\"\",\"delta\":{\"type\":\"text_delta\",\"text\":\"no type\"}}"},
    {ANTH, DECIDE, "{\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1,\"input_tokens\":2}},\"usage\":{\"input_tokens\":3}}"},
    {ANTH, DECIDE, "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":5},\"message\":{\"usage\":{\"input_tokens\":99}}}"},
    {ANTH, DECIDE, "{\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"},\"type\":\"ping\"}"},
    {ANTH, DECIDE, "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"type\":\"te\\u0078t_delta\"}}"},
    {RESP, DECIDE, "{\"type\":\"response.output_text.delta\",\"item_id\":\"msg_1\",\"output_index\":0,\"content_index\":0,\"delta\":\"Hello\",\"sequence_number\":4}"},
    {RESP, DECIDE, "{\"delta\":\"before the type\",\"type\":\"response.output_text.delta\"}"},
    {RESP, DECIDE, "{\"type\":\"response.reasoning_summary_text.delta\",\"item_id\":\"rs_1\",\"output_index\":0,\"summary_index\":0,\"delta\":\"**Thinking** \\u00e9\"}"},
    {RESP, DECIDE, "{\"type\":\"response.reasoning_text.delta\",\"delta\":\"hm\"}"},
    {RESP, DECIDE, "{\"type\":\"response.function_call_arguments.delta\",\"item_id\":\"fc_1\",\"output_index\":1,\"delta\":\"{\\\"city\\\"\"}"},
    {RESP, DECIDE, "{\"type\":\"response.refusal.delta\",\"delta\":\"no\"}"},
    {RESP, DECIDE, "{\"type\":\"response.output_text.delta\",\"delta\":\"\"}"},
    {RESP, DECIDE, "{\"type\":\"response.output_text.delta\",\"delta\":{\"text\":\"an object\"}}"},
    {RESP, DECIDE, "{\"type\":\"response.output_text.done\",\"text\":\"Hello\"}"},
    {RESP, DECIDE, "{\"type\":\"response.created\",\"response\":{\"id\":\"resp_1\",\"object\":\"response\",\"status\":\"in_progress\",\"error\":null,\"usage\":null}}"},
    {RESP, DECIDE, "{\"type\":\"response.output_text.delta\",\"delta\":\"a\",\"delta\":\"bb\",\"type\":\"response.reasoning_text.delta\"}"},
    {RESP, DECIDE, "{\"choices\":[{\"delta\":{\"content\":\"chat shape, not Responses\"}}]}"},
    /* Outside the scan's subset: handed to cJSON. */
    {RESP, DECLINE, "{\"type\":\"response.completed\",\"response\":{\"status\":\"completed\",\"usage\":{\"input_tokens\":12,\"input_tokens_details\":{\"cached_tokens\":0},\"output_tokens\":40,\"output_tokens_details\":{\"reasoning_tokens\":8},\"total_tokens\":52}}}"},
    {RESP, DECLINE, "{\"type\":\"response.incomplete\",\"response\":{\"status\":\"incomplete\",\"incomplete_details\":{\"reason\":\"max_output_tokens\"}}}"},
    {RESP, DECLINE, "{\"type\":\"response.failed\",\"response\":{\"status\":\"failed\",\"error\":{\"code\":\"server_error\",\"message\":\"boom\"}}}"},
    {RESP, DECLINE, "{\"type\":\"error\",\"code\":\"rate_limit_exceeded\",\"message\":\"slow down\",\"param\":null}"},
    {RESP, DECLINE, "{\"type\":\"response.output_text\\u002edelta\",\"delta\":\"x\"}"},
    {CHAT, DECLINE, "{\"error\":{\"message\":\"Rate limit\",\"type\":\"rate_limit_error\",\"code\":429}}"},
    {CHAT, DECLINE, "{\"choices\":[],\"error\":\"overloaded\"}"},
    {ANTH, DECLINE, "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"},
    {CHAT, DECLINE, "{\"cho\\u0069ces\":[{\"delta\":{\"content\":\"escaped key\"}}]}"},
    {CHAT, DECLINE, "{\"choices\":[{\"delta\":{\"content\":\"lone \\ud800 high\"}}]}"},
    {CHAT, DECLINE, "{\"choices\":[{\"delta\":{\"content\":\"lone \\udc00 low\"}}]}"},
    {CHAT, DECLINE, "{\"choices\":[{\"delta\":{\"content\":\"\\ud83d\\u0041 unpaired\"}}]}"},
    {CHAT, DECLINE, "{\"choices\":[{\"delta\":{\"content\":\"nul \\u0000 cut\"}}]}"},
    {CHAT, DECLINE, "{\"choices\":[{\"delta\":{\"content\":\"\\u00zz bad hex\"}}]}"},
    {CHAT, DECLINE, "{\"choices\":[{\"delta\":{\"content\":\"\\x bad escape\"}}]}"},
    {CHAT, DECLINE, "{\"choices\":[{\"delta\":{\"content\":\"raw \x01 control\"}}]}"},
    {CHAT, DECLINE, "{\"choices\":[{\"delta\":{\"content\":\"raw \x7f is fine but \x1f is not\"}}]}"},
    {CHAT, DECLINE, "{\"usage\":{\"completion_tokens\":3.0}}"},
    {CHAT, DECLINE, "{\"usage\":{\"completion_tokens\":1e3}}"},
    {CHAT, DECLINE, "{\"usage\":{\"completion_tokens\":1000000000000000}}"},
    {CHAT, DECLINE, "{\"usage\":{\"completion_tokens\":01}}"},
    {CHAT, DECLINE, "{\"usage\":{\"completion_tokens\":+1}}"},
    {CHAT, DECLINE, "{\"x\":1.}"},
    {CHAT, DECLINE, "{\"x\":.5}"},
    {CHAT, DECLINE, "{\"x\":-}"},
    {CHAT, DECLINE, "{\"x\":1e}"},
    {CHAT, DECLINE, "{\"x\":12345678901234567890123456789012345678901}"},
    {CHAT, DECLINE, "{\"choices\":[]} trailing"},
    {CHAT, DECLINE, "{\"choices\":[]}{\"choices\":[]}"},
    {CHAT, DECLINE, "\xef\xbb\xbf{\"choices\":[]}"},
    {CHAT, DECLINE, "\x0b{\"choices\":[]}"},
    {CHAT, DECLINE, "{\"choices\":[],}"},
    {CHAT, DECLINE, "{\"choices\":[1,]}"},
    {CHAT, DECLINE, "{\"choices\" [1]}"},
    {CHAT, DECLINE, "{\"choices\":[1"},
    {CHAT, DECLINE, "{\"choices\":tru}"},
    {CHAT, DECLINE, "{\"choices\":NaN}"},
    {CHAT, DECLINE, "[{\"choices\":[]}]"},
    {CHAT, DECLINE, "\"just a string\""},
    {CHAT, DECLINE, ""},
    {CHAT, DECLINE, "{\"choices\":[{\"finish_reason\":\"st\\u006fp\"}]}"},
    {ANTH, DECLINE, "{\"type\":\"ping\\u0000\"}"},
    {ANTH, DECLINE, "{\"type\":\"content_block_\\u0064elta\",\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}"},
    {ANTH, DECLINE, "{\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text\\u005fdelta\",\"text\":\"x\"}}"},
    {ANTH, DECLINE, "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end\\u005fturn\"}}"},
    {ANTH, DECLINE, "{\"type\":\"message_delta\",\"usage\":{\"output_tokens\":1.5}}"},
};
/* clang-format on */

/* An event as an SSE body: "event: TYPE" when given, then each line of the
 * JSON as a data line. */
static size_t sse_body(char *out, size_t size, const char *type,
                       const char *json, size_t json_len)
{
    size_t n = 0;
    if (type)
        n += (size_t)snprintf(out + n, size - n, "event: %s\n", type);
    n += (size_t)snprintf(out + n, size - n, "data: ");
    for (size_t i = 0; i < json_len && n + 8 < size; i++) {
        out[n++] = json[i];
        if (json[i] == '\n' || json[i] == '\r') {
            if (json[i] == '\r' && i + 1 < json_len && json[i + 1] == '\n')
                out[n++] = json[++i];
            n += (size_t)snprintf(out + n, size - n, "data: ");
        }
    }
    n += (size_t)snprintf(out + n, size - n, "\n\n");
    return n;
}

/* One JSON text as an event of every API kind, both paths. */
static void compare_json(const char *what, const char *json, size_t len)
{
    char body[4096];
    size_t n = sse_body(body, sizeof(body), NULL, json, len);
    for (int api = 0; api < API_KIND_COUNT; api++)
        compare_body(what, (enum api_kind)api, (const uint8_t *)body, n);
}

/* A mutated event, whole, as its case's API kind only (there are many). */
static void compare_mutant(const char *what, enum api_kind api,
                           const char *json, size_t len)
{
    char body[4096];
    size_t n = sse_body(body, sizeof(body), NULL, json, len);
    compare_feeds(what, api, (const uint8_t *)body, n, true);
}

static void test_edge_cases(void)
{
    for (size_t i = 0; i < sizeof(edge_cases) / sizeof(*edge_cases); i++) {
        const struct edge_case *c = &edge_cases[i];
        struct stream_scan_facts f;
        char what[64];
        bool got = stream_scan_event(c->api, c->json, strlen(c->json), &f);
        snprintf(what, sizeof(what), "edge case %zu", i);
        if (c->expect != ANY)
            CHECK_MSG(got == (c->expect == DECIDE),
                      "%s: the scan should %s: %s", what,
                      c->expect == DECIDE ? "decide" : "decline", c->json);
        compare_json(what, c->json, strlen(c->json));
    }
    /* Nesting: 64 levels are scanned, deeper goes to cJSON. */
    {
        char deep[400];
        struct stream_scan_facts f;
        for (int depth = 60; depth <= 70; depth += 10) {
            size_t n = 0;
            for (int i = 0; i < depth - 1; i++)
                n += (size_t)snprintf(deep + n, sizeof(deep) - n, "%s",
                                      i == 0 ? "{\"a\":" : "[");
            n += (size_t)snprintf(deep + n, sizeof(deep) - n, "1");
            for (int i = depth - 2; i >= 0; i--)
                n += (size_t)snprintf(deep + n, sizeof(deep) - n, "%s",
                                      i == 0 ? "}" : "]");
            CHECK_MSG(stream_scan_event(CHAT, deep, n, &f) == (depth <= 64),
                      "depth %d", depth);
            compare_json("deep nesting", deep, n);
        }
    }
}

/* Every one-byte deletion, replacement and insertion of the common shapes:
 * bytes that matter to JSON, to escapes, to numbers and to UTF-8. */
static void test_mutations(void)
{
    static const char subst[] = "\"\\{}[],: 0-1e.unt/\n";
    static const char extra[] = {'\0', '\x01', '\xc3', '\x80', '\xff'};
    char buf[1024];
    size_t base_cases = 0;
    for (size_t i = 0; i < sizeof(edge_cases) / sizeof(*edge_cases); i++) {
        const char *json = edge_cases[i].json;
        size_t len = strlen(json);
        if (edge_cases[i].expect != DECIDE || len > 300)
            continue;
        base_cases++;
        for (size_t at = 0; at <= len; at++) {
            char name[64];
            snprintf(name, sizeof(name), "edge case %zu at %zu", i, at);
            if (at < len) { /* delete */
                memcpy(buf, json, at);
                memcpy(buf + at, json + at + 1, len - at - 1);
                compare_mutant(name, edge_cases[i].api, buf, len - 1);
            }
            for (size_t k = 0; k < sizeof(subst) - 1 + sizeof(extra); k++) {
                char c = k < sizeof(subst) - 1 ? subst[k]
                                               : extra[k - (sizeof(subst) - 1)];
                if (at < len) { /* replace */
                    memcpy(buf, json, len);
                    buf[at] = c;
                    compare_mutant(name, edge_cases[i].api, buf, len);
                }
                memcpy(buf, json, at); /* insert */
                buf[at] = c;
                memcpy(buf + at + 1, json + at, len - at);
                compare_mutant(name, edge_cases[i].api, buf, len + 1);
            }
        }
    }
    CHECK(base_cases >= 30);
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        for (int i = 1; i < argc; i++) {
            unsigned long before = events;
            CHECK_MSG(compare_trace(argv[i]), "%s: not a readable trace",
                      argv[i]);
            CHECK_MSG(events > before, "%s: no SSE event", argv[i]);
        }
        /* Recorded streams are the common shapes: all of them decided. */
        CHECK_MSG(decided == events, "the scan decided %lu of %lu events",
                  decided, events);
    } else {
        test_fuzz_files();
        test_edge_cases();
        test_mutations();
        CHECK_MSG(decided > events / 4, "the scan decided %lu of %lu events",
                  decided, events);
    }
    printf("stream_scan_test: %lu bodies, %lu events, %lu decided by the "
           "fast scan\n",
           bodies, events, decided);
    return CHECK_DONE();
}
