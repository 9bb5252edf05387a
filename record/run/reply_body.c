/* reply_body: error messages, HTML titles and JSON usage from reply
 * bodies. */
#include "reply_body.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sanitize.h"

/* Copies s into dst on one line: control characters become spaces, runs
 * of spaces collapse, the ends are trimmed. */
static void one_line(char *dst, size_t len, const char *s, size_t n)
{
    size_t o = 0, i;
    bool space = true;
    for (i = 0; i < n && s[i] && o + 1 < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f || c == ' ') {
            if (!space)
                dst[o++] = ' ';
            space = true;
        } else {
            dst[o++] = (char)c;
            space = false;
        }
    }
    while (o && dst[o - 1] == ' ')
        o--;
    dst[o] = '\0';
}

/* The string member name of o, or NULL. */
static const char *str_of(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Message and code of an error object or string. */
static void read_error(const cJSON *root, const char *key,
                       struct reply_body_info *out)
{
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(root, "error");
    const char *msg = NULL, *code = NULL;
    char *clean;
    if (cJSON_IsString(e)) {
        msg = e->valuestring;
    } else if (cJSON_IsObject(e)) {
        msg = str_of(e, "message");
        code = str_of(e, "code");
        if (!code)
            code = str_of(e, "type");
    }
    if (!msg)
        msg = str_of(root, "message");
    if (!msg)
        msg = str_of(root, "detail");
    if (!code)
        code = str_of(root, "code");
    if (code)
        one_line(out->code, sizeof out->code, code, strlen(code));
    if (!msg)
        return;
    clean = sanitize_string(msg, key);
    if (clean) /* out of memory: no message rather than a key */
        one_line(out->message, sizeof out->message, clean, strlen(clean));
    free(clean);
}

/* usage.completion_tokens (OpenAI) or usage.output_tokens (Anthropic). */
static void read_usage(const cJSON *root, struct reply_body_info *out)
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
                       struct reply_body_info *out)
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
    one_line(out->title, sizeof out->title, body + start, end - start);
}

void reply_body_inspect(const char *body, size_t len, const char *key,
                        struct reply_body_info *out)
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
