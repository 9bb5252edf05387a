/* body_scrub: length-preserving masking of secrets in received bodies,
 * with a KMP matcher per secret carried across receives. */
#include "body_scrub.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Overwrites n bytes with zeros in a way the compiler keeps. */
static void wipe(void *p, size_t n)
{
    volatile unsigned char *v = p;
    while (n--)
        *v++ = 0;
}

void body_scrub_init(struct body_scrub *b)
{
    memset(b, 0, sizeof *b);
}

int body_scrub_add(struct body_scrub *b, const char *secret, size_t len)
{
    struct body_scrub_secret *s;
    size_t i, k = 0;
    if (len < BODY_SCRUB_MIN_SECRET)
        return BODY_SCRUB_OK;
    for (i = 0; i < b->n_secrets; i++)
        if (b->secret[i].len == len &&
            memcmp(b->secret[i].text, secret, len) == 0)
            return BODY_SCRUB_OK;
    if (len > BODY_SCRUB_MAX_SECRET || b->n_secrets == BODY_SCRUB_MAX_SECRETS) {
        b->dropped++;
        return BODY_SCRUB_OK;
    }
    s = &b->secret[b->n_secrets];
    s->text = malloc(len);
    s->fail = malloc(len * sizeof *s->fail);
    if (!s->text || !s->fail) {
        free(s->text);
        free(s->fail);
        memset(s, 0, sizeof *s);
        return BODY_SCRUB_E_NOMEM;
    }
    memcpy(s->text, secret, len);
    s->len = len;
    s->state = 0;
    s->fail[0] = 0;
    for (i = 1; i < len; i++) {
        while (k && s->text[i] != s->text[k])
            k = s->fail[k - 1];
        if (s->text[i] == s->text[k])
            k++;
        s->fail[i] = k;
    }
    b->n_secrets++;
    return BODY_SCRUB_OK;
}

int body_scrub_add_json(struct body_scrub *b, const char *secret, size_t len)
{
    char esc[2 * BODY_SCRUB_MAX_SECRET];
    size_t i, n = 0;
    if (body_scrub_add(b, secret, len))
        return BODY_SCRUB_E_NOMEM;
    for (i = 0; i < len && len <= BODY_SCRUB_MAX_SECRET; i++) {
        if (secret[i] == '/' || secret[i] == '"' || secret[i] == '\\')
            esc[n++] = '\\';
        esc[n++] = secret[i];
    }
    return n != len && body_scrub_add(b, esc, n) ? BODY_SCRUB_E_NOMEM : 0;
}

void body_scrub_mask(const struct body_scrub *b, char *s, size_t n)
{
    size_t i, j;
    for (i = 0; i < b->n_secrets; i++) {
        const struct body_scrub_secret *k = &b->secret[i];
        for (j = 0; k->len <= n && j <= n - k->len; j++)
            if (s[j] == k->text[0] && memcmp(s + j, k->text, k->len) == 0)
                memset(s + j, BODY_SCRUB_FILL, k->len);
    }
}

/* Advances s over byte c; true when a whole occurrence ends with c. The
 * state stays below len, so text[state] is always the next byte wanted. */
static bool step(struct body_scrub_secret *s, char c)
{
    while (s->state && s->text[s->state] != c)
        s->state = s->fail[s->state - 1];
    if (s->text[s->state] == c)
        s->state++;
    if (s->state < s->len)
        return false;
    s->state = s->fail[s->len - 1];
    return true;
}

/* The longest end of the stream that may still grow into a secret. */
static size_t hold_len(const struct body_scrub *b)
{
    size_t i, h = 0;
    for (i = 0; i < b->n_secrets; i++)
        if (b->secret[i].state > h)
            h = b->secret[i].state;
    return h;
}

