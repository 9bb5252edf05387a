/* replay_format: SSE event bytes for chat, completions and messages. The
 * per-token events are assembled from precomputed pieces with one buffer
 * growth and plain copies (they are most of the server's work); the events
 * sent once per stream use buf_printf. */
#include "replay_format.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "json_escape.h"
#include "replay_decimal.h"
#include "replay_tokens.h"

/* Bytes to copy into an event. */
struct piece {
    const char *p;
    size_t n;
};

#define LIT(s) ((struct piece){(s), sizeof(s) - 1})
#define N_PIECES(v) (sizeof(v) / sizeof((v)[0]))

/* Tokens [from, to) of the vocabulary, copied before piece number at. */
struct token_run {
    size_t from, to;
    bool utf8;
    size_t at;
};

/* Appends the pieces v[0..n) (and the tokens of run, when not NULL) in one
 * buffer growth. Returns a buf error code. */
static int emit(struct buf *b, const struct piece *v, size_t n,
                const struct token_run *run)
{
    size_t i, len = 0;
    char *p;
    int rc;

    for (i = 0; i < n; i++)
        len += v[i].n;
    if (run != NULL)
        len += replay_tokens_len(run->from, run->to, run->utf8);
    rc = buf_extend(b, len, &p);
    if (rc != BUF_OK)
        return rc;
    for (i = 0; i < n; i++) {
        if (run != NULL && i == run->at)
            p = replay_tokens_copy(p, run->from, run->to, run->utf8);
        memcpy(p, v[i].p, v[i].n);
        p += v[i].n;
    }
    return BUF_OK;
}

void replay_fmt_init(struct replay_fmt *f, enum api_kind api, bool crlf,
                     bool utf8, uint64_t rr, const char *model)
{
    struct buf b;
    static const char *const prefix[API_KIND_COUNT] = {
        "chatcmpl-rr-", "cmpl-rr-", "msg_rr_", "resp_rr_"};
    int n;

    memset(f, 0, sizeof(*f));
    f->api = api;
    f->cached_tokens = -1;
    f->crlf = crlf;
    f->utf8 = utf8;
    f->created = (long long)time(NULL);
    snprintf(f->id, sizeof(f->id), "%s%llu", prefix[api],
             (unsigned long long)rr);
    buf_init(&b, sizeof(f->model_json) - 1);
    if (json_escape_cstr(&b, model) == BUF_OK && b.len > 0)
        memcpy(f->model_json, b.data, b.len + 1);
    buf_free(&b);
    f->model_len = strlen(f->model_json);
    n = snprintf(f->chunk_pre, sizeof(f->chunk_pre),
                 "{\"id\":\"%s\",\"object\":\"%s\",\"created\":%lld,"
                 "\"model\":\"",
                 f->id,
                 api == API_OPENAI_CHAT ? "chat.completion.chunk"
                                        : "text_completion",
                 f->created);
    f->chunk_pre_len =
        n > 0 && (size_t)n < sizeof(f->chunk_pre) ? (size_t)n : 0;
}

/* "data: " (or "data:" without the space). */
static struct piece data_piece(const struct replay_fmt *f)
{
    return f->nospace ? LIT("data:") : LIT("data: ");
}

/* The line end of f's stream. */
static struct piece eol_piece(const struct replay_fmt *f)
{
    return f->crlf ? LIT("\r\n") : LIT("\n");
}

/* The end of an event: the line end and the blank line. */
static struct piece end_piece(const struct replay_fmt *f)
{
    return f->crlf ? LIT("\r\n\r\n") : LIT("\n\n");
}

/* Starts an event: "event: NAME" line (when name) and "data: ". */
static int ev_begin(struct buf *b, const struct replay_fmt *f, const char *name)
{
    if (name != NULL) {
        struct piece v[] = {f->nospace ? LIT("event:") : LIT("event: "),
                            {name, strlen(name)},
                            eol_piece(f),
                            data_piece(f)};
        return emit(b, v, N_PIECES(v), NULL);
    }
    return emit(b, (struct piece[]){data_piece(f)}, 1, NULL);
}

/* Ends an event with the blank line. */
static int ev_end(struct buf *b, const struct replay_fmt *f)
{
    return emit(b, (struct piece[]){end_piece(f)}, 1, NULL);
}

int replay_fmt_event_begin(struct buf *b, const struct replay_fmt *f,
                           const char *name)
{
    return ev_begin(b, f, name);
}

int replay_fmt_event_end(struct buf *b, const struct replay_fmt *f)
{
    return ev_end(b, f);
}

