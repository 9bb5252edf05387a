/* replay_format_resp: SSE events of the OpenAI Responses API. Sent once
 * per stream or per token; the token events use buf_printf and copies of
 * the vocabulary, as the Anthropic block events do. */
#include "replay_format_resp.h"

#include <string.h>

#include "json_escape.h"
#include "replay_tokens.h"

/* Starts event type: its "event:" line and its JSON's first members,
 * {"type":…,"sequence_number":N (the caller adds ",…" and the end). */
static int resp_begin(struct buf *b, struct replay_fmt *f, const char *type)
{
    int rc = replay_fmt_event_begin(b, f, type);
    if (rc == BUF_OK)
        rc = buf_printf(b, "{\"type\":\"%s\",\"sequence_number\":%u", type,
                        f->seq++);
    return rc;
}

/* Closes the JSON object and the event. */
static int resp_end_event(struct buf *b, const struct replay_fmt *f)
{
    int rc = buf_puts(b, "}");
    return rc == BUF_OK ? replay_fmt_event_end(b, f) : rc;
}

/* The id of output item index: "rs_…" (reasoning) or "msg_…". */
static int item_id(struct buf *b, const struct replay_fmt *f, bool reasoning)
{
    /* f->id is resp_rr_N: the item ids share its number */
    return buf_printf(b, "\"%s_%s\"", reasoning ? "rs" : "msg", f->id + 5);
}

/* The usage object, or null when u is NULL. */
static int usage_json(struct buf *b, const struct replay_resp_usage *u)
{
    if (!u)
        return buf_puts(b, "null");
    return buf_printf(b,
                      "{\"input_tokens\":%lld,\"input_tokens_details\":{"
                      "\"cached_tokens\":%lld},\"output_tokens\":%lld,"
                      "\"output_tokens_details\":{\"reasoning_tokens\":%lld},"
                      "\"total_tokens\":%lld}",
                      (long long)u->input, (long long)u->cached,
                      (long long)u->output, (long long)u->reasoning,
                      (long long)(u->input + u->output));
}

/* The response object: id to usage (usage NULL: null). */
static int response_obj(struct buf *b, const struct replay_fmt *f,
                        const char *status, const char *incomplete_reason,
                        const struct replay_resp_usage *u)
{
    int rc = buf_printf(b,
                        "{\"id\":\"%s\",\"object\":\"response\","
                        "\"created_at\":%lld,\"status\":\"%s\","
                        "\"error\":null,\"incomplete_details\":",
                        f->id, f->created, status);
    if (rc == BUF_OK)
        rc = incomplete_reason
                 ? buf_printf(b, "{\"reason\":\"%s\"}", incomplete_reason)
                 : buf_puts(b, "null");
    if (rc == BUF_OK)
        rc = buf_printf(
            b, ",\"model\":\"%s\",\"output\":[],\"usage\":", f->model_json);
    rc = rc ? rc : usage_json(b, u);
    return rc ? rc : buf_puts(b, "}");
}

int replay_fmt_resp_created(struct buf *b, struct replay_fmt *f)
{
    static const char *const types[] = {"response.created",
                                        "response.in_progress"};
    int rc = BUF_OK;
    for (size_t i = 0; i < 2 && rc == BUF_OK; i++) {
        rc = resp_begin(b, f, types[i]);
        rc = rc ? rc : buf_puts(b, ",\"response\":");
        rc = rc ? rc : response_obj(b, f, "in_progress", NULL, NULL);
        rc = rc ? rc : resp_end_event(b, f);
    }
    return rc;
}

/* An output item event's head: {"type":…,"sequence_number":N,
 * "output_index":index,"item":{"id":ID (the caller adds the item's other
 * members and closes it). */
static int item_head(struct buf *b, struct replay_fmt *f, const char *type,
                     int index, bool reasoning)
{
    int rc = resp_begin(b, f, type);
    rc = rc ? rc
            : buf_printf(b, ",\"output_index\":%d,\"item\":{\"id\":", index);
    return rc ? rc : item_id(b, f, reasoning);
}

/* A text or part event's head: {"type":…,"sequence_number":N,
 * "item_id":ID,"output_index":index and "summary_index":0 (reasoning) or
 * "content_index":0 (the caller adds the rest). */
static int part_head(struct buf *b, struct replay_fmt *f, const char *type,
                     int index, bool reasoning)
{
    int rc = resp_begin(b, f, type);
    rc = rc ? rc : buf_puts(b, ",\"item_id\":");
    rc = rc ? rc : item_id(b, f, reasoning);
    return rc ? rc
              : buf_printf(b, ",\"output_index\":%d,\"%s\":0", index,
                           reasoning ? "summary_index" : "content_index");
}

/* Tokens [from, to) as the rest of a JSON string, its closing quote and
 * the end of the event. */
static int tokens_end_event(struct buf *b, const struct replay_fmt *f,
                            size_t from, size_t to)
{
    int rc = replay_tokens_append(b, from, to, f->utf8);
    rc = rc ? rc : buf_puts(b, "\"");
    return rc ? rc : resp_end_event(b, f);
}

int replay_fmt_resp_item_added(struct buf *b, struct replay_fmt *f, int index,
                               bool reasoning)
{
    int rc = item_head(b, f, "response.output_item.added", index, reasoning);
    rc = rc ? rc
            : buf_puts(b, reasoning ? ",\"type\":\"reasoning\",\"summary\":[]}"
                                    : ",\"type\":\"message\",\"status\":"
                                      "\"in_progress\",\"role\":\"assistant\","
                                      "\"content\":[]}");
    rc = rc ? rc : resp_end_event(b, f);
    if (rc || reasoning)
        return rc;
    rc = part_head(b, f, "response.content_part.added", index, false);
    rc = rc ? rc
            : buf_puts(b, ",\"part\":{\"type\":\"output_text\",\"text\":\"\","
                          "\"annotations\":[]}");
    return rc ? rc : resp_end_event(b, f);
}

