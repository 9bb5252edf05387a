/* sse_ref: the SSE parser as it was before sse_scan used memchr and
 * borrowed single-line data (common/sse.c at 34de0b6), kept verbatim but for
 * its names, as the reference tests/common/sse_diff_test.c compares the real
 * parser with. */
#include "sse_ref.h"

#include <string.h>

static const unsigned char sse_ref_bom[3] = {0xEF, 0xBB, 0xBF};

void sse_ref_parser_init(struct sse_ref_parser *p, size_t max_event_bytes)
{
    size_t cap =
        max_event_bytes ? max_event_bytes : SSE_DEFAULT_MAX_EVENT_BYTES;
    memset(p, 0, sizeof(*p));
    p->max_event_bytes = cap;
    /* Our own cap checks come first; the buf limit only backs them up. */
    buf_init(&p->line, cap + 16);
    buf_init(&p->data, cap + 16);
    buf_init(&p->type, cap + 16);
    buf_init(&p->id, cap + 16);
    p->retry_ms = -1;
}

void sse_ref_parser_reset(struct sse_ref_parser *p)
{
    buf_reset(&p->line);
    buf_reset(&p->data);
    buf_reset(&p->type);
    buf_reset(&p->id);
    p->retry_ms = -1;
    p->bom_matched = 0;
    p->bom_done = false;
    p->skip_lf = false;
    p->discarding = false;
    p->poisoned = false;
    p->events = p->comments = p->oversized = p->dropped = 0;
    p->incomplete = 0;
}

void sse_ref_parser_free(struct sse_ref_parser *p)
{
    if (!p)
        return;
    buf_free(&p->line);
    buf_free(&p->data);
    buf_free(&p->type);
    buf_free(&p->id);
}

/* Marks the current event as lost. Returns SSE_E_OVERSIZED the first time
 * for this event (so each oversized event is reported once), else SSE_OK. */
static int sse_ref_oversized(struct sse_ref_parser *p)
{
    buf_reset(&p->data);
    buf_reset(&p->type);
    if (p->poisoned)
        return SSE_OK;
    p->poisoned = true;
    p->oversized++;
    return SSE_E_OVERSIZED;
}

/* Marks the current event as lost to an allocation failure. */
static int sse_ref_nomem(struct sse_ref_parser *p)
{
    buf_reset(&p->data);
    buf_reset(&p->type);
    p->poisoned = true;
    return SSE_E_NOMEM;
}

/* Dispatches the pending event at a blank line (WHATWG "dispatch the
 * event"): nothing happens when no data line was seen. */
static void sse_ref_dispatch(struct sse_ref_parser *p, int64_t t_ns,
                             const struct sse_handler *h)
{
    struct sse_event ev;
    if (p->poisoned) {
        p->poisoned = false;
        p->dropped++;
    } else if (p->data.len > 0) {
        ev.type = p->type.len ? p->type.data : "message";
        ev.type_len = p->type.len ? p->type.len : strlen("message");
        ev.data = p->data.data;
        ev.data_len = p->data.len - 1; /* the last data line's "\n" */
        ev.id = p->id.len ? p->id.data : "";
        ev.id_len = p->id.len;
        ev.t_ns = t_ns;
        p->events++;
        if (h && h->on_event)
            h->on_event(h->ctx, &ev);
    }
    buf_reset(&p->data);
    buf_reset(&p->type);
}

/* Applies one "field: value" line to the pending event. */
static int sse_ref_field(struct sse_ref_parser *p, const char *name,
                         size_t nlen, const char *v, size_t vlen)
{
    size_t cap = p->max_event_bytes;
    if (nlen == 4 && memcmp(name, "data", 4) == 0) {
        if (vlen + 1 > cap || p->data.len + p->type.len > cap - vlen - 1)
            return sse_ref_oversized(p);
        if (buf_append(&p->data, v, vlen) || buf_append(&p->data, "\n", 1))
            return sse_ref_nomem(p);
    } else if (nlen == 5 && memcmp(name, "event", 5) == 0) {
        if (vlen > cap || p->data.len > cap - vlen)
            return sse_ref_oversized(p);
        buf_reset(&p->type);
        if (buf_append(&p->type, v, vlen))
            return sse_ref_nomem(p);
    } else if (nlen == 2 && memcmp(name, "id", 2) == 0) {
        if (!memchr(v, '\0', vlen)) {
            buf_reset(&p->id);
            if (buf_append(&p->id, v, vlen))
                return SSE_E_NOMEM; /* the event itself is intact */
        }
    } else if (nlen == 5 && memcmp(name, "retry", 5) == 0) {
        int64_t ms = 0;
        size_t i;
        for (i = 0; i < vlen; i++) {
            if (v[i] < '0' || v[i] > '9' || ms > (INT64_MAX - 9) / 10)
                break;
            ms = ms * 10 + (v[i] - '0');
        }
        if (vlen > 0 && i == vlen)
            p->retry_ms = ms;
    }
    /* Any other field name is ignored, as WHATWG says. */
    return SSE_OK;
}