/* The Responses API's error event up to its message's value. */
static int resp_error_head(struct buf *b, const struct replay_fmt *f)
{
    int rc = ev_begin(b, f, "error");
    if (rc == BUF_OK)
        rc = buf_printf(b,
                        "{\"type\":\"error\",\"sequence_number\":%u,"
                        "\"code\":\"server_error\",\"param\":null,"
                        "\"message\":\"",
                        f->seq);
    return rc;
}

/* The chunk object's pieces up to the opening of "choices":[ (the last
 * one is that key, to be extended by the caller). */
#define CHUNK_HEAD(f)                                                          \
    data_piece(f), {(f)->chunk_pre, (f)->chunk_pre_len},                       \
    {                                                                          \
        (f)->model_json, (f)->model_len                                        \
    }

/* Chat/completions chunk object up to the opening of "choices":[. */
static int chunk_head(struct buf *b, const struct replay_fmt *f)
{
    struct piece v[] = {CHUNK_HEAD(f), LIT("\",\"choices\":[")};

    return emit(b, v, N_PIECES(v), NULL);
}

int replay_fmt_keepalive(struct buf *b, const struct replay_fmt *f)
{
    struct piece v[] = {LIT(": keep-alive"), end_piece(f)};

    return emit(b, v, N_PIECES(v), NULL);
}

int replay_fmt_role(struct buf *b, const struct replay_fmt *f)
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
    char num[REPLAY_DECIMAL_MAX];
    struct piece v[] = {
        f->nospace ? LIT("event:") : LIT("event: "),
        LIT("content_block_delta"),
        eol_piece(f),
        data_piece(f),
        LIT("{\"type\":\"content_block_delta\",\"index\":"),
        {num, replay_decimal_i64(num, block)},
        thinking
            ? LIT(",\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"")
            : LIT(",\"delta\":{\"type\":\"text_delta\",\"text\":\""),
        LIT("\"}}"),
        end_piece(f),
    };
    struct token_run run = {from, to, f->utf8, 7};

    return emit(b, v, N_PIECES(v), &run);
}

int replay_fmt_tokens(struct buf *b, const struct replay_fmt *f, bool first,
                      bool role_sent, bool reasoning, int block, size_t from,
                      size_t to)
{
    if (f->api == API_ANTHROPIC)
        return msg_tokens(b, f, reasoning, block, from, to);
    if (f->api == API_OPENAI_CHAT) {
        struct piece v[] = {
            CHUNK_HEAD(f),
            LIT("\",\"choices\":[{\"index\":0,\"delta\":{"),
            first && !role_sent ? LIT("\"role\":\"assistant\",") : LIT(""),
            reasoning ? LIT("\"reasoning_content\":\"") : LIT("\"content\":\""),
            LIT("\"},\"logprobs\":null,\"finish_reason\":null}]}"),
            end_piece(f),
        };
        struct token_run run = {from, to, f->utf8, 6};
        return emit(b, v, N_PIECES(v), &run);
    } else {
        struct piece v[] = {
            CHUNK_HEAD(f),
            LIT("\",\"choices\":[{\"index\":0,\"text\":\""),
            LIT("\",\"logprobs\":null,\"finish_reason\":null}]}"),
            end_piece(f),
        };
        struct token_run run = {from, to, f->utf8, 4};
        return emit(b, v, N_PIECES(v), &run);
    }
}

