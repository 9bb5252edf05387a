/* replay_bodies: complete replies, error bodies and the html page. */
#include "replay_bodies.h"

#include <string.h>

#include "json_escape.h"
#include "replay_format_resp.h"
#include "replay_tokens.h"

/* Appends "key":"tokens [from,to)" (no leading comma). */
static int text_field(struct buf *b, const char *key, size_t from, size_t to,
                      bool utf8)
{
    int rc = buf_printf(b, "\"%s\":\"", key);
    if (rc == BUF_OK)
        rc = replay_tokens_append(b, from, to, utf8);
    return rc == BUF_OK ? buf_puts(b, "\"") : rc;
}

/* The messages API reply: content blocks, stop_reason, usage. */
static int full_messages(struct buf *b, const struct replay_fmt *f, size_t n,
                         size_t h, int64_t prompt, const char *finish,
                         bool with_usage)
{
    int rc = buf_printf(b,
                        "{\"id\":\"%s\",\"type\":\"message\",\"role\":"
                        "\"assistant\",\"model\":\"%s\",\"content\":[",
                        f->id, f->model_json);
    if (rc == BUF_OK && h > 0) {
        rc = buf_puts(b, "{\"type\":\"thinking\",");
        if (rc == BUF_OK)
            rc = text_field(b, "thinking", 0, h, f->utf8);
        if (rc == BUF_OK)
            rc = buf_puts(b, "},");
    }
    if (rc == BUF_OK)
        rc = buf_puts(b, "{\"type\":\"text\",");
    if (rc == BUF_OK)
        rc = text_field(b, "text", h, n, f->utf8);
    if (rc == BUF_OK)
        rc = buf_printf(b, "}],\"stop_reason\":\"%s\",\"stop_sequence\":null",
                        strcmp(finish, "length") == 0 ? "max_tokens"
                                                      : "end_turn");
    if (rc == BUF_OK && with_usage)
        rc = buf_printf(b, ",\"usage\":{\"input_tokens\":%lld",
                        (long long)(f->cached_tokens > 0
                                        ? prompt - f->cached_tokens
                                        : prompt));
    if (rc == BUF_OK && with_usage)
        rc = replay_fmt_cache_usage(b, f, true);
    if (rc == BUF_OK && with_usage)
        rc = buf_printf(b, ",\"output_tokens\":%lld}", (long long)n);
    return rc == BUF_OK ? buf_puts(b, "}") : rc;
}

int replay_body_full(struct buf *b, const struct replay_fmt *f, size_t n,
                     size_t h, int64_t prompt, const char *finish,
                     bool with_usage)
{
    bool chat = f->api == API_OPENAI_CHAT;
    int rc;

    if (f->api == API_ANTHROPIC)
        return full_messages(b, f, n, h, prompt, finish, with_usage);
    if (f->api == API_OPENAI_RESPONSES) {
        struct replay_resp_usage u = {prompt, (int64_t)n, (int64_t)h,
                                      f->cached_tokens > 0 ? f->cached_tokens
                                                           : 0}; /* cache=N */
        return replay_body_resp_full(b, f, n, h, finish,
                                     with_usage ? &u : NULL);
    }
    rc = buf_printf(b,
                    "{\"id\":\"%s\",\"object\":\"%s\",\"created\":%lld,"
                    "\"model\":\"%s\",\"choices\":[{\"index\":0,",
                    f->id, chat ? "chat.completion" : "text_completion",
                    f->created, f->model_json);
    if (rc == BUF_OK && chat) {
        rc = buf_puts(b, "\"message\":{\"role\":\"assistant\",");
        if (rc == BUF_OK && h > 0) {
            rc = text_field(b, "reasoning_content", 0, h, f->utf8);
            if (rc == BUF_OK)
                rc = buf_puts(b, ",");
        }
        if (rc == BUF_OK)
            rc = text_field(b, "content", h, n, f->utf8);
        if (rc == BUF_OK)
            rc = buf_puts(b, "}");
    } else if (rc == BUF_OK) {
        rc = text_field(b, "text", 0, n, f->utf8);
    }
    if (rc == BUF_OK)
        rc = buf_printf(b, ",\"logprobs\":null,\"finish_reason\":\"%s\"}]",
                        finish);
    if (rc == BUF_OK && with_usage)
        rc = buf_printf(b,
                        ",\"usage\":{\"prompt_tokens\":%lld,"
                        "\"completion_tokens\":%lld,\"total_tokens\":%lld",
                        (long long)prompt, (long long)n,
                        (long long)(prompt + (int64_t)n));
    if (rc == BUF_OK && with_usage)
        rc = replay_fmt_cache_usage(b, f, false);
    if (rc == BUF_OK && with_usage)
        rc = buf_puts(b, "}");
    return rc == BUF_OK ? buf_puts(b, "}") : rc;
}

