/* captured_body: replaces the model of a captured body by splicing its
 * bytes, so the rest is sent exactly as it was captured. */
#include "captured_body.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static bool is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The end of the JSON string starting at p (its opening quote): just past
 * its closing quote, or NULL. */
static const char *string_end(const char *p, const char *end)
{
    for (p++; p < end; p++) {
        if (*p == '\\')
            p++;
        else if (*p == '"')
            return p + 1;
    }
    return NULL;
}

/* Finds the top-level "model" member's string value: [*vs, *ve) are its
 * bytes with the quotes. Returns true when found. *open: just past the
 * object's '{'. */
static bool find_model(const char *body, size_t len, const char **open,
                       const char **vs, const char **ve)
{
    const char *p = body, *end = body + len;
    int depth = 0;
    *open = NULL;
    while (p < end) {
        char c = *p;
        if (c == '"') {
            const char *e = string_end(p, end), *q;
            if (!e)
                return false;
            q = e;
            while (q < end && is_ws(*q))
                q++;
            if (depth == 1 && q < end && *q == ':' && e - p == 7 &&
                memcmp(p, "\"model\"", 7) == 0) {
                q++;
                while (q < end && is_ws(*q))
                    q++;
                if (q < end && *q == '"' && (*ve = string_end(q, end))) {
                    *vs = q;
                    return true;
                }
            }
            p = e;
            continue;
        }
        if (c == '{' || c == '[') {
            if (depth == 0 && c == '{' && !*open)
                *open = p + 1;
            depth++;
        } else if (c == '}' || c == ']') {
            depth--;
        }
        p++;
    }
    return false;
}

char *captured_body_with_model(const char *body, size_t len, const char *model,
                               size_t *out_len)
{
    const char *open = NULL, *vs = NULL, *ve = NULL;
    cJSON *str = cJSON_CreateString(model);
    char *q = str ? cJSON_PrintUnformatted(str) : NULL; /* "…", escaped */
    char *out = NULL;
    size_t qn;
    bool found = find_model(body, len, &open, &vs, &ve);
    cJSON_Delete(str);
    if (!q || !open)
        goto done;
    qn = strlen(q);
    if (found) {
        size_t head = (size_t)(vs - body), tail = len - (size_t)(ve - body);
        out = malloc(head + qn + tail + 1);
        if (!out)
            goto done;
        memcpy(out, body, head);
        memcpy(out + head, q, qn);
        memcpy(out + head + qn, ve, tail);
        *out_len = head + qn + tail;
    } else {
        size_t head = (size_t)(open - body), rest = len - head;
        const char *r = open;
        bool empty;
        while (r < body + len && is_ws(*r))
            r++;
        empty = r < body + len && *r == '}';
        out = malloc(len + qn + 12);
        if (!out)
            goto done;
        memcpy(out, body, head);
        memcpy(out + head, "\"model\":", 8);
        memcpy(out + head + 8, q, qn);
        *out_len = head + 8 + qn;
        if (!empty)
            out[(*out_len)++] = ',';
        memcpy(out + *out_len, open, rest);
        *out_len += rest;
    }
    out[*out_len] = '\0';
done:
    free(q);
    return out;
}
