/* stream_events: SSE events of one response -> token events and facts. */
#include "stream_events.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error_json.h"
#include "fast_path.h"
#include "stream_fields.h"
#include "stream_scan.h"

/* Sets every fact to "nothing seen yet"; keeps memory and caps. */
static void stream_clear(struct stream_state *s, enum api_kind api)
{
    struct sse_parser sse = s->sse;
    struct stream_token *tokens = s->tokens;
    int64_t *bare = s->bare_choice_ns;
    size_t cap = s->tokens_cap, bare_cap = s->bare_cap;
    size_t max = s->max_token_events;
    bool slow_json = s->slow_json, keep_tokens = s->keep_tokens;
    memset(s, 0, sizeof(*s));
    s->sse = sse;
    s->tokens = tokens;
    s->tokens_cap = cap;
    s->bare_choice_ns = bare;
    s->bare_cap = bare_cap;
    s->max_token_events = max;
    s->slow_json = slow_json;
    s->keep_tokens = keep_tokens;
    s->api = api;
    s->first_token_ns = s->first_content_ns = s->last_token_ns = -1;
    s->usage_output_tokens = s->usage_input_tokens = -1;
    s->usage_reasoning_tokens = -1;
    s->usage_cached_tokens = s->usage_cache_write_tokens = -1;
    s->usage_ns = -1;
    s->usage_bare_output_tokens = -1;
    s->tool_call_first_ns = s->tool_call_last_ns = -1;
    s->tool_name_first_ns = s->tool_name_last_ns = -1;
    s->server_timings.t_ns = -1;
    s->server_timings.prompt_n = s->server_timings.predicted_n = -1;
    s->server_timings.cache_n = -1;
    s->server_timings.prompt_ms = s->server_timings.predicted_ms = NAN;
    s->server_timings.predicted_per_token_ms = NAN;
    s->done_ns = s->first_byte_ns = s->last_feed_ns = s->error_ns = -1;
    s->first_event_ns = -1;
}

void stream_state_init(struct stream_state *s, enum api_kind api,
                       size_t max_event_bytes)
{
    memset(s, 0, sizeof(*s));
    sse_parser_init(&s->sse, max_event_bytes);
    s->max_token_events = STREAM_MAX_TOKEN_EVENTS;
    s->slow_json = fast_path_disabled();
    s->keep_tokens = true;
    stream_clear(s, api);
}

void stream_state_reset(struct stream_state *s, enum api_kind api)
{
    sse_parser_reset(&s->sse);
    stream_clear(s, api);
}

void stream_state_free(struct stream_state *s)
{
    if (!s)
        return;
    sse_parser_free(&s->sse);
    free(s->tokens);
    free(s->bare_choice_ns);
    s->tokens = NULL;
    s->bare_choice_ns = NULL;
    s->n_tokens = s->tokens_cap = 0;
    s->n_bare_ns = s->bare_cap = 0;
}

/* Copies a string into a fixed field, truncating on a UTF-8 boundary. */
static void stream_copy(char *dst, size_t size, const char *src, size_t len)
{
    if (len >= size) {
        len = size - 1;
        while (len > 0 && ((unsigned char)src[len] & 0xC0) == 0x80)
            len--;
    }
    memcpy(dst, src, len);
    dst[len] = '\0';
}

/* Adds one non-empty text field to the event's sum. */
static void stream_piece(struct stream_piece_sum *sum, const char *text,
                         bool reasoning, bool tool)
{
    const unsigned char *p;
    uint64_t bytes = 0, chars = 0;
    for (p = (const unsigned char *)text; *p; p++) {
        bytes++;
        chars += (*p & 0xC0) != 0x80;
    }
    stream_piece_add(sum, bytes, chars, reasoning, tool);
}

/* Notes an OpenAI event that had choices but carried no text: counted
 * always, its time kept (keep_tokens) up to max_token_events, beyond which
 * or on a failed allocation the sticky err says the times are incomplete. */
