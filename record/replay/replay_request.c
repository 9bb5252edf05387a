/* replay_request: reads model, stream flags, limits and prompt size from a
 * request body with cJSON. */
#include "replay_request.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "image_tokens.h"

/* What a prompt's text counts: UTF-8 characters, and "words" (a run of
 * letters, digits or non-ASCII bytes is one, every other byte that is not
 * white space one more), the replay server's own tokenizer (count=words),
 * which also adds REPLAY_WORDS_PER_MESSAGE a message, as a chat template
 * does. */
struct text_count {
    int64_t chars;
    int64_t words;
    int64_t images;       /* image parts */
    int64_t image_tokens; /* their estimate (image_tokens.h) */
};

static bool word_byte(unsigned char c)
{
    return c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
           (c >= 'A' && c <= 'Z') || c == '_';
}

/* Adds the counts of s to *n. */
static void count_text(const char *s, struct text_count *n)
{
    bool in_word = false;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c & 0xC0) != 0x80)
            n->chars++;
        if (word_byte(c)) {
            n->words += !in_word;
            in_word = true;
        } else {
            in_word = false;
            n->words += !(c == ' ' || c == '\t' || c == '\n' || c == '\r');
        }
    }
}

/* Counts an image part (OpenAI chat "image_url", Responses "input_image",
 * Anthropic "image"): one image, its tokens from its PNG's size when its
 * data is a base64 PNG, else IMAGE_TOKENS_UNSIZED. Other parts: nothing.
 * Returns true when part is an image. */
static bool count_image(const cJSON *part, struct text_count *n)
{
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(part, "type");
    const cJSON *data = NULL, *u;
    const char *s = NULL, *comma;
    unsigned w, h;
    if (!cJSON_IsString(type))
        return false;
    if (strcmp(type->valuestring, "image_url") == 0 ||
        strcmp(type->valuestring, "input_image") == 0) {
        u = cJSON_GetObjectItemCaseSensitive(part, "image_url");
        data =
            cJSON_IsObject(u) ? cJSON_GetObjectItemCaseSensitive(u, "url") : u;
        if (cJSON_IsString(data) &&
            strncmp(data->valuestring, "data:", 5) == 0 &&
            (comma = strstr(data->valuestring, ";base64,")) != NULL)
            s = comma + 8;
    } else if (strcmp(type->valuestring, "image") == 0) {
        u = cJSON_GetObjectItemCaseSensitive(part, "source");
        data = cJSON_GetObjectItemCaseSensitive(u, "data");
        if (cJSON_IsString(data))
            s = data->valuestring;
    } else {
        return false;
    }
    n->images++;
    n->image_tokens += s && image_png_size_b64(s, &w, &h)
                           ? image_tokens_est(w, h)
                           : IMAGE_TOKENS_UNSIZED;
    return true;
}

/* Counts a content value: a string, or an array of parts whose "text"
 * (or string items) count, and image parts (count_image). */
static void count_content(const cJSON *c, struct text_count *n)
{
    const cJSON *part;

    if (cJSON_IsString(c)) {
        count_text(c->valuestring, n);
        return;
    }
    if (!cJSON_IsArray(c))
        return;
    cJSON_ArrayForEach(part, c)
    {
        const cJSON *text = cJSON_GetObjectItemCaseSensitive(part, "text");
        if (cJSON_IsString(part))
            count_text(part->valuestring, n);
        else if (count_image(part, n))
            continue;
        else if (cJSON_IsString(text))
            count_text(text->valuestring, n);
    }
}

/* Counts every message's content. */
static void count_messages(const cJSON *messages, struct text_count *n)
{
    const cJSON *m;

    if (!cJSON_IsArray(messages))
        return;
    cJSON_ArrayForEach(m, messages)
    {
        n->words += REPLAY_WORDS_PER_MESSAGE;
        count_content(cJSON_GetObjectItemCaseSensitive(m, "content"), n);
    }
}

/* Counts a Responses API "input": a string, or an array of items
 * (messages with a content string or parts; a bare part's "text"). */
static void count_input(const cJSON *input, struct text_count *n)
{
    const cJSON *it;

    if (cJSON_IsString(input)) {
        count_text(input->valuestring, n);
        return;
    }
    if (!cJSON_IsArray(input))
        return;
    cJSON_ArrayForEach(it, input)
    {
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(it, "content");
        n->words += REPLAY_WORDS_PER_MESSAGE;
        count_content(c ? c : cJSON_GetObjectItemCaseSensitive(it, "text"), n);
    }
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
    struct text_count n = {0, 0, 0, 0};
    int rc = -1;

    memset(out, 0, sizeof(*out));
    out->api = api;
    out->max_tokens = -1;
    out->min_tokens = -1;
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
    if (read_limit(root, "max_tokens", &out->max_tokens, err, errlen) != 0 ||
        read_limit(root, "min_tokens", &out->min_tokens, err, errlen) != 0)
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
        count_input(cJSON_GetObjectItemCaseSensitive(root, "input"), &n);
        count_content(cJSON_GetObjectItemCaseSensitive(root, "instructions"),
                      &n);
    } else if (api == API_OPENAI_COMPLETIONS) {
        count_content(cJSON_GetObjectItemCaseSensitive(root, "prompt"), &n);
    } else {
        count_messages(cJSON_GetObjectItemCaseSensitive(root, "messages"), &n);
        if (api == API_ANTHROPIC)
            count_content(cJSON_GetObjectItemCaseSensitive(root, "system"), &n);
    }
    out->input_chars = n.chars;
    out->images = n.images;
    out->input_tokens = out->input_chars / 4 + n.image_tokens;
    out->input_words =
        n.words + (n.words > 0 ? REPLAY_WORDS_PER_PROMPT : 0) + n.image_tokens;
    rc = 0;
done:
    cJSON_Delete(root);
    return rc;
}