/* Interprets one complete line (without its line end). */
static int sse_ref_line(struct sse_ref_parser *p, int64_t t_ns, const char *s,
                        size_t n, const struct sse_handler *h)
{
    const char *colon;
    if (n == 0) {
        sse_ref_dispatch(p, t_ns, h);
        return SSE_OK;
    }
    if (s[0] == ':') {
        const char *text = s + 1;
        size_t tlen = n - 1;
        if (tlen > 0 && text[0] == ' ') {
            text++;
            tlen--;
        }
        p->comments++;
        if (h && h->on_comment)
            h->on_comment(h->ctx, text, tlen, t_ns);
        return SSE_OK;
    }
    if (p->poisoned)
        return SSE_OK; /* the rest of a lost event */
    colon = memchr(s, ':', n);
    if (!colon)
        return sse_ref_field(p, s, n, "", 0);
    {
        const char *v = colon + 1;
        size_t vlen = n - (size_t)(v - s);
        if (vlen > 0 && v[0] == ' ') {
            v++;
            vlen--;
        }
        return sse_ref_field(p, s, (size_t)(colon - s), v, vlen);
    }
}

/* Keeps the start of a line whose end has not arrived yet. */
static int sse_ref_hold(struct sse_ref_parser *p, const char *s, size_t n)
{
    if (p->discarding)
        return SSE_OK;
    if (n > p->max_event_bytes || p->line.len > p->max_event_bytes - n) {
        buf_reset(&p->line);
        p->discarding = true;
        return sse_ref_oversized(p);
    }
    if (buf_append(&p->line, s, n)) {
        buf_reset(&p->line);
        p->discarding = true;
        return sse_ref_nomem(p);
    }
    return SSE_OK;
}

/* Finishes the line whose last n bytes are s (earlier bytes may be held). */
static int sse_ref_end_line(struct sse_ref_parser *p, int64_t t_ns,
                            const char *s, size_t n,
                            const struct sse_handler *h)
{
    int err;
    if (p->discarding) {
        p->discarding = false;
        buf_reset(&p->line);
        return SSE_OK;
    }
    if (p->line.len == 0) {
        if (n > p->max_event_bytes)
            return sse_ref_oversized(p);
        return sse_ref_line(p, t_ns, s, n, h); /* fast path: no copy */
    }
    err = sse_ref_hold(p, s, n);
    /* Test the state, not the return: an event already marked oversized
     * reports nothing new, yet this line was still dropped, and must not be
     * read as the blank line that dispatches the event. */
    if (p->discarding) {
        p->discarding = false; /* this line end ends the discarded line */
        return err;
    }
    err = sse_ref_line(p, t_ns, p->line.data, p->line.len, h);
    buf_reset(&p->line);
    return err;
}

/* Splits bytes (BOM already handled) into lines. */
static int sse_ref_scan(struct sse_ref_parser *p, int64_t t_ns, const char *s,
                        size_t n, const struct sse_handler *h)
{
    int worst = SSE_OK, err;
    size_t i = 0, j;
    while (i < n) {
        if (p->skip_lf) {
            p->skip_lf = false;
            if (s[i] == '\n') {
                i++;
                continue;
            }
        }
        for (j = i; j < n && s[j] != '\n' && s[j] != '\r'; j++)
            ;
        if (j == n) {
            err = sse_ref_hold(p, s + i, n - i);
            if (err > worst)
                worst = err;
            break;
        }
        p->skip_lf = s[j] == '\r';
        err = sse_ref_end_line(p, t_ns, s + i, j - i, h);
        if (err > worst)
            worst = err;
        i = j + 1;
    }
    return worst;
}

int sse_ref_parser_feed(struct sse_ref_parser *p, int64_t t_ns,
                        const void *bytes, size_t len,
                        const struct sse_handler *h)
{
    const unsigned char *b = bytes;
    int worst = SSE_OK;
    /* A leading BOM may itself be split across feeds. */
    while (!p->bom_done && len > 0) {
        if (b[0] == sse_ref_bom[p->bom_matched]) {
            p->bom_matched++;
            b++;
            len--;
            if (p->bom_matched == sizeof(sse_ref_bom))
                p->bom_done = true;
        } else {
            p->bom_done = true;
            if (p->bom_matched > 0) /* not a BOM after all: replay */
                worst = sse_ref_scan(p, t_ns, (const char *)sse_ref_bom,
                                     p->bom_matched, h);
        }
    }
    if (len > 0) {
        int err = sse_ref_scan(p, t_ns, (const char *)b, len, h);
        if (err > worst)
            worst = err;
    }
    return worst;
}

int sse_ref_parser_finish(struct sse_ref_parser *p)
{
    bool pending = p->data.len > 0 || p->type.len > 0 || p->poisoned ||
                   p->discarding ||
                   (p->line.len > 0 && p->line.data[0] != ':') ||
                   (!p->bom_done && p->bom_matched > 0);
    buf_reset(&p->line);
    buf_reset(&p->data);
    buf_reset(&p->type);
    p->discarding = false;
    p->poisoned = false;
    if (!pending)
        return 0;
    p->incomplete++;
    return 1;
}
