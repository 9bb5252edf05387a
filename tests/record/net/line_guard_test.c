/* line_guard_test: the recorder's live line guard trips exactly when
 * the analyzer's SSE parser (common/sse.c), fed the same bytes with the
 * same cap, first reports an oversized line or event. Table cases are fed
 * whole and split at every byte boundary; random streams (BOMs, CR/LF/CRLF,
 * comments, data/event/id lines, long lines) are fed in random pieces and
 * compared with the parser feed by feed. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "line_guard.h"
#include "sse.h"

static const struct {
    size_t cap;
    const char *stream;
    bool over;
} cases[] = {
    {16, "data: 0123456789\n\n", false}, /* line of 16: at the cap */
    {16, "data: 0123456789A\n\n", true}, /* line of 17 */
    {16, "data: 0123456789A", true},     /* no line end needed */
    {16, ": 0123456789ABCDEF\n", true},  /* comments count */
    {16,
     "\xEF\xBB\xBF"
     "data: 0123456789\n",
     false}, /* BOM not counted */
    {16,
     "\xEF\xBB"
     "data: 012345678\n",
     true},                                             /* half a BOM is text */
    {16, "data: 0123456\ndata: 01234567\n\n", true},    /* 8 + 9 event bytes */
    {16, "data: 0123456\n\ndata: 01234567\n\n", false}, /* two events */
    {16, "data:0123456\r\ndata:0123456\r\n\r\n", false}, /* 8 + 8 */
    {16, "event:012345678\ndata: 0123456\n\n", true},    /* type 9 + 8 */
    {16, "event:012345678\nevent: x\ndata: 0123456\n\n", false},
    {16, "id: 0123456789\ndata: 0123456789\n\n", false}, /* id: not held */
    {16, "data\rdata\rdata\r\r", false},
    {4, "data\ndata\ndata\ndata\ndata\n", true}, /* 5 empty data lines */
    {4, "data\ndata\ndata\ndata\n\n", false},
    {16, "data :01234567\ndata :01234567\n\n", false}, /* not "data" */
    {16, "data:01234567\ndata:01234567\n\n", true},
    {16, "dat: 0123456789ABC\n", true},
    {0, "data: {\"choices\":[]}\n\n: keep-alive\r\n\r\n", false},
};

/* True once the parser has reported an oversized line or event. */
static bool parser_over(const struct sse_parser *p)
{
    return p->oversized > 0;
}

/* Feeds s split at a and b to both; checks they agree after each piece. */
static void check_split(size_t ci, size_t a, size_t b)
{
    const char *s = cases[ci].stream;
    size_t n = strlen(s), cuts[3] = {a, b, n}, from = 0, i;
    struct line_guard g;
    struct sse_parser p;
    line_guard_init(&g, cases[ci].cap);
    sse_parser_init(&p, cases[ci].cap);
    for (i = 0; i < 3; i++) {
        bool tripped = line_guard_feed(&g, s + from, cuts[i] - from);
        sse_parser_feed(&p, 0, s + from, cuts[i] - from, NULL);
        CHECK_MSG(tripped == parser_over(&p),
                  "case %zu split %zu/%zu piece %zu", ci, a, b, i);
        from = cuts[i];
    }
    CHECK_MSG(g.tripped == cases[ci].over, "case %zu split %zu/%zu", ci, a, b);
    sse_parser_free(&p);
}

/* A small seeded PRNG (xorshift64*), so failures repeat. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static unsigned rnd(unsigned n)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (unsigned)((rng_state * 2685821657736338717ULL) >> 33) % n;
}

/* Appends one random line (or a bare line end, or odd bytes) to b. */
static size_t random_piece(char *b, size_t room)
{
    static const char *const heads[] = {
        "data: ", "data:", "data",    "event: ", "event:", "event", ": ",
        ":",      "id: ",  "retry: ", "dat",     "x",      ""};
    static const char *const eols[] = {"\n", "\r", "\r\n", ""};
    const char *h = heads[rnd(sizeof heads / sizeof heads[0])];
    const char *e = eols[rnd(sizeof eols / sizeof eols[0])];
    size_t body = rnd(4) == 0 ? rnd(80) : rnd(12), n = 0, i;
    if (strlen(h) + body + 2 >= room)
        return 0;
    memcpy(b, h, strlen(h));
    n = strlen(h);
    for (i = 0; i < body; i++)
        b[n++] = rnd(16) == 0 ? "\r\n: "[rnd(4)] : (char)('a' + rnd(26));
    memcpy(b + n, e, strlen(e));
    return n + strlen(e);
}

/* Random streams in random pieces: the guard and the parser agree after
 * every piece. */
static void check_random(int rounds)
{
    char s[4096];
    int r;
    for (r = 0; r < rounds; r++) {
        size_t cap = 4 + rnd(60), n = 0, from = 0, k, lines = 1 + rnd(40);
        struct line_guard g;
        struct sse_parser p;
        if (rnd(4) == 0) { /* a BOM, or a part of one */
            k = 1 + rnd(3);
            memcpy(s, "\xEF\xBB\xBF", k);
            n = k;
        }
        for (k = 0; k < lines; k++)
            n += random_piece(s + n, sizeof s - n);
        line_guard_init(&g, cap);
        sse_parser_init(&p, cap);
        while (from < n) {
            size_t piece = 1 + rnd(rnd(2) ? 8 : 200);
            bool tripped;
            if (piece > n - from)
                piece = n - from;
            tripped = line_guard_feed(&g, s + from, piece);
            sse_parser_feed(&p, 0, s + from, piece, NULL);
            CHECK_MSG(tripped == parser_over(&p),
                      "round %d cap %zu at byte %zu: guard %d, parser %d", r,
                      cap, from + piece, tripped, parser_over(&p));
            if (tripped != parser_over(&p) || tripped)
                break;
            from += piece;
        }
        sse_parser_free(&p);
    }
}

/* The default cap: an endless line trips just past 16 MiB, a long healthy
 * stream never does. */
static void check_default_cap(void)
{
    static char block[65536];
    struct line_guard g;
    size_t sent = 6;
    bool tripped = false;
    memset(block, 'x', sizeof block);
    memset(&g, 0, sizeof g); /* zeroed: the default cap */
    CHECK(!line_guard_feed(&g, "data: ", 6));
    while (!tripped && sent < ((size_t)64 << 20)) {
        tripped = line_guard_feed(&g, block, sizeof block);
        sent += sizeof block;
    }
    CHECK(tripped);
    CHECK(sent > SSE_DEFAULT_MAX_EVENT_BYTES &&
          sent <= SSE_DEFAULT_MAX_EVENT_BYTES + sizeof block);
    CHECK(line_guard_feed(&g, "\n\n", 2)); /* sticky */

    line_guard_init(&g, 0);
    for (sent = 0; sent < ((size_t)64 << 20); sent += 8192) {
        static char ev[8192];
        if (!ev[0]) {
            memset(ev, 'y', sizeof ev);
            memcpy(ev, "data: ", 6);
            ev[sizeof ev - 2] = '\n';
            ev[sizeof ev - 1] = '\n';
        }
        tripped = line_guard_feed(&g, ev, sizeof ev);
        if (tripped)
            break;
    }
    CHECK(!tripped);
}

int main(void)
{
    size_t i, a, b;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = strlen(cases[i].stream);
        for (a = 0; a <= n; a++)
            for (b = a; b <= n; b++)
                check_split(i, a, b);
    }
    check_random(20000);
    check_default_cap();
    return CHECK_DONE();
}
