/* sse: an incremental text/event-stream parser (WHATWG event-stream rules). */
#include "sse.h"

#include <string.h>

static const unsigned char sse_bom[3] = {0xEF, 0xBB, 0xBF};

const char *sse_strerror(int err)
{
    switch (err) {
    case SSE_OK:
        return "success";
    case SSE_E_OVERSIZED:
        return "SSE line or event larger than the cap (dropped)";
    case SSE_E_NOMEM:
        return "out of memory while parsing SSE (event dropped)";
    default:
        return "unknown SSE error";
    }
}

void sse_parser_init(struct sse_parser *p, size_t max_event_bytes)
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

void sse_parser_reset(struct sse_parser *p)
{
    buf_reset(&p->line);
    buf_reset(&p->data);
    buf_reset(&p->type);
    buf_reset(&p->id);
    p->data_ref = NULL;
    p->data_ref_len = 0;
    p->retry_ms = -1;
    p->bom_matched = 0;
    p->bom_done = false;
    p->skip_lf = false;
    p->discarding = false;
    p->poisoned = false;
    p->events = p->comments = p->data_lines = p->oversized = p->dropped = 0;
    p->incomplete = 0;
}

void sse_parser_free(struct sse_parser *p)
{
    if (!p)
        return;
    buf_free(&p->line);
    buf_free(&p->data);
    buf_free(&p->type);
    buf_free(&p->id);
}

/* Bytes the pending event's data holds, borrowed or copied (each data line
 * with its "\n"). */
static size_t sse_data_len(const struct sse_parser *p)
{
    return p->data_ref ? p->data_ref_len + 1 : p->data.len;
}

/* Forgets the pending event's data and type. */
static void sse_clear_event(struct sse_parser *p)
{
    p->data_ref = NULL;
    buf_reset(&p->data);
    buf_reset(&p->type);
}

/* Copies a borrowed data line into the data buffer, so that the event no
 * longer points into the caller's bytes. Returns SSE_OK or SSE_E_NOMEM. */
static int sse_settle(struct sse_parser *p)
{
    const char *v = p->data_ref;
    if (!v)
        return SSE_OK;
    p->data_ref = NULL;
    if (buf_append(&p->data, v, p->data_ref_len) ||
        buf_append(&p->data, "\n", 1))
        return SSE_E_NOMEM;
    return SSE_OK;
}

/* Marks the current event as lost. Returns SSE_E_OVERSIZED the first time
 * for this event (so each oversized event is reported once), else SSE_OK. */
static int sse_oversized(struct sse_parser *p)
{
    sse_clear_event(p);
    if (p->poisoned)
        return SSE_OK;
    p->poisoned = true;
    p->oversized++;
    return SSE_E_OVERSIZED;
}

/* Marks the current event as lost to an allocation failure. */
static int sse_nomem(struct sse_parser *p)
{
    sse_clear_event(p);
    p->poisoned = true;
    return SSE_E_NOMEM;
}

/* Dispatches the pending event at a blank line (WHATWG "dispatch the
 * event"): nothing happens when no data line was seen. */
static void sse_dispatch(struct sse_parser *p, int64_t t_ns,
                         const struct sse_handler *h)
{
    struct sse_event ev;
    size_t data_len = sse_data_len(p);
    if (p->poisoned) {
        p->poisoned = false;
        p->dropped++;
    } else if (data_len > 0) {
        ev.type = p->type.len ? p->type.data : "message";
        ev.type_len = p->type.len ? p->type.len : strlen("message");
        ev.data = p->data_ref ? p->data_ref : p->data.data;
        ev.data_len = data_len - 1; /* the last data line's "\n" */
        ev.id = p->id.len ? p->id.data : "";
        ev.id_len = p->id.len;
        ev.t_ns = t_ns;
        p->events++;
        if (h && h->on_event)
            h->on_event(h->ctx, &ev);
    }
    sse_clear_event(p);
}

/* Applies one "field: value" line to the pending event. borrow: v lies in
 * the caller's bytes and stays there until the feed returns, so a first
 * data line may be kept as a pointer instead of copied. */
