/* replay_format_ref: the replay server's event formatter as it was before
 * the hot path was rewritten (every event through buf_printf), kept verbatim
 * as the reference that replay_format_test compares the new bytes with. */
#include "replay_format_ref.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "replay_tokens.h"

/* The old replay_tokens_append: one buf_puts per token. */
static int ref_tokens_append(struct buf *b, size_t from, size_t to, bool utf8)
{
    size_t i;
    int rc;

    for (i = from; i < to; i++) {
        rc = buf_puts(b, replay_token(i, utf8));
        if (rc != BUF_OK)
            return rc;
    }
    return BUF_OK;
}

/* The line end of f's stream. */
static const char *eol(const struct replay_fmt *f)
{
    return f->crlf ? "\r\n" : "\n";
}

/* Starts an event: "event: NAME" line (when name) and "data: ". */
static int ev_begin(struct buf *b, const struct replay_fmt *f, const char *name)
{
    const char *sp = f->nospace ? "" : " ";

    if (name != NULL)
        return buf_printf(b, "event:%s%s%sdata:%s", sp, name, eol(f), sp);
    return buf_printf(b, "data:%s", sp);
}

/* Ends an event with the blank line. */
static int ev_end(struct buf *b, const struct replay_fmt *f)
{
    return buf_printf(b, "%s%s", eol(f), eol(f));
}

/* Chat/completions chunk object up to the opening of "choices":[. */
static int chunk_head(struct buf *b, const struct replay_fmt *f)
{
    int rc = ev_begin(b, f, NULL);
    if (rc != BUF_OK)
        return rc;
    return buf_printf(b,
                      "{\"id\":\"%s\",\"object\":\"%s\",\"created\":%lld,"
                      "\"model\":\"%s\",\"choices\":[",
                      f->id,
                      f->api == API_OPENAI_CHAT ? "chat.completion.chunk"
                                                : "text_completion",
                      f->created, f->model_json);
}

int ref_fmt_keepalive(struct buf *b, const struct replay_fmt *f)
{
    return buf_printf(b, ": keep-alive%s%s", eol(f), eol(f));
}

int ref_fmt_role(struct buf *b, const struct replay_fmt *f)
{
    int rc = chunk_head(b, f);
    if (rc == BUF_OK && f->api == API_OPENAI_CHAT)
        rc = buf_puts(b, "{\"index\":0,\"delta\":{\"role\":\"assistant\","
                         "\"content\":\"\"},\"logprobs\":null,"
                         "\"finish_reason\":null}]}");
    else if (rc == BUF_OK)
        rc = buf_puts(b, "{\"index\":0,\"text\":\"\",\"logprobs\":null,"
                         "\"finish_reason\":null}]}");
    return rc == BUF_OK ? ev_end(b, f) : rc;
}

/* The Anthropic content_block_delta event for tokens [from, to). */
static int msg_tokens(struct buf *b, const struct replay_fmt *f, bool thinking,
                      int block, size_t from, size_t to)
{
    int rc = ev_begin(b, f, "content_block_delta");
    if (rc == BUF_OK)
        rc = buf_printf(b,
                        "{\"type\":\"content_block_delta\",\"index\":%d,"
                        "\"delta\":{\"type\":\"%s\",\"%s\":\"",
                        block, thinking ? "thinking_delta" : "text_delta",
                        thinking ? "thinking" : "text");
    if (rc == BUF_OK)
        rc = ref_tokens_append(b, from, to, f->utf8);
    if (rc == BUF_OK)
        rc = buf_puts(b, "\"}}");
    return rc == BUF_OK ? ev_end(b, f) : rc;
}

int ref_fmt_tokens(struct buf *b, const struct replay_fmt *f, bool first,
                   bool role_sent, bool reasoning, int block, size_t from,
                   size_t to)
{
    int rc;

    if (f->api == API_ANTHROPIC)
        return msg_tokens(b, f, reasoning, block, from, to);
    rc = chunk_head(b, f);
    if (rc != BUF_OK)
        return rc;
    if (f->api == API_OPENAI_CHAT)
        rc = buf_printf(b, "{\"index\":0,\"delta\":{%s\"%s\":\"",
                        first && !role_sent ? "\"role\":\"assistant\"," : "",
                        reasoning ? "reasoning_content" : "content");
    else
        rc = buf_puts(b, "{\"index\":0,\"text\":\"");
    if (rc == BUF_OK)
        rc = ref_tokens_append(b, from, to, f->utf8);
    if (rc == BUF_OK)
        rc = buf_puts(b, f->api == API_OPENAI_CHAT ? "\"}" : "\"");
    if (rc == BUF_OK)
        rc = buf_puts(b, ",\"logprobs\":null,\"finish_reason\":null}]}");
    return rc == BUF_OK ? ev_end(b, f) : rc;
}

int ref_fmt_finish(struct buf *b, const struct replay_fmt *f,
                   const char *finish_reason)
{
    int rc = chunk_head(b, f);
    if (rc == BUF_OK)
        rc = buf_printf(b,
                        "{\"index\":0,%s,\"logprobs\":null,"
                        "\"finish_reason\":\"%s\"}]}",
                        f->api == API_OPENAI_CHAT ? "\"delta\":{}"
                                                  : "\"text\":\"\"",
                        finish_reason);
    return rc == BUF_OK ? ev_end(b, f) : rc;
}

