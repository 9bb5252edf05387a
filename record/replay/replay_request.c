/* replay_request: reads model, stream flags, limits and prompt size from a
 * request body with cJSON. */
#include "replay_request.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

/* Counts UTF-8 characters (bytes that are not continuation bytes). */
static int64_t utf8_chars(const char *s)
{
    int64_t n = 0;
    for (; *s; s++) {
        if (((unsigned char)*s & 0xC0) != 0x80)
            n++;
    }
    return n;
}

/* Characters of a content value: a string, or an array of parts whose
 * "text" (or string items) count. Other shapes (images...) count 0. */
static int64_t content_chars(const cJSON *c)
{
    const cJSON *part;
    int64_t n = 0;

    if (cJSON_IsString(c))
        return utf8_chars(c->valuestring);
    if (!cJSON_IsArray(c))
        return 0;
    cJSON_ArrayForEach(part, c)
    {
        const cJSON *text = cJSON_GetObjectItemCaseSensitive(part, "text");
        if (cJSON_IsString(part))
            n += utf8_chars(part->valuestring);
        else if (cJSON_IsString(text))
            n += utf8_chars(text->valuestring);
    }
    return n;
}

/* Sums the characters of every message's content. */
static int64_t messages_chars(const cJSON *messages)
{
    const cJSON *m;
    int64_t n = 0;

    if (!cJSON_IsArray(messages))
        return 0;
    cJSON_ArrayForEach(m, messages)
    {
        n += content_chars(cJSON_GetObjectItemCaseSensitive(m, "content"));
    }
    return n;
}

/* Characters of a Responses API "input": a string, or an array of items
 * (messages with a content string or parts; a bare part's "text"). */
static int64_t input_chars(const cJSON *input)
{
    const cJSON *it;
    int64_t n = 0;

    if (cJSON_IsString(input))
        return utf8_chars(input->valuestring);
    if (!cJSON_IsArray(input))
        return 0;
    cJSON_ArrayForEach(it, input)
    {
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(it, "content");
        n += c ? content_chars(c)
               : content_chars(cJSON_GetObjectItemCaseSensitive(it, "text"));
    }
    return n;
}

/* Reads a positive integer limit; returns 0 (absent: *v untouched) or -1. */
static int read_limit(const cJSON *root, const char *key, int64_t *v, char *err,
                      size_t errlen)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(root, key);

    if (x == NULL || cJSON_IsNull(x))
        return 0;
    if (!cJSON_IsNumber(x) || x->valuedouble < 1 || x->valuedouble > 1e9) {
        snprintf(err, errlen, "%s must be an integer >= 1", key);
        return -1;
    }
    *v = (int64_t)x->valuedouble;
    return 0;
}

int replay_request_parse(enum api_kind api, const char *body, size_t len,
                         struct replay_req_info *out, char *err, size_t errlen)
{
    cJSON *root = cJSON_ParseWithLength(body, len);
    const cJSON *model, *stream, *opts;
    int rc = -1;

    memset(out, 0, sizeof(*out));
    out->api = api;
    out->max_tokens = -1;
    out->cached_tokens = -1;
    if (root == NULL) {
        snprintf(err, errlen, "request body is not valid JSON");
        goto done;
    }
    if (!cJSON_IsObject(root)) {
        snprintf(err, errlen, "request body must be a JSON object");
        goto done;
    }
    model = cJSON_GetObjectItemCaseSensitive(root, "model");
    if (model == NULL || cJSON_IsNull(model)) {
        snprintf(out->model, sizeof(out->model), "%s", REPLAY_DEFAULT_MODEL);
    } else if (!cJSON_IsString(model) || model->valuestring[0] == '\0' ||
               strlen(model->valuestring) >= sizeof(out->model)) {
        snprintf(err, errlen,
                 "model must be a non-empty string under %zu "
                 "bytes",
                 sizeof(out->model));
        goto done;
    } else {
        memcpy(out->model, model->valuestring, strlen(model->valuestring) + 1);
    }
    stream = cJSON_GetObjectItemCaseSensitive(root, "stream");
    out->stream = cJSON_IsTrue(stream);
    opts = cJSON_GetObjectItemCaseSensitive(root, "stream_options");
    out->include_usage =
        cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(opts, "include_usage"));
    if (read_limit(root, "max_tokens", &out->max_tokens, err, errlen) != 0)
        goto done;
    if (api == API_OPENAI_CHAT &&
        read_limit(root, "max_completion_tokens", &out->max_tokens, err,
                   errlen) != 0)
        goto done;
    if (api == API_OPENAI_RESPONSES) {
        /* usage always comes in response.completed */
        out->include_usage = true;
        if (read_limit(root, "max_output_tokens", &out->max_tokens, err,
                       errlen) != 0)
            goto done;
        out->input_chars =
            input_chars(cJSON_GetObjectItemCaseSensitive(root, "input")) +
            content_chars(
                cJSON_GetObjectItemCaseSensitive(root, "instructions"));
    } else if (api == API_OPENAI_COMPLETIONS) {
        out->input_chars =
            content_chars(cJSON_GetObjectItemCaseSensitive(root, "prompt"));
    } else {
        out->input_chars =
            messages_chars(cJSON_GetObjectItemCaseSensitive(root, "messages"));
        if (api == API_ANTHROPIC)
            out->input_chars +=
                content_chars(cJSON_GetObjectItemCaseSensitive(root, "system"));
    }
    out->input_tokens = out->input_chars / 4;
    rc = 0;
done:
    cJSON_Delete(root);
    return rc;
}