static int sse_field(struct sse_parser *p, const char *name, size_t nlen,
                     const char *v, size_t vlen, bool borrow)
{
    size_t cap = p->max_event_bytes;
    if (nlen == 4 && memcmp(name, "data", 4) == 0) {
        size_t data_len = sse_data_len(p);
        p->data_lines++;
        if (vlen + 1 > cap || data_len + p->type.len > cap - vlen - 1)
            return sse_oversized(p);
        if (borrow && data_len == 0) {
            p->data_ref = v;
            p->data_ref_len = vlen;
            return SSE_OK;
        }
        if (sse_settle(p) || buf_append(&p->data, v, vlen) ||
            buf_append(&p->data, "\n", 1))
            return sse_nomem(p);
    } else if (nlen == 5 && memcmp(name, "event", 5) == 0) {
        if (vlen > cap || sse_data_len(p) > cap - vlen)
            return sse_oversized(p);
        buf_reset(&p->type);
        if (buf_append(&p->type, v, vlen))
            return sse_nomem(p);
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

/* True for the field names WHATWG gives a meaning. */
static bool sse_known_field(const char *name, size_t n)
{
    return (n == 4 && memcmp(name, "data", 4) == 0) ||
           (n == 5 && memcmp(name, "event", 5) == 0) ||
           (n == 2 && memcmp(name, "id", 2) == 0) ||
           (n == 5 && memcmp(name, "retry", 5) == 0);
}

/* Shows a field WHATWG ignores to the handler's on_field. */
static void sse_other_field(const char *name, size_t nlen, const char *v,
                            size_t vlen, int64_t t_ns,
                            const struct sse_handler *h)
{
    if (h && h->on_field && !sse_known_field(name, nlen))
        h->on_field(h->ctx, name, nlen, v, vlen, t_ns);
}

/* Interprets one complete line (without its line end); borrow as for
 * sse_field. */
static int sse_line(struct sse_parser *p, int64_t t_ns, const char *s, size_t n,
                    bool borrow, const struct sse_handler *h)
{
    const char *colon;
    if (n == 0) {
        sse_dispatch(p, t_ns, h);
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
    if (!colon) {
        sse_other_field(s, n, "", 0, t_ns, h);
        return sse_field(p, s, n, "", 0, borrow);
    }
    {
        const char *v = colon + 1;
        size_t vlen = n - (size_t)(v - s);
        if (vlen > 0 && v[0] == ' ') {
            v++;
            vlen--;
        }
        sse_other_field(s, (size_t)(colon - s), v, vlen, t_ns, h);
        return sse_field(p, s, (size_t)(colon - s), v, vlen, borrow);
    }
}

/* Keeps the start of a line whose end has not arrived yet. */
static int sse_hold(struct sse_parser *p, const char *s, size_t n)
{
    if (p->discarding)
        return SSE_OK;
    if (n > p->max_event_bytes || p->line.len > p->max_event_bytes - n) {
        buf_reset(&p->line);
        p->discarding = true;
        return sse_oversized(p);
    }
    if (buf_append(&p->line, s, n)) {
        buf_reset(&p->line);
        p->discarding = true;
        return sse_nomem(p);
    }
    return SSE_OK;
}

/* Finishes the line whose last n bytes are s (earlier bytes may be held). */
static int sse_end_line(struct sse_parser *p, int64_t t_ns, const char *s,
                        size_t n, const struct sse_handler *h)
{
    int err;
    if (p->discarding) {
        p->discarding = false;
        buf_reset(&p->line);
        return SSE_OK;
    }
    if (p->line.len == 0) {
        if (n > p->max_event_bytes)
            return sse_oversized(p);
        return sse_line(p, t_ns, s, n, true, h); /* fast path: no copy */
    }
    err = sse_hold(p, s, n);
    /* Test the state, not the return: an event already marked oversized
     * reports nothing new, yet this line was still dropped, and must not be
     * read as the blank line that dispatches the event. */
    if (p->discarding) {
        p->discarding = false; /* this line end ends the discarded line */
        return err;
    }
    err = sse_line(p, t_ns, p->line.data, p->line.len, false, h);
    buf_reset(&p->line);
    return err;
}

/* Splits bytes (BOM already handled) into lines. Every byte is looked at
 * once by memchr: lf caches the next LF (NULL: none left), and a CR is
 * searched for only before it. Leaves no event data pointing into s. */
static int sse_scan(struct sse_parser *p, int64_t t_ns, const char *s, size_t n,
                    const struct sse_handler *h)
{
    int worst = SSE_OK, err;
    const char *at = s, *stop = s + n, *lf = NULL, *end;
    bool lf_known = false;
    while (at < stop) {
        if (p->skip_lf) {
            p->skip_lf = false;
            if (*at == '\n') {
                at++;
                continue;
            }
        }
        if (!lf_known || (lf && lf < at)) {
            lf = memchr(at, '\n', (size_t)(stop - at));
            lf_known = true;
        }
        end = memchr(at, '\r', (size_t)((lf ? lf : stop) - at));
        if (!end)
            end = lf;
        if (!end) {
            err = sse_hold(p, at, (size_t)(stop - at));
            if (err > worst)
                worst = err;
            break;
        }
        p->skip_lf = *end == '\r';
        err = sse_end_line(p, t_ns, at, (size_t)(end - at), h);
        if (err > worst)
            worst = err;
        at = end + 1;
    }
    if (sse_settle(p)) {
        err = sse_nomem(p);
        if (err > worst)
            worst = err;
    }
    return worst;
}

int sse_parser_feed(struct sse_parser *p, int64_t t_ns, const void *bytes,
                    size_t len, const struct sse_handler *h)
{
    const unsigned char *b = bytes;
    int worst = SSE_OK;
    /* A leading BOM may itself be split across feeds. */
    while (!p->bom_done && len > 0) {
        if (b[0] == sse_bom[p->bom_matched]) {
            p->bom_matched++;
            b++;
            len--;
            if (p->bom_matched == sizeof(sse_bom))
                p->bom_done = true;
        } else {
            p->bom_done = true;
            if (p->bom_matched > 0) /* not a BOM after all: replay */
                worst =
                    sse_scan(p, t_ns, (const char *)sse_bom, p->bom_matched, h);
        }
    }
    if (len > 0) {
        int err = sse_scan(p, t_ns, (const char *)b, len, h);
        if (err > worst)
            worst = err;
    }
    return worst;
}

int sse_parser_finish(struct sse_parser *p)
{
    bool pending = sse_data_len(p) > 0 || p->type.len > 0 || p->poisoned ||
                   p->discarding ||
                   (p->line.len > 0 && p->line.data[0] != ':') ||
                   (!p->bom_done && p->bom_matched > 0);
    buf_reset(&p->line);
    sse_clear_event(p);
    p->discarding = false;
    p->poisoned = false;
    if (!pending)
        return 0;
    p->incomplete++;
    return 1;
}