int ref_fmt_usage(struct buf *b, const struct replay_fmt *f,
                  int64_t prompt_tokens, int64_t completion_tokens)
{
    int rc = chunk_head(b, f);
    if (rc == BUF_OK)
        rc = buf_printf(b,
                        "],\"usage\":{\"prompt_tokens\":%lld,"
                        "\"completion_tokens\":%lld,\"total_tokens\":%lld}}",
                        (long long)prompt_tokens, (long long)completion_tokens,
                        (long long)(prompt_tokens + completion_tokens));
    return rc == BUF_OK ? ev_end(b, f) : rc;
}

int ref_fmt_done(struct buf *b, const struct replay_fmt *f)
{
    int rc = ev_begin(b, f, NULL);
    if (rc == BUF_OK)
        rc = buf_puts(b, "[DONE]");
    return rc == BUF_OK ? ev_end(b, f) : rc;
}

int ref_fmt_error_event(struct buf *b, const struct replay_fmt *f)
{
    int rc;

    if (f->api == API_ANTHROPIC) {
        rc = ev_begin(b, f, "error");
        if (rc == BUF_OK)
            rc = buf_puts(b, "{\"type\":\"error\",\"error\":{\"type\":"
                             "\"overloaded_error\",\"message\":"
                             "\"Overloaded (replay fault error-mid-stream)\""
                             "}}");
    } else {
        rc = ev_begin(b, f, NULL);
        if (rc == BUF_OK)
            rc = buf_puts(b, "{\"error\":{\"message\":\"The server had an "
                             "error while processing your request (replay "
                             "fault error-mid-stream)\",\"type\":"
                             "\"server_error\",\"param\":null,\"code\":null}}");
    }
    return rc == BUF_OK ? ev_end(b, f) : rc;
}

int ref_fmt_msg_start(struct buf *b, const struct replay_fmt *f,
                      int64_t input_tokens, bool with_usage)
{
    int rc = ev_begin(b, f, "message_start");
    if (rc == BUF_OK)
        rc = buf_printf(b,
                        "{\"type\":\"message_start\",\"message\":{\"id\":"
                        "\"%s\",\"type\":\"message\",\"role\":\"assistant\","
                        "\"model\":\"%s\",\"content\":[],\"stop_reason\":"
                        "null,\"stop_sequence\":null",
                        f->id, f->model_json);
    if (rc == BUF_OK && with_usage)
        rc = buf_printf(b,
                        ",\"usage\":{\"input_tokens\":%lld,"
                        "\"output_tokens\":1}",
                        (long long)input_tokens);
    if (rc == BUF_OK)
        rc = buf_puts(b, "}}");
    return rc == BUF_OK ? ev_end(b, f) : rc;
}

int ref_fmt_block_start(struct buf *b, const struct replay_fmt *f, int block,
                        bool thinking)
{
    int rc = ev_begin(b, f, "content_block_start");
    if (rc == BUF_OK)
        rc = buf_printf(b,
                        "{\"type\":\"content_block_start\",\"index\":%d,"
                        "\"content_block\":{\"type\":\"%s\",\"%s\":\"\"}}",
                        block, thinking ? "thinking" : "text",
                        thinking ? "thinking" : "text");
    return rc == BUF_OK ? ev_end(b, f) : rc;
}

int ref_fmt_ping(struct buf *b, const struct replay_fmt *f)
{
    int rc = ev_begin(b, f, "ping");
    if (rc == BUF_OK)
        rc = buf_puts(b, "{\"type\":\"ping\"}");
    return rc == BUF_OK ? ev_end(b, f) : rc;
}

int ref_fmt_block_stop(struct buf *b, const struct replay_fmt *f, int block)
{
    int rc = ev_begin(b, f, "content_block_stop");
    if (rc == BUF_OK)
        rc = buf_printf(b, "{\"type\":\"content_block_stop\",\"index\":%d}",
                        block);
    return rc == BUF_OK ? ev_end(b, f) : rc;
}

int ref_fmt_msg_delta(struct buf *b, const struct replay_fmt *f,
                      const char *stop_reason, int64_t output_tokens,
                      bool with_usage)
{
    int rc = ev_begin(b, f, "message_delta");
    if (rc == BUF_OK)
        rc = buf_printf(b,
                        "{\"type\":\"message_delta\",\"delta\":{"
                        "\"stop_reason\":\"%s\",\"stop_sequence\":null}",
                        stop_reason);
    if (rc == BUF_OK && with_usage)
        rc = buf_printf(b, ",\"usage\":{\"output_tokens\":%lld}",
                        (long long)output_tokens);
    if (rc == BUF_OK)
        rc = buf_puts(b, "}");
    return rc == BUF_OK ? ev_end(b, f) : rc;
}

int ref_fmt_msg_stop(struct buf *b, const struct replay_fmt *f)
{
    int rc = ev_begin(b, f, "message_stop");
    if (rc == BUF_OK)
        rc = buf_puts(b, "{\"type\":\"message_stop\"}");
    return rc == BUF_OK ? ev_end(b, f) : rc;
}