static void stream_bare_choice(struct stream_state *s, int64_t t_ns)
{
    s->bare_choices++;
    if (s->first_token_ns < 0 && s->bare_before_token < UINT32_MAX)
        s->bare_before_token++;
    if (s->err || !s->keep_tokens)
        return;
    if (s->n_bare_ns >= s->max_token_events) {
        s->err = STREAM_E_TOO_MANY_TOKENS;
        return;
    }
    if (s->n_bare_ns == s->bare_cap) {
        size_t ncap = s->bare_cap ? s->bare_cap * 2 : 16;
        int64_t *v;
        if (ncap > s->max_token_events)
            ncap = s->max_token_events;
        v = realloc(s->bare_choice_ns, ncap * sizeof(*v));
        if (!v) {
            s->err = STREAM_E_NOMEM;
            return;
        }
        s->bare_choice_ns = v;
        s->bare_cap = ncap;
    }
    s->bare_choice_ns[s->n_bare_ns++] = t_ns;
}

/* Notes what an OpenAI event's choices said beyond its text: an empty
 * "choices" array (choices_array with none in it), tool_calls elements
 * (n_tools) and whether one named its function. */
static void stream_choice_shape(struct stream_state *s, int64_t t_ns,
                                bool choices_array, unsigned n_choices,
                                unsigned n_tools, bool tool_name)
{
    if (choices_array && n_choices == 0)
        s->empty_choices++;
    if (n_tools > 0) {
        s->tool_call_events++;
        if (s->tool_call_first_ns < 0)
            s->tool_call_first_ns = t_ns;
        s->tool_call_last_ns = t_ns;
    }
    if (tool_name) {
        if (s->tool_name_first_ns < 0)
            s->tool_name_first_ns = t_ns;
        s->tool_name_last_ns = t_ns;
    }
}

/* Records a token event when the event carried any text; an OpenAI event
 * with n_choices > 0 and no text is a bare choice event. */
static void stream_token_event(struct stream_state *s, int64_t t_ns,
                               const struct stream_piece_sum *sum,
                               unsigned n_choices)
{
    struct stream_token *tok;
    bool reasoning_only, content;
    if (sum->pieces == 0) {
        if (n_choices > 0)
            stream_bare_choice(s, t_ns);
        return;
    }
    content = sum->pieces > sum->reasoning_pieces + sum->tool_pieces;
    reasoning_only = sum->reasoning_pieces == sum->pieces;
    if (s->first_token_ns < 0)
        s->first_token_ns = t_ns;
    if (!reasoning_only && s->first_content_ns < 0)
        s->first_content_ns = t_ns;
    s->last_token_ns = t_ns;
    s->token_events++;
    s->reasoning_events += reasoning_only;
    s->text_bytes += sum->bytes;
    s->text_chars += sum->chars;
    s->reasoning_bytes += sum->reasoning_bytes;
    if (s->err || !s->keep_tokens)
        return;
    if (s->n_tokens >= s->max_token_events) {
        s->err = STREAM_E_TOO_MANY_TOKENS;
        return;
    }
    if (s->n_tokens == s->tokens_cap) {
        size_t ncap = s->tokens_cap ? s->tokens_cap * 2 : 256;
        if (ncap > s->max_token_events)
            ncap = s->max_token_events;
        tok = realloc(s->tokens, ncap * sizeof(*tok));
        if (!tok) {
            s->err = STREAM_E_NOMEM;
            return;
        }
        s->tokens = tok;
        s->tokens_cap = ncap;
    }
    tok = &s->tokens[s->n_tokens++];
    tok->t_ns = t_ns;
    tok->text_bytes =
        sum->bytes > UINT32_MAX ? UINT32_MAX : (uint32_t)sum->bytes;
    tok->pieces = sum->pieces > UINT16_MAX ? UINT16_MAX : (uint16_t)sum->pieces;
    tok->flags = (uint8_t)((reasoning_only ? STREAM_TOK_REASONING : 0u) |
                           (sum->tool ? STREAM_TOK_TOOL : 0u) |
                           (content ? STREAM_TOK_CONTENT : 0u));
}

/* Records an error the server reported inside the stream; the first one
 * is kept, all are counted. */
