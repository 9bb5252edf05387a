/* reply_text: a reply's answer text gathered from its SSE events. */
#include "reply_text.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* The answer text one event's JSON carries, or NULL. */
static const cJSON *event_text(const cJSON *j)
{
    const cJSON *choices = cJSON_GetObjectItemCaseSensitive(j, "choices");
    const cJSON *delta, *v, *type;
    if (cJSON_IsArray(choices)) {
        const cJSON *c0 = cJSON_GetArrayItem(choices, 0);
        delta = cJSON_GetObjectItemCaseSensitive(c0, "delta");
        v = cJSON_GetObjectItemCaseSensitive(delta, "content");
        if (cJSON_IsString(v))
            return v; /* chat */
        v = cJSON_GetObjectItemCaseSensitive(c0, "text");
        return cJSON_IsString(v) ? v : NULL; /* completions */
    }
    type = cJSON_GetObjectItemCaseSensitive(j, "type");
    if (!cJSON_IsString(type))
        return NULL;
    if (strcmp(type->valuestring, "content_block_delta") == 0) {
        delta = cJSON_GetObjectItemCaseSensitive(j, "delta");
        v = cJSON_GetObjectItemCaseSensitive(delta, "text");
        return cJSON_IsString(v) ? v : NULL; /* anthropic */
    }
    if (strcmp(type->valuestring, "response.output_text.delta") == 0) {
        v = cJSON_GetObjectItemCaseSensitive(j, "delta");
        return cJSON_IsString(v) ? v : NULL; /* responses */
    }
    return NULL;
}

/* sse handler: appends an event's answer text. */
static void on_event(void *ctx, const struct sse_event *ev)
{
    struct reply_text *r = ctx;
    cJSON *j;
    const cJSON *v;
    size_t n;
    if (ev->data_len == 0 || ev->data[0] != '{' || r->truncated)
        return;
    j = cJSON_ParseWithLength(ev->data, ev->data_len);
    v = event_text(j);
    if (v) {
        n = strlen(v->valuestring);
        if (r->text.len + n > RUN_REPLY_MAX) {
            r->truncated = true;
        } else if (buf_append(&r->text, v->valuestring, n)) {
            r->nomem = true;
        }
    }
    cJSON_Delete(j);
}

/* Starts an empty collector. Cannot fail. */
static void reply_text_init(struct reply_text *r)
{
    memset(r, 0, sizeof *r);
    sse_parser_init(&r->sse, 0);
    buf_init(&r->text, 0);
}

void reply_text_feed(struct reply_text *r, const char *p, size_t n)
{
    struct sse_handler h = {on_event, NULL, r, NULL};
    sse_parser_feed(&r->sse, 0, p, n, &h);
}

const char *reply_text_value(struct reply_text *r, size_t *len)
{
    struct sse_handler h = {on_event, NULL, r, NULL};
    /* a last event without its blank line still counts */
    sse_parser_feed(&r->sse, 0, "\n\n", 2, &h);
    *len = r->text.data ? r->text.len : 0;
    return r->text.data ? r->text.data : "";
}

/* Frees the buffers. NULL-safe. */
static void reply_text_free(struct reply_text *r)
{
    if (!r)
        return;
    sse_parser_free(&r->sse);
    buf_free(&r->text);
}

struct reply_text *reply_text_new(void)
{
    struct reply_text *r = malloc(sizeof *r);
    if (r)
        reply_text_init(r);
    return r;
}

void reply_text_delete(struct reply_text *r)
{
    reply_text_free(r);
    free(r);
}
