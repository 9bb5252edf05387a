/* error_json: message, type and code of an error JSON in any usual shape. */
#include "error_json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A member that is a non-empty string, else NULL. */
static const char *text_of(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(v) && v->valuestring && v->valuestring[0]
               ? v->valuestring
               : NULL;
}

/* A "code" member as text: a string, or a whole number into buf. */
static const char *code_of(const cJSON *o, char *buf, size_t len)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "code");
    if (cJSON_IsString(v) && v->valuestring && v->valuestring[0])
        return v->valuestring;
    if (cJSON_IsNumber(v) && isfinite(v->valuedouble) &&
        fabs(v->valuedouble) < 1e15) {
        snprintf(buf, len, "%.0f", v->valuedouble);
        return buf;
    }
    return NULL;
}

bool error_json_read(const cJSON *root, unsigned how, struct error_json *out)
{
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(root, "error");
    const char *msg = NULL, *type = NULL, *code = NULL;
    memset(out, 0, sizeof *out);
    out->message = out->type = out->code = "";
    if (cJSON_IsString(e) && e->valuestring) {
        msg = e->valuestring;
        code = code_of(root, out->num, sizeof out->num);
    } else if (cJSON_IsObject(e)) {
        msg = text_of(e, "message");
        type = text_of(e, "type");
        code = code_of(e, out->num, sizeof out->num);
    } else if (!cJSON_IsObject(root)) {
        return false;
    } else if (!(how & ERROR_JSON_BARE)) {
        /* vLLM's ErrorResponse: a bare error that names itself */
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, "object");
        if (!cJSON_IsString(o) || !o->valuestring ||
            strcmp(o->valuestring, "error") != 0)
            return false;
        how |= ERROR_JSON_BARE;
    }
    /* the error's own words, else the reply's (FastAPI's "detail") */
    if (!msg && (how & ERROR_JSON_BARE))
        msg = text_of(root, "message");
    if (!msg && (how & ERROR_JSON_BARE))
        msg = text_of(root, "detail");
    if (!type && !cJSON_IsObject(e) && (how & ERROR_JSON_BARE))
        type = text_of(root, "type");
    if (!code && (how & ERROR_JSON_BARE))
        code = code_of(root, out->num, sizeof out->num);
    out->code_numeric = code && code == out->num;
    out->message = msg ? msg : "";
    out->type = type ? type : code ? code : "";
    out->code = code ? code : type ? type : "";
    return true;
}

/* The length of the longest prefix of s[0..n) that does not end inside a
 * UTF-8 sequence. */
static size_t utf8_cut(const char *s, size_t n)
{
    size_t i = n, back = 0;
    while (i > 0 && back < 4 && ((unsigned char)s[i - 1] & 0xC0) == 0x80) {
        i--;
        back++;
    }
    if (i > 0 && ((unsigned char)s[i - 1] & 0x80)) {
        unsigned char lead = (unsigned char)s[i - 1];
        size_t need = lead >= 0xF0   ? 4
                      : lead >= 0xE0 ? 3
                      : lead >= 0xC0 ? 2
                                     : 1;
        if (back + 1 < need)
            return i - 1;
    }
    return n;
}

void error_json_one_line(char *dst, size_t size, const char *s, size_t n,
                         size_t max)
{
    size_t o = 0, i;
    bool space = true;
    if (max > size - 1)
        max = size - 1;
    for (i = 0; i < n && s[i] && o < max; i++) {
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
    o = utf8_cut(dst, o);
    while (o && dst[o - 1] == ' ')
        o--;
    dst[o] = '\0';
}

bool error_json_text(const char *p, size_t n, unsigned how, char *type,
                     size_t type_len, char *msg, size_t msg_len)
{
    cJSON *root = cJSON_ParseWithLength(p, n);
    struct error_json e;
    bool found;
    type[0] = msg[0] = '\0';
    if (!root) {
        error_json_one_line(msg, msg_len, p, n, ERROR_JSON_MESSAGE_MAX);
        return true;
    }
    if (cJSON_IsString(root) && root->valuestring) {
        error_json_one_line(msg, msg_len, root->valuestring,
                            strlen(root->valuestring), ERROR_JSON_MESSAGE_MAX);
        cJSON_Delete(root);
        return true;
    }
    found = error_json_read(root, how, &e);
    if (found) {
        error_json_one_line(type, type_len, e.type, strlen(e.type), type_len);
        error_json_one_line(msg, msg_len, e.message, strlen(e.message),
                            ERROR_JSON_MESSAGE_MAX);
    }
    cJSON_Delete(root);
    return found;
}
