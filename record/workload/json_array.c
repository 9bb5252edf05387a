/* json_array: finds the elements of a top-level JSON array in a stream,
 * chunk by chunk, keeping one element at a time. */
#include "json_array.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum {
    ST_START, /* before '[' (a UTF-8 BOM and white space allowed) */
    ST_FIRST, /* after '[': an element or ']' */
    ST_AFTER, /* after an element: ',' or ']' */
    ST_NEXT,  /* after ',': an element */
    ST_END,   /* after ']': only white space */
    ST_DONE,
};

void json_array_open(struct json_array *a, FILE *f, size_t max_elem,
                     int64_t offset)
{
    memset(a, 0, offsetof(struct json_array, in));
    a->f = f;
    a->max_elem = max_elem;
    a->index = -1;
    a->in_pos = a->in_len = 0;
    a->offset = offset;
}

void json_array_close(struct json_array *a)
{
    if (!a)
        return;
    free(a->elem);
    a->elem = NULL;
    a->elem_len = a->elem_cap = 0;
}

/* The next byte without taking it: 0..255, -1 at the end, -2 on a read
 * error. */
static int peek(struct json_array *a)
{
    if (a->in_pos == a->in_len) {
        a->in_pos = 0;
        a->in_len = fread(a->in, 1, sizeof a->in, a->f);
        if (a->in_len == 0)
            return ferror(a->f) ? -2 : -1;
    }
    return a->in[a->in_pos];
}

/* Takes the byte peek returned. */
static void take(struct json_array *a)
{
    a->in_pos++;
    a->offset++;
}

static bool is_ws(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Skips white space; returns the next byte as peek does. */
static int skip_ws(struct json_array *a)
{
    int c;
    while (is_ws(c = peek(a)))
        take(a);
    return c;
}

/* Appends byte c to the element; false when it would pass the cap or
 * memory ran out (the reason in err). */
static bool keep(struct json_array *a, int c, char *err, size_t errlen)
{
    if (a->elem_len + 2 > a->elem_cap) {
        size_t ncap = a->elem_cap ? a->elem_cap * 2 : 4096;
        char *p;
        if (a->elem_len + 1 >= a->max_elem) {
            snprintf(err, errlen,
                     "entry %lld (byte %lld) is longer than %zu MiB",
                     (long long)a->index, (long long)a->elem_offset,
                     a->max_elem >> 20);
            return false;
        }
        if (ncap > a->max_elem)
            ncap = a->max_elem;
        p = realloc(a->elem, ncap);
        if (!p) {
            snprintf(err, errlen, "out of memory at entry %lld",
                     (long long)a->index);
            return false;
        }
        a->elem = p;
        a->elem_cap = ncap;
    }
    a->elem[a->elem_len++] = (char)c;
    return true;
}

/* The error for the end of the stream (or a read error) inside an
 * element. */
static int cut(struct json_array *a, int c, char *err, size_t errlen)
{
    if (c == -2)
        snprintf(err, errlen, "byte %lld: %s", (long long)a->offset,
                 strerror(errno));
    else
        snprintf(err, errlen,
                 "entry %lld (byte %lld): the file ends inside this entry",
                 (long long)a->index, (long long)a->elem_offset);
    return -1;
}

/* Reads one element starting at the cursor (a non-white byte). */
static int read_elem(struct json_array *a, char *err, size_t errlen)
{
    int c = peek(a), depth = 0;
    bool in_string = false, escape = false, scalar;
    a->index++;
    a->elem_len = 0;
    a->elem_offset = a->offset;
    scalar = c != '{' && c != '[' && c != '"';
    for (;;) {
        c = peek(a);
        if (c < 0) {
            if (scalar && a->elem_len > 0)
                break; /* ST_AFTER reports the missing ']' */
            return cut(a, c, err, errlen);
        }
        if (scalar && (is_ws(c) || c == ',' || c == ']' || c == '}'))
            break;
        if (!keep(a, c, err, errlen))
            return -1;
        take(a);
        if (scalar)
            continue;
        if (in_string) {
            if (escape)
                escape = false;
            else if (c == '\\')
                escape = true;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            depth--;
        }
        if (!in_string && depth == 0)
            break;
    }
    if (a->elem_len == 0) { /* "[}" or "[1,}": a closer where a value was due */
        snprintf(err, errlen,
                 "entry %lld (byte %lld): '%c' where a value was due",
                 (long long)a->index, (long long)a->elem_offset, c);
        return -1;
    }
    a->elem[a->elem_len] = '\0';
    a->state = ST_AFTER;
    return 1;
}

int json_array_next(struct json_array *a, char *err, size_t errlen)
{
    int c;
    for (;;) {
        switch (a->state) {
        case ST_START:
            c = peek(a);
            if (c == 0xEF) { /* a UTF-8 byte order mark */
                for (int i = 0; i < 3 && peek(a) >= 0x80; i++)
                    take(a);
            }
            c = skip_ws(a);
            if (c != '[') {
                snprintf(err, errlen,
                         "byte %lld: not a JSON array (a ShareGPT file is "
                         "[{\"conversations\": ...}, ...])",
                         (long long)a->offset);
                return -1;
            }
            take(a);
            a->state = ST_FIRST;
            break;
        case ST_FIRST:
        case ST_NEXT:
            c = skip_ws(a);
            if (c == ']' && a->state == ST_FIRST) {
                take(a);
                a->state = ST_END;
                break;
            }
            if (c < 0 || c == ']' || c == ',') {
                if (c < 0)
                    snprintf(err, errlen,
                             "byte %lld: the file ends inside the array",
                             (long long)a->offset);
                else
                    snprintf(err, errlen,
                             "byte %lld: '%c' where entry %lld "
                             "should start",
                             (long long)a->offset, c, (long long)a->index + 1);
                return -1;
            }
            return read_elem(a, err, errlen);
        case ST_AFTER:
            c = skip_ws(a);
            if (c == ',') {
                take(a);
                a->state = ST_NEXT;
                break;
            }
            if (c == ']') {
                take(a);
                a->state = ST_END;
                break;
            }
            if (c < 0)
                snprintf(err, errlen,
                         "byte %lld: the file ends inside the array (after "
                         "entry %lld)",
                         (long long)a->offset, (long long)a->index);
            else
                snprintf(err, errlen,
                         "byte %lld: expected ',' or ']' after entry %lld",
                         (long long)a->offset, (long long)a->index);
            return -1;
        case ST_END:
            c = skip_ws(a);
            if (c >= 0) {
                snprintf(err, errlen,
                         "byte %lld: more after the array's closing ']'",
                         (long long)a->offset);
                return -1;
            }
            if (c == -2)
                return cut(a, c, err, errlen);
            a->state = ST_DONE;
            return 0;
        default:
            return 0;
        }
    }
}