struct error_kind {
    int status;
    const char *openai_type;
    const char *openai_code; /* NULL: JSON null */
    const char *anthropic_type;
    const char *message;
};

static const struct error_kind error_kinds[] = {
    {400, "invalid_request_error", NULL, "invalid_request_error",
     "Invalid request"},
    {401, "invalid_request_error", "invalid_api_key", "authentication_error",
     "Incorrect API key provided"},
    {403, "insufficient_quota", "insufficient_quota", "permission_error",
     "Your API key is disabled or out of quota"},
    {404, "invalid_request_error", "model_not_found", "not_found_error",
     NULL /* names the model */},
    {405, "invalid_request_error", "method_not_allowed",
     "invalid_request_error", "Method not allowed"},
    {429, "requests", "rate_limit_exceeded", "rate_limit_error",
     "Rate limit reached for requests. Please try again in 2s."},
    {500, "server_error", NULL, "api_error",
     "The server had an error while processing your request"},
};

int replay_body_error(struct buf *b, enum api_kind api, int status,
                      const char *message, const char *model)
{
    const struct error_kind *k =
        &error_kinds[sizeof(error_kinds) / sizeof(error_kinds[0]) - 1];
    const char *code;
    size_t i;
    int rc;

    for (i = 0; i < sizeof(error_kinds) / sizeof(error_kinds[0]); i++) {
        if (error_kinds[i].status == status)
            k = &error_kinds[i];
    }
    if (api == API_ANTHROPIC)
        rc = buf_printf(b,
                        "{\"type\":\"error\",\"error\":{\"type\":\"%s\","
                        "\"message\":\"",
                        k->anthropic_type);
    else
        rc = buf_puts(b, "{\"error\":{\"message\":\"");
    if (rc != BUF_OK)
        return rc;
    if (message != NULL) {
        rc = json_escape_cstr(b, message);
    } else if (k->message != NULL) {
        rc = json_escape_cstr(b, k->message);
    } else {
        rc = buf_puts(b, "The model `");
        if (rc == BUF_OK)
            rc = json_escape_cstr(b, model ? model : "");
        if (rc == BUF_OK)
            rc = buf_puts(b, "` does not exist or you do not have access "
                             "to it.");
    }
    if (rc != BUF_OK)
        return rc;
    if (api == API_ANTHROPIC)
        return buf_puts(b, "\"}}");
    code = k->openai_code;
    if (status == 404 && model == NULL)
        code = "unknown_url";
    rc = buf_printf(
        b, "\",\"type\":\"%s\",\"param\":null,\"code\":", k->openai_type);
    if (rc == BUF_OK)
        rc = code ? buf_printf(b, "\"%s\"}}", code) : buf_puts(b, "null}}");
    return rc;
}

int replay_body_html(struct buf *b)
{
    return buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
                       "charset=\"utf-8\"><title>Welcome</title></head>\n"
                       "<body><h1>Welcome to our AI platform</h1><p>Sign in "
                       "to get started.</p></body></html>\n");
}