int replay_fmt_finish(struct buf *b, const struct replay_fmt *f,
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

int replay_fmt_cache_usage(struct buf *b, const struct replay_fmt *f,
                           bool anthropic)
{
    if (f->cached_tokens < 0)
        return BUF_OK;
    if (anthropic)
        return buf_printf(b,
                          ",\"cache_read_input_tokens\":%lld,"
                          "\"cache_creation_input_tokens\":0",
                          (long long)f->cached_tokens);
    return buf_printf(b, ",\"prompt_tokens_details\":{\"cached_tokens\":%lld}",
                      (long long)f->cached_tokens);
}

int replay_fmt_usage(struct buf *b, const struct replay_fmt *f,
                     int64_t prompt_tokens, int64_t completion_tokens)
{
    int rc = chunk_head(b, f);
    if (rc == BUF_OK)
        rc = buf_printf(b,
                        "],\"usage\":{\"prompt_tokens\":%lld,"
                        "\"completion_tokens\":%lld,\"total_tokens\":%lld",
                        (long long)prompt_tokens, (long long)completion_tokens,
                        (long long)(prompt_tokens + completion_tokens));
    if (rc == BUF_OK)
        rc = replay_fmt_cache_usage(b, f, false);
    if (rc == BUF_OK)
        rc = buf_puts(b, "}}");
    return rc == BUF_OK ? ev_end(b, f) : rc;
}

/* ms per token and tokens per second, 0 when undefined (llama.cpp prints
 * 0 rather than a NaN). */
static double per(double ms, int64_t n)
{
    return n > 0 ? ms / (double)n : 0;
}

static double rate(int64_t n, double ms)
{
    return ms > 0 ? 1000.0 * (double)n / ms : 0;
}

int replay_fmt_llama_timings(struct buf *b, const struct replay_fmt *f,
                             const struct replay_llama_timings *t,
                             bool with_usage, int64_t prompt_tokens,
                             int64_t completion_tokens)
{
    int rc = chunk_head(b, f);
    if (rc == BUF_OK && with_usage) {
        rc = buf_printf(b,
                        "],\"usage\":{\"prompt_tokens\":%lld,"
                        "\"completion_tokens\":%lld,\"total_tokens\":%lld",
                        (long long)prompt_tokens, (long long)completion_tokens,
                        (long long)(prompt_tokens + completion_tokens));
        if (rc == BUF_OK)
            rc = replay_fmt_cache_usage(b, f, false);
        if (rc == BUF_OK)
            rc = buf_puts(b, "}");
    } else if (rc == BUF_OK)
        rc = buf_puts(b, "]");
    if (rc == BUF_OK)
        rc = buf_printf(
            b,
            ",\"timings\":{\"prompt_n\":%lld,\"prompt_ms\":%.3f,"
            "\"prompt_per_token_ms\":%.3f,\"prompt_per_second\":%.3f,"
            "\"predicted_n\":%lld,\"predicted_ms\":%.3f,"
            "\"predicted_per_token_ms\":%.3f,\"predicted_per_second\":%.3f",
            (long long)t->prompt_n, t->prompt_ms,
            per(t->prompt_ms, t->prompt_n), rate(t->prompt_n, t->prompt_ms),
            (long long)t->predicted_n, t->predicted_ms,
            per(t->predicted_ms, t->predicted_n),
            rate(t->predicted_n, t->predicted_ms));
    if (rc == BUF_OK && f->cached_tokens >= 0) /* llama.cpp's own name */
        rc = buf_printf(b, ",\"cache_n\":%lld", (long long)f->cached_tokens);
    if (rc == BUF_OK)
        rc = buf_puts(b, "}}");
    return rc == BUF_OK ? ev_end(b, f) : rc;
}

int replay_fmt_done(struct buf *b, const struct replay_fmt *f)
{
    int rc = ev_begin(b, f, NULL);
    if (rc == BUF_OK)
        rc = buf_puts(b, "[DONE]");
    return rc == BUF_OK ? ev_end(b, f) : rc;
}

int replay_fmt_error_event(struct buf *b, const struct replay_fmt *f)
{
    int rc;

    if (f->api == API_OPENAI_RESPONSES) {
        rc = resp_error_head(b, f);
        if (rc == BUF_OK)
            rc = buf_puts(b, "The server had an error while processing your "
                             "request (replay fault error-mid-stream)\"}");
    } else if (f->api == API_ANTHROPIC) {
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

int replay_fmt_error_field(struct buf *b, const struct replay_fmt *f, int code,
                           const char *message, const char *type)
{
    int rc = buf_printf(b, "%s{\"code\":%d,\"message\":\"",
                        f->nospace ? "error:" : "error: ", code);
    if (rc == BUF_OK)
        rc = json_escape_cstr(b, message);
    if (rc == BUF_OK)
        rc = buf_puts(b, "\",\"type\":\"");
    if (rc == BUF_OK)
        rc = json_escape_cstr(b, type);
    if (rc == BUF_OK)
        rc = buf_puts(b, "\"}");
    return rc == BUF_OK ? ev_end(b, f) : rc;
}

int replay_fmt_error_object(struct buf *b, const struct replay_fmt *f,
                            const char *message)
{
    int rc = ev_begin(b, f, NULL);
    if (rc == BUF_OK)
        rc = buf_puts(b, "{\"object\":\"error\",\"message\":\"");
    if (rc == BUF_OK)
        rc = json_escape_cstr(b, message);
    if (rc == BUF_OK)
        rc = buf_puts(b, "\",\"type\":\"BadRequestError\",\"param\":null,"
                         "\"code\":400}");
    return rc == BUF_OK ? ev_end(b, f) : rc;
}

int replay_fmt_error_text(struct buf *b, const struct replay_fmt *f,
                          const char *message)
{
    int rc;

    if (f->api == API_OPENAI_RESPONSES) {
        rc = resp_error_head(b, f);
        rc = rc ? rc : json_escape_cstr(b, message);
        rc = rc ? rc : buf_puts(b, "\"}");
        return rc ? rc : ev_end(b, f);
    }
    if (f->api == API_ANTHROPIC) {
        rc = ev_begin(b, f, "error");
        if (rc == BUF_OK)
            rc = buf_puts(b, "{\"type\":\"error\",\"error\":{\"type\":"
                             "\"overloaded_error\",\"message\":\"");
    } else {
        rc = ev_begin(b, f, NULL);
        if (rc == BUF_OK)
            rc = buf_puts(b, "{\"error\":{\"message\":\"");
    }
    if (rc == BUF_OK)
        rc = json_escape_cstr(b, message);
    if (rc == BUF_OK)
        rc = buf_puts(b, f->api == API_ANTHROPIC
                             ? "\"}}"
                             : "\",\"type\":\"server_error\",\"param\":null,"
                               "\"code\":null}}");
    return rc == BUF_OK ? ev_end(b, f) : rc;
}

int replay_fmt_text(struct buf *b, const struct replay_fmt *f, bool first,
                    bool role_sent, int block, const char *text)
{
    int rc;

    if (f->api == API_ANTHROPIC) {
        rc = ev_begin(b, f, "content_block_delta");
        if (rc == BUF_OK)
            rc = buf_printf(b,
                            "{\"type\":\"content_block_delta\",\"index\":%d,"
                            "\"delta\":{\"type\":\"text_delta\",\"text\":\"",
                            block);
    } else {
        rc = chunk_head(b, f);
        if (rc == BUF_OK)
            rc = buf_puts(b, f->api == API_OPENAI_CHAT
                                 ? (first && !role_sent
                                        ? "{\"index\":0,\"delta\":{\"role\":"
                                          "\"assistant\",\"content\":\""
                                        : "{\"index\":0,\"delta\":{"
                                          "\"content\":\"")
                                 : "{\"index\":0,\"text\":\"");
    }
    if (rc == BUF_OK)
        rc = json_escape_cstr(b, text);
    if (rc == BUF_OK)
        rc = buf_puts(b, f->api == API_ANTHROPIC ? "\"}}"
                         : f->api == API_OPENAI_CHAT
                             ? "\"},\"logprobs\":null,\"finish_reason\":"
                               "null}]}"
                             : "\",\"logprobs\":null,\"finish_reason\":"
                               "null}]}");
    return rc == BUF_OK ? ev_end(b, f) : rc;
}

int replay_fmt_msg_start(struct buf *b, const struct replay_fmt *f,
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
        rc = buf_printf(b, ",\"usage\":{\"input_tokens\":%lld",
                        (long long)(f->cached_tokens > 0
                                        ? input_tokens - f->cached_tokens
                                        : input_tokens));
    if (rc == BUF_OK && with_usage)
        rc = replay_fmt_cache_usage(b, f, true);
    if (rc == BUF_OK && with_usage)
        rc = buf_puts(b, ",\"output_tokens\":1}");
    if (rc == BUF_OK)
        rc = buf_puts(b, "}}");
    return rc == BUF_OK ? ev_end(b, f) : rc;
}

int replay_fmt_block_start(struct buf *b, const struct replay_fmt *f, int block,
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

int replay_fmt_ping(struct buf *b, const struct replay_fmt *f)
{
    int rc = ev_begin(b, f, "ping");
    if (rc == BUF_OK)
        rc = buf_puts(b, "{\"type\":\"ping\"}");
    return rc == BUF_OK ? ev_end(b, f) : rc;
}

int replay_fmt_block_stop(struct buf *b, const struct replay_fmt *f, int block)
{
    int rc = ev_begin(b, f, "content_block_stop");
    if (rc == BUF_OK)
        rc = buf_printf(b, "{\"type\":\"content_block_stop\",\"index\":%d}",
                        block);
    return rc == BUF_OK ? ev_end(b, f) : rc;
}

int replay_fmt_msg_delta(struct buf *b, const struct replay_fmt *f,
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

int replay_fmt_msg_stop(struct buf *b, const struct replay_fmt *f)
{
    int rc = ev_begin(b, f, "message_stop");
    if (rc == BUF_OK)
        rc = buf_puts(b, "{\"type\":\"message_stop\"}");
    return rc == BUF_OK ? ev_end(b, f) : rc;
}
