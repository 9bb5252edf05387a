/* json_writer: exact JSON text for analyzer output. */
#include "json_writer.h"
#include "text_out.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base64.h"
#include "json_escape.h"
#include "mp.h"
#include "utf8.h"

bool json_utf8_valid(const uint8_t *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        size_t n = utf8_seq_len(s + i, len - i);
        if (!n)
            return false;
        i += n;
    }
    return true;
}

int json_put_string(struct buf *b, const char *s, size_t len)
{
    buf_append(b, "\"", 1);
    json_escape(b, s, len);
    buf_append(b, "\"", 1);
    return buf_error(b);
}

int json_put_cstr(struct buf *b, const char *s)
{
    if (!s) {
        buf_puts(b, "null");
        return buf_error(b);
    }
    return json_put_string(b, s, strlen(s));
}

int json_put_double(struct buf *b, double x)
{
    if (!isfinite(x))
        buf_puts(b, "null");
    /* Range first: converting a double beyond int64 is undefined. */
    else if (fabs(x) < 1e15 && x == (double)(int64_t)x)
        buf_printf(b, "%" PRId64, (int64_t)x);
    else
        num_put_exact(b, x); /* full precision: the double itself */
    return buf_error(b);
}

int json_put_mp(struct buf *b, const struct mp_value *v)
{
    switch (v->type) {
    case MP_NIL:
        buf_puts(b, "null");
        break;
    case MP_BOOL:
        buf_puts(b, v->v.b ? "true" : "false");
        break;
    case MP_UINT:
        buf_printf(b, "%" PRIu64, v->v.u);
        break;
    case MP_INT:
        buf_printf(b, "%" PRId64, v->v.i);
        break;
    case MP_FLOAT:
        json_put_double(b, v->v.f);
        break;
    case MP_STR:
        json_put_string(b, (const char *)v->v.bytes, v->n);
        break;
    case MP_BIN:
    case MP_EXT:
        if (v->type == MP_BIN && json_utf8_valid(v->v.bytes, v->n)) {
            json_put_string(b, (const char *)v->v.bytes, v->n);
        } else {
            buf_puts(b, "{\"base64\":\"");
            base64_put(b, v->v.bytes, v->n);
            buf_puts(b, "\"}");
        }
        break;
    case MP_ARRAY:
        buf_puts(b, "[");
        for (uint32_t i = 0; i < v->n; i++) {
            if (i)
                buf_puts(b, ",");
            json_put_mp(b, &v->v.items[i]);
        }
        buf_puts(b, "]");
        break;
    case MP_MAP:
        buf_puts(b, "{");
        for (uint32_t i = 0; i < v->n; i++) {
            const struct mp_value *k = &v->v.items[2 * i];
            if (i)
                buf_puts(b, ",");
            if (k->type == MP_STR) {
                json_put_mp(b, k);
            } else if (k->type == MP_ARRAY || k->type == MP_MAP) {
                /* Rendering container keys as text then escaping it doubles
                 * the output per nesting level: name them instead. */
                buf_printf(b, "\"<%s key>\"",
                           k->type == MP_MAP ? "map" : "array");
            } else {
                struct buf tmp;
                buf_init(&tmp, 0);
                json_put_mp(&tmp, k);
                json_put_string(b, tmp.data ? tmp.data : "", tmp.len);
                buf_set_error(b, buf_error(&tmp)); /* the key is cut */
                buf_free(&tmp);
            }
            buf_puts(b, ":");
            json_put_mp(b, &v->v.items[2 * i + 1]);
        }
        buf_puts(b, "}");
        break;
    }
    return buf_error(b);
}