/* Appends a held chunk of n bytes (copied) arriving at t_ns. */
static int hold(struct body_scrub *b, int64_t t_ns, const char *p, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        char *nb;
        while (cap < b->len + n)
            cap *= 2;
        nb = malloc(cap);
        if (!nb)
            return BODY_SCRUB_E_NOMEM;
        if (b->len)
            memcpy(nb, b->buf, b->len);
        if (b->buf)
            wipe(b->buf, b->cap);
        free(b->buf);
        b->buf = nb;
        b->cap = cap;
    }
    if (b->n_held == b->cap_held) {
        size_t cap = b->cap_held ? b->cap_held * 2 : 8;
        struct body_scrub_held *nh = realloc(b->held, cap * sizeof *nh);
        if (!nh)
            return BODY_SCRUB_E_NOMEM;
        b->held = nh;
        b->cap_held = cap;
    }
    if (n)
        memcpy(b->buf + b->len, p, n);
    b->held[b->n_held].t_ns = t_ns;
    b->held[b->n_held].off = b->len;
    b->held[b->n_held].len = n;
    b->n_held++;
    b->len += n;
    return BODY_SCRUB_OK;
}

/* Emits the held chunks that end at or before boundary (an offset in
 * buf), in order, and drops them. */
static int release(struct body_scrub *b, size_t boundary,
                   body_scrub_emit_fn emit, void *ud)
{
    size_t k = 0, start, i;
    int rc = 0;
    while (k < b->n_held && b->held[k].off + b->held[k].len <= boundary) {
        rc = emit(ud, b->held[k].t_ns, b->buf + b->held[k].off, b->held[k].len);
        k++;
        if (rc)
            break;
    }
    if (k == 0)
        return rc;
    start = k < b->n_held ? b->held[k].off : b->len;
    memmove(b->buf, b->buf + start, b->len - start);
    wipe(b->buf + (b->len - start), start);
    b->len -= start;
    for (i = k; i < b->n_held; i++) {
        b->held[i - k] = b->held[i];
        b->held[i - k].off -= start;
    }
    b->n_held -= k;
    return rc;
}

int body_scrub_feed(struct body_scrub *b, int64_t t_ns, const char *p, size_t n,
                    body_scrub_emit_fn emit, void *ud)
{
    size_t saved[BODY_SCRUB_MAX_SECRETS], i, j, base;
    bool hit = false;
    int rc;
    if (b->n_secrets == 0)
        return emit(ud, t_ns, p, n);
    /* First a look without copying: most chunks hold no secret and do not
     * end in the start of one. */
    for (i = 0; i < b->n_secrets; i++)
        saved[i] = b->secret[i].state;
    for (j = 0; j < n; j++)
        for (i = 0; i < b->n_secrets; i++)
            hit |= step(&b->secret[i], p[j]);
    if (!hit && hold_len(b) == 0) {
        rc = release(b, b->len, emit, ud);
        return rc ? rc : emit(ud, t_ns, p, n);
    }
    /* Then again over a copy, masking each occurrence where it ends. */
    for (i = 0; i < b->n_secrets; i++)
        b->secret[i].state = saved[i];
    base = b->len;
    rc = hold(b, t_ns, p, n);
    if (rc)
        return rc;
    for (j = base; j < b->len; j++) {
        char c = b->buf[j];
        for (i = 0; i < b->n_secrets; i++) {
            struct body_scrub_secret *s = &b->secret[i];
            if (step(s, c)) {
                memset(b->buf + j + 1 - s->len, BODY_SCRUB_FILL, s->len);
                b->masked++;
            }
        }
    }
    return release(b, b->len - hold_len(b), emit, ud);
}

int body_scrub_finish(struct body_scrub *b, body_scrub_emit_fn emit, void *ud)
{
    size_t i;
    for (i = 0; i < b->n_secrets; i++) {
        struct body_scrub_secret *s = &b->secret[i];
        if (s->state >= BODY_SCRUB_MIN_PARTIAL && s->state <= b->len) {
            memset(b->buf + b->len - s->state, BODY_SCRUB_FILL, s->state);
            b->masked++;
        }
        s->state = 0;
    }
    return release(b, b->len, emit, ud);
}

void body_scrub_free(struct body_scrub *b)
{
    size_t i;
    if (!b)
        return;
    for (i = 0; i < b->n_secrets; i++) {
        wipe(b->secret[i].text, b->secret[i].len);
        free(b->secret[i].text);
        free(b->secret[i].fail);
    }
    if (b->buf)
        wipe(b->buf, b->cap);
    free(b->buf);
    free(b->held);
    body_scrub_init(b);
}