static void stream_error(struct stream_state *s, int64_t t_ns, const char *type,
                         const char *msg, size_t msg_len)
{
    s->stream_errors++;
    if (s->stream_errors > 1)
        return;
    s->error_ns = t_ns;
    stream_copy(s->error_type, sizeof(s->error_type), type, strlen(type));
    stream_copy(s->error_message, sizeof(s->error_message), msg, msg_len);
}

/* Looks for {"error": {...}} or {"error": "text"} (error_json.h); returns
 * true if found. */
static bool stream_json_error(struct stream_state *s, int64_t t_ns,
                              const cJSON *root)
{
    struct error_json e;
    if (!error_json_read(root, ERROR_JSON_MEMBER, &e))
        return false;
    stream_error(s, t_ns, e.type[0] ? e.type : "error", e.message,
                 strlen(e.message));
    return true;
}

/* Notes a finish_reason / stop_reason value. */
static void stream_finish_reason(struct stream_state *s, const cJSON *obj,
                                 const char *key)
{
    const char *r = stream_fields_text(obj, key);
    if (!r)
        return;
    s->finish_reasons++;
    stream_copy(s->finish_reason, sizeof(s->finish_reason), r, strlen(r));
}

/* One OpenAI chunk (chat.completion.chunk or text_completion). */
static void stream_openai(struct stream_state *s, int64_t t_ns,
                          const cJSON *root)
{
    const cJSON *choices = cJSON_GetObjectItemCaseSensitive(root, "choices");
    const cJSON *usage = cJSON_GetObjectItemCaseSensitive(root, "usage");
    const cJSON *c, *tc, *calls;
    struct stream_piece_sum sum;
    const char *t;
    unsigned n_tools = 0;
    bool tool_name = false;
    memset(&sum, 0, sizeof(sum));
    if (!cJSON_IsArray(choices))
        choices = NULL;
    cJSON_ArrayForEach(c, choices)
    {
        if (s->api == API_OPENAI_COMPLETIONS) {
            if ((t = stream_fields_text(c, "text")))
                stream_piece(&sum, t, false, false);
        } else {
            const cJSON *d = cJSON_GetObjectItemCaseSensitive(c, "delta");
            if ((t = stream_fields_text(d, "content")))
                stream_piece(&sum, t, false, false);
            if ((t = stream_fields_text(d, "reasoning_content")) ||
                (t = stream_fields_text(d, "reasoning")))
                stream_piece(&sum, t, true, false);
            calls = cJSON_GetObjectItemCaseSensitive(d, "tool_calls");
            if (!cJSON_IsArray(calls))
                calls = NULL;
            cJSON_ArrayForEach(tc, calls)
            {
                const cJSON *fn =
                    cJSON_GetObjectItemCaseSensitive(tc, "function");
                n_tools++;
                if ((t = stream_fields_text(fn, "arguments")))
                    stream_piece(&sum, t, false, true);
                tool_name |= stream_fields_text(fn, "name") != NULL;
            }
        }
        stream_finish_reason(s, c, "finish_reason");
    }
    stream_token_event(s, t_ns, &sum,
                       choices ? (unsigned)cJSON_GetArraySize(choices) : 0u);
    stream_choice_shape(s, t_ns, choices != NULL,
                        choices ? (unsigned)cJSON_GetArraySize(choices) : 0u,
                        n_tools, tool_name);
    stream_fields_llama_timings(
        s, t_ns, cJSON_GetObjectItemCaseSensitive(root, "timings"));
    if (cJSON_IsObject(usage)) {
        s->usage_ns = t_ns;
        const cJSON *det = cJSON_GetObjectItemCaseSensitive(
            usage, "completion_tokens_details");
        stream_fields_count(usage, "completion_tokens",
                            &s->usage_output_tokens);
        if (!choices || cJSON_GetArraySize(choices) == 0)
            stream_fields_count(usage, "completion_tokens",
                                &s->usage_bare_output_tokens);
        stream_fields_count(usage, "prompt_tokens", &s->usage_input_tokens);
        if (cJSON_IsObject(det))
            stream_fields_count(det, "reasoning_tokens",
                                &s->usage_reasoning_tokens);
        stream_fields_count(
            cJSON_GetObjectItemCaseSensitive(usage, "prompt_tokens_details"),
            "cached_tokens", &s->usage_cached_tokens);
        stream_fields_count(usage, "prompt_cache_hit_tokens",
                            &s->usage_cached_tokens);
    }
}