/* A delta event's members up to the opening quote of "delta". */
static int delta_head(struct buf *b, struct replay_fmt *f, int index,
                      bool reasoning)
{
    int rc = part_head(b, f,
                       reasoning ? "response.reasoning_summary_text.delta"
                                 : "response.output_text.delta",
                       index, reasoning);
    return rc ? rc : buf_puts(b, ",\"delta\":\"");
}

int replay_fmt_resp_delta(struct buf *b, struct replay_fmt *f, int index,
                          bool reasoning, size_t from, size_t to)
{
    size_t mark = b->len;
    int rc = delta_head(b, f, index, reasoning);
    rc = rc ? rc : tokens_end_event(b, f, from, to);
    if (rc != BUF_OK) { /* the whole event or nothing */
        b->len = mark;
        if (b->data)
            b->data[mark] = '\0';
    }
    return rc;
}

int replay_fmt_resp_text(struct buf *b, struct replay_fmt *f, int index,
                         const char *text)
{
    int rc = delta_head(b, f, index, false);
    rc = rc ? rc : json_escape_cstr(b, text);
    rc = rc ? rc : buf_puts(b, "\"");
    return rc ? rc : resp_end_event(b, f);
}

int replay_fmt_resp_item_done(struct buf *b, struct replay_fmt *f, int index,
                              bool reasoning, size_t from, size_t to)
{
    int rc = part_head(b, f,
                       reasoning ? "response.reasoning_summary_text.done"
                                 : "response.output_text.done",
                       index, reasoning);
    rc = rc ? rc : buf_puts(b, ",\"text\":\"");
    rc = rc ? rc : tokens_end_event(b, f, from, to);
    if (rc == BUF_OK && !reasoning) {
        rc = part_head(b, f, "response.content_part.done", index, false);
        rc = rc ? rc : buf_puts(b, ",\"part\":{\"type\":\"output_text\"}");
        rc = rc ? rc : resp_end_event(b, f);
    }
    rc = rc ? rc
            : item_head(b, f, "response.output_item.done", index, reasoning);
    rc = rc ? rc
            : buf_puts(b, reasoning ? ",\"type\":\"reasoning\"}"
                                    : ",\"type\":\"message\",\"status\":"
                                      "\"completed\",\"role\":\"assistant\"}");
    return rc ? rc : resp_end_event(b, f);
}

int replay_fmt_resp_end(struct buf *b, struct replay_fmt *f, bool incomplete,
                        const struct replay_resp_usage *usage)
{
    int rc = resp_begin(
        b, f, incomplete ? "response.incomplete" : "response.completed");
    rc = rc ? rc : buf_puts(b, ",\"response\":");
    rc = rc ? rc
            : response_obj(b, f, incomplete ? "incomplete" : "completed",
                           incomplete ? "max_output_tokens" : NULL, usage);
    return rc ? rc : resp_end_event(b, f);
}

int replay_fmt_resp_failed(struct buf *b, struct replay_fmt *f,
                           const char *message)
{
    int rc = resp_begin(b, f, "response.failed");
    rc = rc ? rc
            : buf_printf(b,
                         ",\"response\":{\"id\":\"%s\",\"object\":\"response\","
                         "\"created_at\":%lld,\"status\":\"failed\","
                         "\"error\":{\"code\":\"server_error\",\"message\":\"",
                         f->id, f->created);
    rc = rc ? rc : json_escape_cstr(b, message);
    rc = rc ? rc
            : buf_printf(b,
                         "\"},\"incomplete_details\":null,\"model\":\"%s\","
                         "\"output\":[],\"usage\":null}",
                         f->model_json);
    return rc ? rc : resp_end_event(b, f);
}

int replay_body_resp_full(struct buf *b, const struct replay_fmt *f, size_t n,
                          size_t h, const char *finish,
                          const struct replay_resp_usage *usage)
{
    bool incomplete = strcmp(finish, "length") == 0;
    int rc =
        buf_printf(b,
                   "{\"id\":\"%s\",\"object\":\"response\","
                   "\"created_at\":%lld,\"status\":\"%s\","
                   "\"error\":null,\"incomplete_details\":%s,"
                   "\"model\":\"%s\",\"output\":[",
                   f->id, f->created, incomplete ? "incomplete" : "completed",
                   incomplete ? "{\"reason\":\"max_output_tokens\"}" : "null",
                   f->model_json);
    if (rc == BUF_OK && h > 0) {
        rc = buf_puts(b, "{\"id\":");
        rc = rc ? rc : item_id(b, f, true);
        rc = rc ? rc
                : buf_puts(b, ",\"type\":\"reasoning\",\"summary\":[{\"type\":"
                              "\"summary_text\",\"text\":\"");
        rc = rc ? rc : replay_tokens_append(b, 0, h, f->utf8);
        rc = rc ? rc : buf_puts(b, "\"}]},");
    }
    rc = rc ? rc : buf_puts(b, "{\"id\":");
    rc = rc ? rc : item_id(b, f, false);
    rc = rc ? rc
            : buf_puts(b, ",\"type\":\"message\",\"status\":\"completed\","
                          "\"role\":\"assistant\",\"content\":[{\"type\":"
                          "\"output_text\",\"annotations\":[],\"text\":\"");
    rc = rc ? rc : replay_tokens_append(b, h, n, f->utf8);
    rc = rc ? rc : buf_puts(b, "\"}]}],\"usage\":");
    rc = rc ? rc : usage_json(b, usage);
    return rc ? rc : buf_puts(b, "}");
}
