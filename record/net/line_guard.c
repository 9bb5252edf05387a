/* line_guard: spots an SSE line or event over the analyzer's cap, live. */
#include "line_guard.h"

#include <string.h>

#include "sse.h"

static const unsigned char guard_bom[3] = {0xEF, 0xBB, 0xBF};

void line_guard_init(struct line_guard *g, size_t cap)
{
    memset(g, 0, sizeof *g);
    g->cap = cap ? cap : SSE_DEFAULT_MAX_EVENT_BYTES;
}

/* True when the current line starts with the n bytes of s. */
static bool head_is(const struct line_guard *g, const char *s, unsigned n)
{
    return g->head_len >= n && memcmp(g->head, s, n) == 0;
}

/* Adds n bytes (no line end among them) to the current line; trips when
 * the line goes over the cap. */
static void add_bytes(struct line_guard *g, const char *p, size_t n)
{
    size_t take = LINE_GUARD_HEAD - g->head_len;
    if (take > n)
        take = n;
    memcpy(g->head + g->head_len, p, take);
    g->head_len += (unsigned)take;
    g->line += n;
    if (g->line > g->cap)
        g->tripped = true;
}

/* The current line ended: applies it to the event as sse.c's sse_field
 * does for data: and event: lines (the only ones that hold bytes). */
static void end_line(struct line_guard *g)
{
    uint64_t len = g->line, vlen, cap = g->cap;
    if (len == 0) { /* a blank line dispatches the event */
        g->data = g->type = 0;
    } else if ((len == 4 && head_is(g, "data", 4)) || head_is(g, "data:", 5)) {
        vlen = len <= 5 ? 0 : len - 5 - (g->head[5] == ' ');
        if (vlen + 1 > cap || g->data + g->type > cap - vlen - 1)
            g->tripped = true;
        g->data += vlen + 1;
    } else if ((len == 5 && head_is(g, "event", 5)) ||
               head_is(g, "event:", 6)) {
        vlen = len <= 6 ? 0 : len - 6 - (g->head[6] == ' ');
        if (vlen > cap || g->data > cap - vlen)
            g->tripped = true;
        g->type = vlen;
    }
    g->line = 0;
    g->head_len = 0;
}

/* Splits n bytes (past any BOM) into lines. The position of the next LF
 * is remembered, so a run of CRs does not rescan the chunk. */
static void scan(struct line_guard *g, const char *p, size_t n)
{
    const char *end = p + n, *lf = NULL, *cr, *eol;
    while (p < end && !g->tripped) {
        if (g->skip_lf) {
            g->skip_lf = false;
            if (*p == '\n') {
                p++;
                continue;
            }
        }
        if (!lf || lf < p) {
            lf = memchr(p, '\n', (size_t)(end - p));
            if (!lf)
                lf = end;
        }
        cr = memchr(p, '\r', (size_t)(lf - p));
        eol = cr ? cr : lf;
        add_bytes(g, p, (size_t)(eol - p));
        if (eol == end || g->tripped)
            break;
        g->skip_lf = *eol == '\r';
        end_line(g);
        p = eol + 1;
    }
}

bool line_guard_feed(struct line_guard *g, const char *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    if (g->cap == 0)
        g->cap = SSE_DEFAULT_MAX_EVENT_BYTES;
    /* A leading BOM is not part of the first line; it may arrive split. */
    while (!g->bom_done && n > 0 && !g->tripped) {
        if (b[0] == guard_bom[g->bom_matched]) {
            g->bom_matched++;
            b++;
            n--;
            if (g->bom_matched == sizeof guard_bom)
                g->bom_done = true;
        } else {
            g->bom_done = true;
            if (g->bom_matched > 0) /* not a BOM after all: replay */
                scan(g, (const char *)guard_bom, g->bom_matched);
        }
    }
    if (n > 0 && !g->tripped)
        scan(g, (const char *)b, n);
    return g->tripped;
}