/* One Anthropic Messages event; its kind is the JSON "type". */
static void stream_anthropic(struct stream_state *s, int64_t t_ns,
                             const cJSON *root)
{
    const cJSON *m, *d, *u;
    struct stream_piece_sum sum;
    const char *t;
    memset(&sum, 0, sizeof(sum));
    if (stream_fields_is(root, "type", "content_block_delta")) {
        d = cJSON_GetObjectItemCaseSensitive(root, "delta");
        if (stream_fields_is(d, "type", "text_delta") &&
            (t = stream_fields_text(d, "text")))
            stream_piece(&sum, t, false, false);
        else if (stream_fields_is(d, "type", "thinking_delta") &&
                 (t = stream_fields_text(d, "thinking")))
            stream_piece(&sum, t, true, false);
        else if (stream_fields_is(d, "type", "input_json_delta") &&
                 (t = stream_fields_text(d, "partial_json")))
            stream_piece(&sum, t, false, true);
        stream_token_event(s, t_ns, &sum, 0);
    } else if (stream_fields_is(root, "type", "message_start")) {
        m = cJSON_GetObjectItemCaseSensitive(root, "message");
        u = cJSON_GetObjectItemCaseSensitive(m, "usage");
        /* Its output_tokens is a placeholder (1): only the input counts. */
        stream_fields_count(u, "input_tokens", &s->usage_input_tokens);
        stream_fields_anthropic_cache(s, u);
    } else if (stream_fields_is(root, "type", "message_delta")) {
        u = cJSON_GetObjectItemCaseSensitive(root, "usage");
        if (cJSON_IsObject(u))
            s->usage_ns = t_ns;
        stream_fields_count(u, "output_tokens", &s->usage_output_tokens);
        stream_fields_count(u, "input_tokens", &s->usage_input_tokens);
        stream_fields_anthropic_cache(s, u);
        d = cJSON_GetObjectItemCaseSensitive(root, "delta");
        stream_finish_reason(s, d, "stop_reason");
    } else if (stream_fields_is(root, "type", "message_stop")) {
        if (!s->done_seen) {
            s->done_seen = true;
            s->done_ns = t_ns;
        }
    } else if (stream_fields_is(root, "type", "ping")) {
        s->pings++;
        s->pings_before_token += s->first_token_ns < 0;
    }
}

/* Notes the end of a stream: [DONE], message_stop, response.completed. */
static void stream_done(struct stream_state *s, int64_t t_ns)
{
    if (!s->done_seen) {
        s->done_seen = true;
        s->done_ns = t_ns;
    }
}

/* A Responses API terminal event's response object: usage (input_tokens,
 * output_tokens, output_tokens_details.reasoning_tokens,
 * input_tokens_details.cached_tokens), the finish
 * (status "completed", or incomplete_details.reason) and the end. */
static void responses_end(struct stream_state *s, int64_t t_ns, const cJSON *r,
                          bool incomplete)
{
    const cJSON *u = cJSON_GetObjectItemCaseSensitive(r, "usage");
    const cJSON *det =
        cJSON_GetObjectItemCaseSensitive(u, "output_tokens_details");
    if (cJSON_IsObject(u)) {
        s->usage_ns = t_ns;
        stream_fields_count(u, "output_tokens", &s->usage_output_tokens);
        stream_fields_count(u, "input_tokens", &s->usage_input_tokens);
        if (cJSON_IsObject(det))
            stream_fields_count(det, "reasoning_tokens",
                                &s->usage_reasoning_tokens);
        stream_fields_count(
            cJSON_GetObjectItemCaseSensitive(u, "input_tokens_details"),
            "cached_tokens", &s->usage_cached_tokens);
    }
    if (incomplete)
        stream_finish_reason(
            s, cJSON_GetObjectItemCaseSensitive(r, "incomplete_details"),
            "reason");
    else
        stream_finish_reason(s, r, "status");
    stream_done(s, t_ns);
}

