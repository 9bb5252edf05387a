/* load_request: one finished request's verdict and facts, from its
 * request and result records and its parsed stream: its error kind, the
 * server's own words when it failed, and the facts metrics_compute takes.
 * Pure. */
#include <string.h>

#include "error_json.h"
#include "error_kinds.h"
#include "load_request.h"

/* True when the request's times contradict each other, as no recorder
 * writes them (CLOCK_MONOTONIC only goes forward): a chunk or first byte
 * before the start, an end before the start or before the last chunk. */
static bool impossible_times(const struct trace_request *q,
                             const struct trace_result *res,
                             const struct stream_state *s)
{
    if (q->start_ns < 0)
        return true;
    if (s->first_byte_ns >= 0 && s->first_byte_ns < q->start_ns)
        return true;
    if (s->first_token_ns >= 0 && s->last_token_ns < s->first_token_ns)
        return true;
    if (s->times_backwards)
        return true;
    if (!res)
        return false;
    if (res->end_ns >= 0 &&
        (res->end_ns < q->start_ns ||
         (s->last_token_ns >= 0 && res->end_ns < s->last_token_ns)))
        return true;
    return res->first_byte_ns >= 0 && res->first_byte_ns < q->start_ns;
}

const char *load_request_error_kind(const struct trace_request *q,
                                    const struct trace_result *res,
                                    const struct stream_state *s, char *tmp,
                                    size_t tmp_size)
{
    if (impossible_times(q, res, s))
        return ERROR_KIND_BAD_TIMES;
    if (!res)
        return "unfinished";
    if (res->error_kind && res->error_kind[0])
        return res->error_kind;
    if (error_kinds_http_failed(res->http_status))
        return error_kinds_http(res->http_status, tmp, tmp_size);
    if (s->stream_errors > 0)
        return "stream_error";
    if (s->oversized)
        return "oversized_event";
    if (s->token_events == 0)
        return "no_tokens";
    return NULL;
}

const char *load_request_server_message(const struct trace_result *res,
                                        const char *head, size_t head_len,
                                        const struct stream_state *s, char *msg,
                                        size_t msglen)
{
    char type[64];
    msg[0] = '\0';
    if (res && error_kinds_http_failed(res->http_status) && head && head_len &&
        head[0] != '<')
        error_json_text(head, head_len, ERROR_JSON_BARE, type, sizeof type, msg,
                        msglen);
    if (!msg[0] && s->stream_errors)
        error_json_one_line(msg, msglen, s->error_message,
                            strlen(s->error_message), ERROR_JSON_MESSAGE_MAX);
    return msg[0] ? msg : NULL;
}

void load_request_facts(const struct trace_request *q,
                        const struct trace_result *res,
                        const struct stream_state *s, bool ok,
                        enum token_mode tokens, struct metrics_facts *f)
{
    f->ok = ok;
    f->token_mode = tokens;
    f->scheduled_ns = q->scheduled_ns;
    f->start_ns = q->start_ns;
    f->input_tokens_est = q->input_tokens_est;
    f->asked_input_tokens = q->asked_input_tokens;
    f->asked_output_tokens = q->asked_output_tokens;
    f->input_bytes = q->body_bytes > 0 ? q->body_bytes : -1;
    f->cap_released_ns = q->cap_released_ns;
    f->has_result = res != NULL;
    f->end_ns = res ? res->end_ns : -1;
    f->posttransfer_ns = res ? res->phases.posttransfer_ns : -1;
    f->pretransfer_ns = res ? res->phases.pretransfer_ns : -1;
    f->tokens = s->tokens;
    f->n_tokens = s->n_tokens;
    f->token_events = s->token_events;
    f->reasoning_events = s->reasoning_events;
    f->text_bytes = s->text_bytes;
    f->first_token_ns = s->first_token_ns;
    f->first_content_ns = s->first_content_ns;
    f->last_token_ns = s->last_token_ns;
    f->done_seen = s->done_seen;
    f->done_ns = s->done_ns;
    f->last_feed_ns = s->last_feed_ns;
    f->usage_output_tokens = s->usage_output_tokens;
    f->usage_input_tokens = s->usage_input_tokens;
    f->cached_tokens = s->usage_cached_tokens >= 0 ? s->usage_cached_tokens
                                                   : s->server_timings.cache_n;
    /* no cached count, but every prompt token (usage) and those processed
     * (llama.cpp's timings.prompt_n): the rest came from the cache */
    f->cached_derived = f->cached_tokens < 0 && s->usage_input_tokens >= 0 &&
                        s->server_timings.prompt_n >= 0 &&
                        s->server_timings.prompt_n <= s->usage_input_tokens;
    if (f->cached_derived)
        f->cached_tokens = s->usage_input_tokens - s->server_timings.prompt_n;
    /* Anthropic's input_tokens leaves out what the cache read and wrote */
    if (s->api == API_ANTHROPIC && f->usage_input_tokens >= 0)
        f->usage_input_tokens +=
            (s->usage_cached_tokens > 0 ? s->usage_cached_tokens : 0) +
            (s->usage_cache_write_tokens > 0 ? s->usage_cache_write_tokens : 0);
    f->server = s->server_timings;
    f->comments = s->comments;
}
