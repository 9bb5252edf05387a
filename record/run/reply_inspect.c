/* reply_inspect: error messages, HTML titles and JSON usage from reply
 * bodies. */
#include "reply_inspect.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "error_json.h"
#include "sanitize.h"

/* Message and code of an error reply: a string code ("model_not_found")
 * before the type, the type before a numeric code. */
static void read_error(const cJSON *root, const char *key,
                       struct reply_inspect_facts *out)
{
    struct error_json e;
    const char *code;
    char *clean;
    if (!error_json_read(root, ERROR_JSON_BARE, &e))
        return;
    code = e.code_numeric && e.type != e.code && e.type[0] ? e.type : e.code;
    error_json_one_line(out->code, sizeof out->code, code, strlen(code),
                        sizeof out->code);
    if (!e.message[0])
        return;
    clean = sanitize_string(e.message, key);
    if (clean) /* out of memory: no message rather than a key */
        error_json_one_line(out->message, sizeof out->message, clean,
                            strlen(clean), sizeof out->message);
    free(clean);
}

/* usage.completion_tokens (OpenAI) or usage.output_tokens (Anthropic). */
static void read_usage(const cJSON *root, struct reply_inspect_facts *out)
{
    const cJSON *u = cJSON_GetObjectItemCaseSensitive(root, "usage");
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(u, "completion_tokens");
    if (!cJSON_IsNumber(n))
        n = cJSON_GetObjectItemCaseSensitive(u, "output_tokens");
    if (cJSON_IsNumber(n) && n->valuedouble >= 0)
        out->usage_tokens = (int64_t)n->valuedouble;
}

/* The <title> of an HTML page. */
static void read_title(const char *body, size_t len,
                       struct reply_inspect_facts *out)
{
    size_t i, start = 0, end = 0;
    for (i = 0; i + 6 < len; i++) {
        if (strncasecmp(body + i, "<title", 6) == 0) {
            const char *gt = memchr(body + i, '>', len - i);
            if (!gt)
                return;
            start = (size_t)(gt - body) + 1;
            break;
        }
    }
    if (!start)
        return;
    for (end = start; end + 8 <= len; end++)
        if (strncasecmp(body + end, "</title", 7) == 0)
            break;
    if (end + 8 > len)
        return;
    error_json_one_line(out->title, sizeof out->title, body + start,
                        end - start, sizeof out->title);
}

void reply_inspect(const char *body, size_t len, const char *key,
                   struct reply_inspect_facts *out)
{
    cJSON *root;
    const cJSON *obj;
    memset(out, 0, sizeof *out);
    out->usage_tokens = -1;
    if (!body || !len)
        return;
    root = cJSON_ParseWithLength(body, len);
    if (!root) {
        read_title(body, len, out);
        return;
    }
    obj = cJSON_IsArray(root) ? cJSON_GetArrayItem(root, 0) : root;
    if (cJSON_IsObject(obj)) {
        read_error(obj, key, out);
        read_usage(obj, out);
    }
    cJSON_Delete(root);
}