/* One OpenAI Responses API event; its kind is the JSON "type". */
static void stream_responses(struct stream_state *s, int64_t t_ns,
                             const cJSON *root)
{
    const char *type = stream_fields_text(root, "type"), *t;
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(root, "response");
    struct stream_piece_sum sum;
    bool reasoning, tool;
    memset(&sum, 0, sizeof(sum));
    if (!type)
        return;
    if (stream_fields_responses_piece(type, &reasoning, &tool)) {
        if ((t = stream_fields_text(root, "delta")))
            stream_piece(&sum, t, reasoning, tool);
        stream_token_event(s, t_ns, &sum, 0);
    } else if (strcmp(type, "response.completed") == 0 ||
               strcmp(type, "response.failed") == 0) {
        responses_end(s, t_ns, r, false);
    } else if (strcmp(type, "response.incomplete") == 0) {
        responses_end(s, t_ns, r, true);
    }
}

/* The Responses API's own error forms: an "error" event ({"type":
 * "error","code","message"}) and response.failed (response.error).
 * Returns true when root was one. */
static bool stream_responses_error(struct stream_state *s, int64_t t_ns,
                                   const cJSON *root)
{
    struct error_json e;
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(root, "response");
    const char *kind;
    if (stream_fields_is(root, "type", "error")) {
        /* its "type" is the event's; the code says which error */
        error_json_read(root, ERROR_JSON_BARE, &e);
        kind = e.code;
    } else if (stream_fields_is(root, "type", "response.failed") &&
               error_json_read(r, ERROR_JSON_MEMBER, &e)) {
        kind = e.type;
    } else {
        return false;
    }
    stream_error(s, t_ns, kind[0] ? kind : "error", e.message,
                 strlen(e.message));
    return true;
}

/* Returns true when data is "[DONE]", ignoring surrounding white space. */
static bool stream_is_done(const char *d, size_t n)
{
    while (n > 0 && (d[0] == ' ' || d[0] == '\t' || d[0] == '\n')) {
        d++;
        n--;
    }
    while (n > 0 && (d[n - 1] == ' ' || d[n - 1] == '\t' || d[n - 1] == '\n'))
        n--;
    return n == 6 && memcmp(d, "[DONE]", 6) == 0;
}

/* Applies what the fast scan found, as the cJSON path would have. */
static void stream_apply_facts(struct stream_state *s, int64_t t_ns,
                               const struct stream_scan_facts *f)
{
    s->json_events++;
    if (f->finishes) {
        s->finish_reasons += f->finishes;
        stream_copy(s->finish_reason, sizeof(s->finish_reason), f->finish,
                    f->finish_len);
    }
    stream_token_event(s, t_ns, &f->sum, f->choices);
    stream_choice_shape(s, t_ns, f->choices_array, f->choices, f->tool_calls,
                        f->tool_name);
    if (f->usage)
        s->usage_ns = t_ns;
    if (f->usage_output >= 0)
        s->usage_output_tokens = f->usage_output;
    if (f->usage_output >= 0 && f->choices == 0 &&
        (s->api == API_OPENAI_CHAT || s->api == API_OPENAI_COMPLETIONS))
        s->usage_bare_output_tokens = f->usage_output;
    if (f->usage_input >= 0)
        s->usage_input_tokens = f->usage_input;
    if (f->usage_reasoning >= 0)
        s->usage_reasoning_tokens = f->usage_reasoning;
    if (f->usage_cached >= 0)
        s->usage_cached_tokens = f->usage_cached;
    if (f->usage_cache_write >= 0)
        s->usage_cache_write_tokens = f->usage_cache_write;
    if (f->done && !s->done_seen) {
        s->done_seen = true;
        s->done_ns = t_ns;
    }
    s->pings += f->ping;
    if (s->first_token_ns < 0)
        s->pings_before_token += f->ping;
}

