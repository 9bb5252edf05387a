/* buf: a growable byte buffer with a hard cap and a sticky error: the
 * first append that failed (cap or memory) is remembered until buf_reset,
 * so a writer that builds a whole document checks once, before writing,
 * instead of after every append. */
#ifndef TT_BUF_H
#define TT_BUF_H

#include <stddef.h>

struct buf {
    char *data; /* always NUL-terminated when len > 0 or after buf_append */
    size_t len;
    size_t cap;   /* allocated bytes */
    size_t limit; /* growth refused beyond this many bytes; 0 = 1 GiB */
    int err;      /* the first failed append's BUF_E_*, else BUF_OK */
};

#define BUF_OK 0
#define BUF_E_LIMIT 1
#define BUF_E_NOMEM 2

/* Initializes an empty buffer that may grow up to limit bytes (0: 1 GiB). */
void buf_init(struct buf *b, size_t limit);

/* Appends len bytes. Returns BUF_OK, BUF_E_LIMIT (nothing appended) or
 * BUF_E_NOMEM; an error is also kept as the buffer's sticky error (the
 * first one only). Keeps data NUL-terminated. */
int buf_append(struct buf *b, const void *p, size_t len);

/* Appends a NUL-terminated string. Same returns as buf_append. */
int buf_puts(struct buf *b, const char *s);

/* Appends n bytes that the caller then writes at *out (all n of them, before
 * the next call on b); data[len] stays the NUL. Same returns as buf_append;
 * on error nothing is appended and *out is untouched. */
int buf_extend(struct buf *b, size_t n, char **out);

/* Appends printf-formatted text (formatted once when it fits the spare
 * capacity, twice otherwise). Same returns as buf_append. */
int buf_printf(struct buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The sticky error: BUF_OK when every append since buf_init (or the last
 * buf_reset) succeeded, else the first failure's BUF_E_LIMIT or
 * BUF_E_NOMEM: the buffer then lacks text its writer meant to put in. */
int buf_error(const struct buf *b);

/* A description of a BUF_E_* code ("out of memory", ...), for messages. */
const char *buf_strerror(int err);

/* Drops the first n bytes (n <= len). */
void buf_consume(struct buf *b, size_t n);

/* Empties the buffer, keeping its memory, and clears the sticky error. */
void buf_reset(struct buf *b);

/* Frees the memory; the buffer is empty afterwards. NULL-safe. */
void buf_free(struct buf *b);

#endif
