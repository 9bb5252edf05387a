/* check_expand: fills the {name} placeholders of the --check verdict
 * templates with a probe's facts. */
#include <stdio.h>
#include <string.h>

#include "check_verdict.h"

/* Appends text to out (NUL-terminated, truncating). */
static void put(char *out, size_t len, size_t *pos, const char *text)
{
    size_t n = strlen(text);
    if (*pos + 1 >= len)
        return;
    if (n > len - 1 - *pos)
        n = len - 1 - *pos;
    memcpy(out + *pos, text, n);
    *pos += n;
    out[*pos] = '\0';
}

/* Formats ns as ms with one decimal, or "-" when unknown. */
static void ms(char *b, size_t len, int64_t ns)
{
    if (ns < 0)
        snprintf(b, len, "-");
    else
        snprintf(b, len, "%.1f", (double)ns / 1e6);
}

/* The value of the fact called name, formatted into b. */
static const char *fact(const struct probe_facts *f, const char *name, char *b,
                        size_t len)
{
    const char *source;
    b[0] = '\0';
    if (!strcmp(name, "model"))
        return f->model;
    if (!strcmp(name, "url"))
        return f->url;
    if (!strcmp(name, "base"))
        return f->base;
    if (!strcmp(name, "base_key"))
        return f->base_key ? f->base_key : "cline.openAiBaseUrl";
    if (!strcmp(name, "api_path")) { /* what the API kind posts to */
        size_t n = f->base ? strlen(f->base) : 0;
        if (f->url && n && strncmp(f->url, f->base, n) == 0 && f->url[n])
            return f->url + n;
        return api_kind_path(f->api_kind);
    }
    if (!strcmp(name, "host"))
        return f->host;
    if (!strcmp(name, "key_source"))
        return f->key_source;
    if (!strcmp(name, "key_env"))
        return f->key_env[0] ? f->key_env : "OPENAI_API_KEY";
    if (!strcmp(name, "curl"))
        return f->curl_error;
    if (!strcmp(name, "retry"))
        return f->retry_after;
    if (!strcmp(name, "location"))
        return f->location[0] ? f->location : "(no Location header)";
    if (!strcmp(name, "models"))
        return f->models_hint;
    if (!strcmp(name, "api"))
        return f->api ? f->api : "";
    if (!strcmp(name, "alt_api"))
        return f->alt_api ? f->alt_api : "";
    if (!strcmp(name, "alt_url"))
        return f->alt_url ? f->alt_url : "";
    if (!strcmp(name, "record"))
        return f->record_hint;
    if (!strcmp(name, "status"))
        snprintf(b, len, "%d", f->http_status);
    else if (!strcmp(name, "alt_status"))
        snprintf(b, len, "%d", f->alt_status);
    else if (!strcmp(name, "key_len"))
        snprintf(b, len, "%zu", f->key_len);
    else if (!strcmp(name, "max_tokens"))
        snprintf(b, len, "%lld", (long long)f->max_tokens);
    else if (!strcmp(name, "connect_timeout"))
        snprintf(b, len, "%g", f->connect_timeout_s);
    else if (!strcmp(name, "wait"))
        snprintf(b, len, "%g",
                 f->forced_idle ? f->idle_timeout_s : f->timeout_s);
    else if (!strcmp(name, "tokens"))
        snprintf(b, len, "%llu", (unsigned long long)f->token_events);
    else if (!strcmp(name, "token_events")) /* "1 token event", "3 ..." */
        snprintf(b, len, "%llu token event%s",
                 (unsigned long long)f->token_events,
                 f->token_events == 1 ? "" : "s");
    else if (!strcmp(name, "events"))
        snprintf(b, len, "%llu event%s", (unsigned long long)f->sse_events,
                 f->sse_events == 1 ? "" : "s");
    else if (!strcmp(name, "sse_events"))
        snprintf(b, len, "%llu", (unsigned long long)f->sse_events);
    else if (!strcmp(name, "elapsed"))
        snprintf(b, len, "%.2f", (double)f->total_ns / 1e9);
    else if (!strcmp(name, "server") && f->server_message[0])
        snprintf(b, len, "; the server says: \"%.300s\"", f->server_message);
    else if (!strcmp(name, "title") && f->html_title[0])
        snprintf(b, len, ", page title \"%.80s\"", f->html_title);
    else if (!strcmp(name, "json_tokens") && f->json_usage_tokens >= 0)
        snprintf(b, len, " (%lld tokens)", (long long)f->json_usage_tokens);
    else if (!strcmp(name, "done"))
        snprintf(b, len, "%s",
                 !f->done_seen ? ""
                 : f->api_kind == API_OPENAI_RESPONSES
                     ? " and response.completed"
                 : f->api_kind == API_ANTHROPIC ? " and message_stop"
                                                : " and [DONE]");
    else if (!strcmp(name, "stream_error") &&
             (f->stream_error_type[0] || f->stream_error_message[0]))
        snprintf(b, len, ": %s%s\"%.300s\"", f->stream_error_type,
                 f->stream_error_type[0] ? " " : "", f->stream_error_message);
    else if (!strcmp(name, "what") && f->bytes == 0)
        snprintf(b, len, "no body");
    else if (!strcmp(name, "what"))
        snprintf(b, len, "%llu body bytes (%llu keep-alive comments)",
                 (unsigned long long)f->bytes, (unsigned long long)f->comments);
    else if (!strcmp(name, "ttft"))
        ms(b, len, f->ttft_ns);
    else if (!strcmp(name, "tpot")) {
        double t = check_tpot_ms(f);
        if (t < 0)
            snprintf(b, len, "undefined (fewer than 2 tokens)");
        else
            snprintf(b, len, "%.1f ms", t);
    } else if (!strcmp(name, "out_tokens"))
        snprintf(b, len, "%lld", (long long)check_output_tokens(f, &source));
    else if (!strcmp(name, "source")) {
        check_output_tokens(f, &source);
        return source;
    }
    return b;
}

void check_verdict_expand(const char *tmpl, const struct probe_facts *f,
                          char *out, size_t len)
{
    size_t pos = 0;
    const char *p = tmpl;
    char name[32], val[512], lit[2] = {0, 0};
    out[0] = '\0';
    while (*p) {
        const char *close = *p == '{' ? strchr(p, '}') : NULL;
        if (close && (size_t)(close - p - 1) < sizeof name) {
            memcpy(name, p + 1, (size_t)(close - p - 1));
            name[close - p - 1] = '\0';
            put(out, len, &pos, fact(f, name, val, sizeof val));
            p = close + 1;
        } else {
            lit[0] = *p++;
            put(out, len, &pos, lit);
        }
    }
}
