/* request_body: builds chat / completions / anthropic request bodies. */
#include "request_body.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "exact_prompt.h"

/* Appends the text of a message content (string or parts) to b. */
static int append_content(struct buf *b, const cJSON *content)
{
    const cJSON *part;
    if (cJSON_IsString(content))
        return buf_puts(b, content->valuestring);
    cJSON_ArrayForEach(part, content)
    {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(part, "text");
        if (cJSON_IsString(t) && buf_puts(b, t->valuestring))
            return 1;
    }
    return 0;
}

/* The completions prompt for item: its prompt, or its messages' texts
 * joined by blank lines. Returns a malloc'd string or NULL. */
static char *prompt_text(const struct workload_item *item)
{
    struct buf b;
    const cJSON *m;
    bool first = true;
    if (item->prompt)
        return strdup(item->prompt);
    buf_init(&b, 0);
    if (buf_puts(&b, ""))
        return NULL;
    cJSON_ArrayForEach(m, item->messages)
    {
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(m, "content");
        if ((!first && buf_puts(&b, "\n\n")) || append_content(&b, c)) {
            buf_free(&b);
            return NULL;
        }
        first = false;
    }
    return b.data;
}

/* Adds "messages" (and for anthropic "system") for item to body. */
static int add_messages(cJSON *body, const struct request_body_opts *o,
                        const struct workload_item *item)
{
    cJSON *msgs, *m;
    const cJSON *src;
    struct buf system;
    if (item->prompt) {
        msgs = cJSON_AddArrayToObject(body, "messages");
        m = cJSON_CreateObject();
        if (!msgs || !m || !cJSON_AddItemToArray(msgs, m) ||
            !cJSON_AddStringToObject(m, "role", "user") ||
            !cJSON_AddStringToObject(m, "content", item->prompt))
            return 1;
        return 0;
    }
    if (o->api != API_ANTHROPIC) {
        /* a reference: the item's messages are printed, not copied (a
         * session's history is large and shared) */
        msgs = cJSON_CreateArrayReference(item->messages->child);
        return !msgs || !cJSON_AddItemToObject(body, "messages", msgs);
    }
    /* Anthropic takes the system prompt as a top-level field. */
    buf_init(&system, 0);
    msgs = cJSON_AddArrayToObject(body, "messages");
    if (!msgs)
        return 1;
    cJSON_ArrayForEach(src, item->messages)
    {
        const cJSON *role = cJSON_GetObjectItemCaseSensitive(src, "role");
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(src, "content");
        if (cJSON_IsString(role) && strcmp(role->valuestring, "system") == 0) {
            if ((system.len && buf_puts(&system, "\n\n")) ||
                append_content(&system, c))
                goto fail;
            continue;
        }
        m = cJSON_CreateObjectReference(src->child);
        if (!m || !cJSON_AddItemToArray(msgs, m))
            goto fail;
    }
    if (system.len && !cJSON_AddStringToObject(body, "system", system.data))
        goto fail;
    buf_free(&system);
    return 0;
fail:
    buf_free(&system);
    return 1;
}

/* Adds the Responses API's "input" for item: a text prompt as one user
 * message, messages with their content flattened to text (chat's
 * {"type":"text"} parts are not Responses input parts). */
static int add_input(cJSON *body, const struct workload_item *item)
{
    cJSON *input = cJSON_AddArrayToObject(body, "input"), *m;
    const cJSON *src;
    struct buf text;
    if (!input)
        return 1;
    if (item->prompt) {
        m = cJSON_CreateObject();
        return !m || !cJSON_AddItemToArray(input, m) ||
               !cJSON_AddStringToObject(m, "role", "user") ||
               !cJSON_AddStringToObject(m, "content", item->prompt);
    }
    cJSON_ArrayForEach(src, item->messages)
    {
        const cJSON *role = cJSON_GetObjectItemCaseSensitive(src, "role");
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(src, "content");
        buf_init(&text, 0);
        m = cJSON_CreateObject();
        if (!m || !cJSON_AddItemToArray(input, m) || buf_puts(&text, "") ||
            append_content(&text, c) ||
            !cJSON_AddStringToObject(
                m, "role", cJSON_IsString(role) ? role->valuestring : "user") ||
            !cJSON_AddStringToObject(m, "content", text.data)) {
            buf_free(&text);
            return 1;
        }
        buf_free(&text);
    }
    return 0;
}

/* Merges extra into body: each key of extra replaces body's. */
static int merge_extra(cJSON *body, const cJSON *extra)
{
    const cJSON *kv;
    cJSON_ArrayForEach(kv, extra)
    {
        cJSON *copy = cJSON_Duplicate(kv, true);
        if (!copy)
            return 1;
        cJSON_DeleteItemFromObjectCaseSensitive(body, kv->string);
        if (!cJSON_AddItemToObject(body, kv->string, copy))
            return 1;
    }
    return 0;
}

char *request_body_build(const struct request_body_opts *o,
                         const struct workload_item *item)
{
    cJSON *body = cJSON_CreateObject(), *so;
    char *out = NULL, *prompt = NULL, *filler = NULL;
    struct workload_item tmp;
    if (!item->prompt && !item->messages && item->filler_tokens > 0) {
        /* made now, not kept: an arrivals file may hold millions */
        tmp = *item;
        tmp.prompt = filler = exact_filler_words(item->filler_tokens);
        if (!filler) {
            cJSON_Delete(body);
            return NULL;
        }
        item = &tmp;
    }
    if (!body || !cJSON_AddStringToObject(body, "model", o->model))
        goto done;
    if (o->api == API_OPENAI_COMPLETIONS) {
        prompt = prompt_text(item);
        if (!prompt || !cJSON_AddStringToObject(body, "prompt", prompt))
            goto done;
    } else if (o->api == API_OPENAI_RESPONSES) {
        if (add_input(body, item))
            goto done;
    } else if (add_messages(body, o, item)) {
        goto done;
    }
    if (o->max_tokens >= 0 &&
        !cJSON_AddNumberToObject(
            body,
            o->api == API_OPENAI_RESPONSES ? "max_output_tokens" : "max_tokens",
            (double)o->max_tokens))
        goto done;
    if (!cJSON_AddTrueToObject(body, "stream"))
        goto done;
    /* the Responses API always ends with usage (response.completed) */
    if (o->api != API_ANTHROPIC && o->api != API_OPENAI_RESPONSES) {
        so = cJSON_AddObjectToObject(body, "stream_options");
        if (!so || !cJSON_AddTrueToObject(so, "include_usage"))
            goto done;
    }
    if (o->ignore_eos && !cJSON_AddTrueToObject(body, "ignore_eos"))
        goto done;
    if (o->min_tokens > 0 &&
        !cJSON_AddNumberToObject(body, "min_tokens", (double)o->min_tokens))
        goto done;
    if (o->extra && merge_extra(body, o->extra))
        goto done;
    out = cJSON_PrintUnformatted(body);
done:
    free(prompt);
    free(filler);
    cJSON_Delete(body);
    return out;
}
