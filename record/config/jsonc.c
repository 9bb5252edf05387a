/* jsonc: strips comments and trailing commas (keeping line numbers) and
 * parses what is left with cJSON. */
#include "jsonc.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What cJSON skips as whitespace (a space or any control character, a
 * form feed included; NUL bytes are refused before), so both agree on
 * where the tokens are. */
static bool is_ws(char c)
{
    return c != '\0' && (unsigned char)c <= ' ';
}

/* Offset just past the string that starts with the quote at t[i] (len if
 * it never ends). */
static size_t skip_string(const char *t, size_t len, size_t i)
{
    for (i++; i < len; i++) {
        if (t[i] == '\\')
            i++;
        else if (t[i] == '"')
            return i + 1;
    }
    return len;
}

/* Blanks every comment with spaces (line breaks stay). Returns 0, or -1
 * with *bad set to the start of an unterminated block comment. */
static int blank_comments(char *t, size_t len, size_t *bad)
{
    size_t i = 0, j;
    while (i < len) {
        if (t[i] == '"') {
            i = skip_string(t, len, i);
        } else if (t[i] == '/' && i + 1 < len && t[i + 1] == '/') {
            for (j = i; j < len && t[j] != '\n'; j++)
                t[j] = ' ';
            i = j;
        } else if (t[i] == '/' && i + 1 < len && t[i + 1] == '*') {
            for (j = i + 2; j + 1 < len; j++)
                if (t[j] == '*' && t[j + 1] == '/')
                    break;
            if (j + 1 >= len) {
                *bad = i;
                return -1;
            }
            for (; i < j + 2; i++)
                if (t[i] != '\n' && t[i] != '\r')
                    t[i] = ' ';
        } else {
            i++;
        }
    }
    return 0;
}

/* Blanks every comma that only whitespace separates from a closing } or ].
 * Comments must be blanked first. */
static void blank_trailing_commas(char *t, size_t len)
{
    size_t i = 0, j;
    while (i < len) {
        if (t[i] == '"') {
            i = skip_string(t, len, i);
            continue;
        }
        if (t[i] == ',') {
            for (j = i + 1; j < len && is_ws(t[j]); j++)
                ;
            if (j < len && (t[j] == '}' || t[j] == ']'))
                t[i] = ' ';
        }
        i++;
    }
}

int jsonc_line_at(const struct jsonc_doc *doc, size_t off)
{
    int line = 1;
    size_t i;
    for (i = 0; i < off && i < doc->len; i++)
        if (doc->text[i] == '\n')
            line++;
    return line;
}

/* Describes the spot at off for a syntax error ("near 'xyz'"). */
static void describe_spot(const struct jsonc_doc *doc, size_t off, char *err,
                          size_t errlen)
{
    size_t n = 0;
    while (off < doc->len && is_ws(doc->text[off]))
        off++;
    if (off >= doc->len) {
        snprintf(err, errlen,
                 "syntax error at the end of the file (a "
                 "missing } or ] or value?)");
        return;
    }
    while (off + n < doc->len && n < 24 && doc->text[off + n] != '\n' &&
           doc->text[off + n] != '\r')
        n++;
    snprintf(err, errlen,
             "syntax error near '%.*s' (a missing comma, "
             "quote or colon?)",
             (int)n, doc->text + off);
}