/* SSE callback: one dispatched event. */
static void stream_on_event(void *ctx, const struct sse_event *ev)
{
    struct stream_state *s = ctx;
    bool error_event = ev->type_len == 5 && memcmp(ev->type, "error", 5) == 0;
    struct stream_scan_facts facts;
    cJSON *root;
    s->sse_events++;
    if (s->first_event_ns < 0)
        s->first_event_ns = ev->t_ns;
    if (stream_is_done(ev->data, ev->data_len)) {
        if (!s->done_seen) {
            s->done_seen = true;
            s->done_ns = ev->t_ns;
        }
        return;
    }
    if (!s->slow_json && !error_event &&
        stream_scan_event(s->api, ev->data, ev->data_len, &facts)) {
        stream_apply_facts(s, ev->t_ns, &facts);
        return;
    }
    root = cJSON_ParseWithLength(ev->data, ev->data_len);
    if (!cJSON_IsObject(root)) {
        s->bad_json++;
        if (error_event) /* event: error with a non-JSON payload */
            stream_error(s, ev->t_ns, "error", ev->data, ev->data_len);
        cJSON_Delete(root);
        return;
    }
    s->json_events++;
    if (!stream_json_error(s, ev->t_ns, root) &&
        !(s->api == API_OPENAI_RESPONSES &&
          stream_responses_error(s, ev->t_ns, root)) &&
        error_event)
        stream_error(s, ev->t_ns, "error", ev->data, ev->data_len);
    if (s->api == API_ANTHROPIC)
        stream_anthropic(s, ev->t_ns, root);
    else if (s->api == API_OPENAI_RESPONSES)
        stream_responses(s, ev->t_ns, root);
    else
        stream_openai(s, ev->t_ns, root);
    cJSON_Delete(root);
}

/* SSE callback: a field WHATWG ignores. llama.cpp's server writes an error
 * inside a 200 stream as an "error: {...}" line (a bare error object, not
 * data) before "data: [DONE]": it is the server's error all the same. */
static void stream_on_field(void *ctx, const char *name, size_t name_len,
                            const char *value, size_t value_len, int64_t t_ns)
{
    struct stream_state *s = ctx;
    char type[64], msg[ERROR_JSON_MESSAGE_MAX + 1];
    if (name_len != 5 || memcmp(name, "error", 5) != 0)
        return;
    error_json_text(value, value_len, ERROR_JSON_BARE, type, sizeof type, msg,
                    sizeof msg);
    s->error_fields++;
    stream_error(s, t_ns, type[0] ? type : "error", msg, strlen(msg));
}

/* SSE callback: one comment line (keep-alive). */
static void stream_on_comment(void *ctx, const char *text, size_t len,
                              int64_t t_ns)
{
    struct stream_state *s = ctx;
    (void)text;
    (void)len;
    (void)t_ns;
    s->comments++;
    if (s->first_token_ns < 0)
        s->comments_before_token++;
}

int stream_feed(struct stream_state *s, int64_t t_ns, const void *bytes,
                size_t len)
{
    struct sse_handler h = {stream_on_event, stream_on_comment, NULL,
                            stream_on_field};
    int err;
    h.ctx = s;
    if (len == 0)
        return s->err;
    s->bytes += len;
    if (s->first_byte_ns < 0)
        s->first_byte_ns = t_ns;
    if (s->last_feed_ns >= 0 && t_ns < s->last_feed_ns)
        s->times_backwards = true;
    s->last_feed_ns = t_ns;
    err = sse_parser_feed(&s->sse, t_ns, bytes, len, &h);
    if (err == SSE_E_OVERSIZED)
        s->oversized = true;
    else if (err == SSE_E_NOMEM && !s->err)
        s->err = STREAM_E_NOMEM;
    return s->err;
}

int stream_finish(struct stream_state *s)
{
    if (sse_parser_finish(&s->sse))
        s->incomplete++;
    return s->err;
}
