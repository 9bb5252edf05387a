/* buf: a growable byte buffer with a hard cap. */
#include "buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUF_DEFAULT_LIMIT ((size_t)1 << 30)

void buf_init(struct buf *b, size_t limit)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->limit = limit ? limit : BUF_DEFAULT_LIMIT;
    b->err = BUF_OK;
}

/* Keeps err as the sticky error when it is the first; returns it. */
static int buf_fail(struct buf *b, int err)
{
    if (b->err == BUF_OK)
        b->err = err;
    return err;
}

int buf_error(const struct buf *b)
{
    return b->err;
}

const char *buf_strerror(int err)
{
    switch (err) {
    case BUF_OK:
        return "success";
    case BUF_E_LIMIT:
        return "output too large (buffer cap reached)";
    case BUF_E_NOMEM:
        return "out of memory";
    default:
        return "unknown buffer error";
    }
}

static int buf_reserve(struct buf *b, size_t extra)
{
    size_t need, ncap;
    char *p;
    if (extra > b->limit || b->len > b->limit - extra)
        return buf_fail(b, BUF_E_LIMIT);
    need = b->len + extra + 1;
    if (need <= b->cap)
        return BUF_OK;
    ncap = b->cap ? b->cap : 256;
    while (ncap < need)
        ncap *= 2;
    p = realloc(b->data, ncap);
    if (!p)
        return buf_fail(b, BUF_E_NOMEM);
    b->data = p;
    b->cap = ncap;
    return BUF_OK;
}

int buf_append(struct buf *b, const void *p, size_t len)
{
    int err = buf_reserve(b, len);
    if (err)
        return err;
    if (len)
        memcpy(b->data + b->len, p, len);
    b->len += len;
    b->data[b->len] = '\0';
    return BUF_OK;
}

int buf_puts(struct buf *b, const char *s)
{
    return buf_append(b, s, strlen(s));
}

int buf_extend(struct buf *b, size_t n, char **out)
{
    int err = buf_reserve(b, n);
    if (err)
        return err;
    *out = b->data + b->len;
    b->len += n;
    b->data[b->len] = '\0';
    return BUF_OK;
}

int buf_printf(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    int n, err;
    size_t room = b->cap > b->len ? b->cap - b->len : 0;

    /* Most texts fit in the spare capacity: format once, straight there. */
    if (room > 0) {
        va_start(ap, fmt);
        n = vsnprintf(b->data + b->len, room, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->data[b->len] = '\0';
            return buf_fail(b, BUF_E_NOMEM);
        }
        if ((size_t)n < room && (size_t)n <= b->limit - b->len) {
            b->len += (size_t)n;
            return BUF_OK;
        }
        b->data[b->len] = '\0'; /* it did not fit (or is over the cap) */
    } else {
        va_start(ap, fmt);
        n = vsnprintf(NULL, 0, fmt, ap);
        va_end(ap);
        if (n < 0)
            return buf_fail(b, BUF_E_NOMEM);
    }
    err = buf_reserve(b, (size_t)n);
    if (err)
        return err;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    return BUF_OK;
}

void buf_consume(struct buf *b, size_t n)
{
    if (n >= b->len) {
        b->len = 0;
    } else {
        memmove(b->data, b->data + n, b->len - n);
        b->len -= n;
    }
    if (b->data)
        b->data[b->len] = '\0';
}

void buf_reset(struct buf *b)
{
    b->len = 0;
    b->err = BUF_OK;
    if (b->data)
        b->data[0] = '\0';
}

void buf_free(struct buf *b)
{
    if (!b)
        return;
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->err = BUF_OK;
}