int jsonc_parse(const char *src, size_t len, struct jsonc_doc *doc, int *line,
                char *err, size_t errlen)
{
    const char *end = NULL;
    size_t bad = 0, i;
    memset(doc, 0, sizeof *doc);
    *line = 0;
    err[0] = '\0';
    if (len > JSONC_MAX_BYTES) {
        snprintf(err, errlen, "larger than %zu bytes", JSONC_MAX_BYTES);
        return JSONC_E_TOO_LARGE;
    }
    doc->text = malloc(len + 1);
    if (!doc->text) {
        snprintf(err, errlen, "out of memory");
        return JSONC_E_NOMEM;
    }
    memcpy(doc->text, src, len);
    doc->text[len] = '\0';
    doc->len = len;
    if (len >= 3 && memcmp(doc->text, "\xEF\xBB\xBF", 3) == 0)
        memset(doc->text, ' ', 3); /* a BOM, as Windows editors write */
    if (blank_comments(doc->text, len, &bad)) {
        *line = jsonc_line_at(doc, bad);
        snprintf(err, errlen, "a /* comment that never ends");
        goto fail;
    }
    blank_trailing_commas(doc->text, len);
    for (i = 0; i < len && is_ws(doc->text[i]); i++)
        ;
    if (i == len) {
        *line = 1;
        snprintf(err, errlen, "the file is empty (want a { ... } object)");
        goto fail;
    }
    if (memchr(doc->text, '\0', len)) {
        *line = jsonc_line_at(
            doc, (size_t)((char *)memchr(doc->text, '\0', len) - doc->text));
        snprintf(err, errlen, "a NUL byte: not a text file");
        goto fail;
    }
    doc->root = cJSON_ParseWithLengthOpts(doc->text, len + 1, &end, 1);
    if (!doc->root) {
        size_t off = end && end >= doc->text ? (size_t)(end - doc->text) : 0;
        size_t shown = off;
        while (shown < len && is_ws(doc->text[shown]))
            shown++;
        /* the line of the text the message shows, if it shows any */
        *line = jsonc_line_at(doc, shown < len ? shown : off);
        describe_spot(doc, off, err, errlen);
        goto fail;
    }
    return JSONC_OK;
fail:
    jsonc_free(doc);
    return JSONC_E_SYNTAX;
}

/* True when the JSON string t[i..end) (quotes included) is key: its bytes
 * as they stand, or decoded when it holds escapes ("\u0063line.x"), as
 * cJSON decoded the member names jsonc_get looks at. */
static bool string_is(const char *t, size_t i, size_t end, const char *key,
                      size_t klen)
{
    cJSON *s;
    bool same;
    if (end < i + 2 || t[end - 1] != '"')
        return false;
    if (!memchr(t + i + 1, '\\', end - i - 2))
        return end - i - 2 == klen && memcmp(t + i + 1, key, klen) == 0;
    s = cJSON_ParseWithLength(t + i, end - i);
    same = cJSON_IsString(s) && strcmp(s->valuestring, key) == 0;
    cJSON_Delete(s);
    return same;
}

int jsonc_key_line(const struct jsonc_doc *doc, const char *key)
{
    const char *t = doc->text;
    size_t i = 0, end, klen = strlen(key), j;
    int depth = 0, found = 0;
    bool expect_key = false;
    if (!t)
        return 0;
    while (i < doc->len) {
        char c = t[i];
        if (c == '"') {
            end = skip_string(t, doc->len, i);
            if (depth == 1 && expect_key) {
                for (j = end; j < doc->len && is_ws(t[j]); j++)
                    ;
                if (j < doc->len && t[j] == ':' &&
                    string_is(t, i, end, key, klen))
                    found = jsonc_line_at(doc, i);
            }
            expect_key = false;
            i = end;
            continue;
        }
        if (c == '{' || c == '[') {
            depth++;
            expect_key = depth == 1 && c == '{';
        } else if (c == '}' || c == ']') {
            depth--;
        } else if (c == ',' && depth == 1) {
            expect_key = true;
        }
        i++;
    }
    return found;
}

const cJSON *jsonc_get(const struct jsonc_doc *doc, const char *key)
{
    const cJSON *it, *last = NULL;
    if (!doc->root || !cJSON_IsObject(doc->root))
        return NULL;
    cJSON_ArrayForEach(it, doc->root) if (it->string &&
                                          strcmp(it->string, key) == 0) last =
        it;
    return last;
}

void jsonc_free(struct jsonc_doc *doc)
{
    if (!doc)
        return;
    cJSON_Delete(doc->root);
    free(doc->text);
    memset(doc, 0, sizeof *doc);
}
