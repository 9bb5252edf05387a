/* body_scrub_test: every occurrence of a secret in a body is masked with
 * '*' of its length, whatever the receive boundaries: each table case is
 * fed whole, split at every pair of byte boundaries into three receives,
 * and one byte at a time; the chunks come out in order, one per receive,
 * with their own times and lengths. Random bodies with keys and key
 * starts sprinkled in are checked against a plain reference masker. Chunks
 * that cannot start a secret pass through uncopied, at once. */
#include <stdlib.h>
#include <string.h>

#include "body_scrub.h"
#include "check.h"

#define KEY "sk-test-SECRET-0123"

static const struct {
    const char *secrets[3];
    const char *body;
    const char *want;
} cases[] = {
    {{KEY}, "", ""},
    {{KEY},
     "data: {\"content\":\"hello\"}\n\n",
     "data: {\"content\":\"hello\"}\n\n"},
    {{KEY},
     "{\"error\":{\"message\":\"Incorrect API key provided: Bearer " KEY "\"}}",
     "{\"error\":{\"message\":\"Incorrect API key provided: Bearer "
     "*******************\"}}"},
    {{KEY}, KEY, "*******************"},
    {{KEY},
     KEY KEY "x" KEY,
     "**************************************x"
     "*******************"},
    /* starts of the key that do not go on are kept */
    {{KEY},
     "sk-test-SECRET-012 sk-test- sk-" KEY "s",
     "sk-test-SECRET-012 sk-test- sk-*******************s"},
    {{KEY}, "sk-test-sk-test-SECRET-0123!", "sk-test-*******************!"},
    /* a body cut inside the key: its start is masked from 8 bytes on */
    {{KEY}, "error: sk-test-SECR", "error: ************"},
    {{KEY}, "error: sk-test", "error: sk-test"},
    /* overlapping occurrences of a self-similar secret */
    {{"abababab"}, "xabababababab", "x************"},
    /* two secrets: the key and its JSON-escaped form */
    {{"sk-a/b/c-0123", "sk-a\\/b\\/c-0123"},
     "\"sk-a\\/b\\/c-0123\" sk-a/b/c-0123.",
     "\"***************\" *************."},
    /* a secret shorter than BODY_SCRUB_MIN_SECRET is left alone */
    {{"abc"}, "abcabc", "abcabc"},
    /* no secret: nothing changes */
    {{NULL}, "Bearer " KEY, "Bearer " KEY},
};

struct sink {
    char data[4096];
    size_t len;
    int64_t t[4096];
    size_t lens[4096];
    const char *ptr[4096];
    size_t n;
};

/* emit callback: appends the chunk to the sink. */
static int collect(void *ud, int64_t t_ns, const char *p, size_t n)
{
    struct sink *s = ud;
    if (s->len + n > sizeof s->data || s->n == 4096)
        return 99;
    memcpy(s->data + s->len, p, n);
    s->len += n;
    s->t[s->n] = t_ns;
    s->lens[s->n] = n;
    s->ptr[s->n] = p;
    s->n++;
    return 0;
}

/* A scrubber with the case's secrets. */
static void setup(struct body_scrub *b, const char *const *secrets,
                  size_t n_secrets)
{
    size_t i;
    body_scrub_init(b);
    for (i = 0; i < n_secrets && secrets[i]; i++)
        CHECK(body_scrub_add(b, secrets[i], strlen(secrets[i])) == 0);
}

/* Feeds body cut at the ascending offsets cuts[0..n_cuts) (the last is
 * the body's length); checks the output against want, chunk by chunk. */
static void feed_cuts(const char *const *secrets, size_t n_secrets,
                      const char *body, size_t len, const char *want,
                      const size_t *cuts, size_t n_cuts, const char *what)
{
    static struct sink s;
    struct body_scrub b;
    size_t i, from = 0;
    setup(&b, secrets, n_secrets);
    memset(&s, 0, sizeof s);
    for (i = 0; i < n_cuts; i++) {
        CHECK(body_scrub_feed(&b, (int64_t)(1000 + i), body + from,
                              cuts[i] - from, collect, &s) == 0);
        from = cuts[i];
    }
    CHECK(body_scrub_finish(&b, collect, &s) == 0);
    CHECK(body_scrub_finish(&b, collect, &s) == 0); /* idempotent */
    CHECK_MSG(s.len == len && memcmp(s.data, want, len) == 0,
              "%s: got '%.*s', want '%s'", what, (int)s.len, s.data, want);
    CHECK_MSG(s.n == n_cuts, "%s: %zu chunks out, %zu in", what, s.n, n_cuts);
    for (i = 0, from = 0; i < s.n && i < n_cuts; i++) {
        CHECK_MSG(s.t[i] == (int64_t)(1000 + i) && s.lens[i] == cuts[i] - from,
                  "%s: chunk %zu", what, i);
        from = cuts[i];
    }
    body_scrub_free(&b);
}

/* One table case fed whole, in three pieces at every pair of cuts, and
 * byte by byte. */
static void check_case(size_t ci)
{
    const char *body = cases[ci].body, *want = cases[ci].want;
    size_t n = strlen(body), a, c, cuts[4096];
    char what[64];
    CHECK_MSG(strlen(want) == n, "case %zu: want has another length", ci);
    cuts[0] = n;
    snprintf(what, sizeof what, "case %zu whole", ci);
    feed_cuts(cases[ci].secrets, 3, body, n, want, cuts, 1, what);
    for (a = 0; a <= n; a++)
        for (c = a; c <= n; c++) {
            size_t three[3] = {a, c, n};
            snprintf(what, sizeof what, "case %zu at %zu/%zu", ci, a, c);
            feed_cuts(cases[ci].secrets, 3, body, n, want, three, 3, what);
        }
    for (a = 0; a < n; a++)
        cuts[a] = a + 1;
    snprintf(what, sizeof what, "case %zu bytewise", ci);
    if (n)
        feed_cuts(cases[ci].secrets, 3, body, n, want, cuts, n, what);
}

/* A chunk that cannot start the key passes at once and uncopied; one
 * that ends in the key's start waits for the next receive. */
static void check_pass_through(void)
{
    static struct sink s;
    const char *secrets[] = {KEY};
    const char *a = "data: {\"content\":\"hi\"}\n\n", *b = "your key: sk-te",
               *c = "st-SECRET-0123 ok\n\n";
    struct body_scrub sc;
    setup(&sc, secrets, 1);
    memset(&s, 0, sizeof s);
    CHECK(body_scrub_feed(&sc, 1, a, strlen(a), collect, &s) == 0);
    CHECK(s.n == 1 && s.ptr[0] == a);
    CHECK(body_scrub_feed(&sc, 2, b, strlen(b), collect, &s) == 0);
    CHECK(s.n == 1); /* held */
    CHECK(body_scrub_feed(&sc, 3, c, strlen(c), collect, &s) == 0);
    CHECK(s.n == 3 && s.lens[1] == strlen(b) && s.lens[2] == strlen(c));
    CHECK(memcmp(s.data + strlen(a), "your key: *****", 15) == 0);
    CHECK(memcmp(s.data + strlen(a) + strlen(b), "************** ok", 17) == 0);
    CHECK(sc.masked == 1);
    body_scrub_free(&sc);
}

/* Secrets that are not added: too short, too long, duplicates, too many. */
static void check_add_limits(void)
{
    struct body_scrub b;
    char *big = malloc(BODY_SCRUB_MAX_SECRET + 2);
    size_t i;
    body_scrub_init(&b);
    CHECK(body_scrub_add(&b, "short", 5) == 0 && b.n_secrets == 0);
    memset(big, 'k', BODY_SCRUB_MAX_SECRET + 1);
    CHECK(body_scrub_add(&b, big, BODY_SCRUB_MAX_SECRET + 1) == 0 &&
          b.n_secrets == 0 && b.dropped == 1); /* too long: counted */
    CHECK(body_scrub_add(&b, big, BODY_SCRUB_MAX_SECRET) == 0 &&
          b.n_secrets == 1);
    CHECK(body_scrub_add(&b, big, BODY_SCRUB_MAX_SECRET) == 0 &&
          b.n_secrets == 1);
    for (i = 0; i < BODY_SCRUB_MAX_SECRETS + 2; i++)
        body_scrub_add(&b, big, 8 + i);
    CHECK(b.n_secrets == BODY_SCRUB_MAX_SECRETS);
    /* the three past the cap are counted, not silently lost (issue 30) */
    CHECK(b.dropped == 1 + 3);
    body_scrub_free(&b);
    CHECK(b.n_secrets == 0 && b.buf == NULL);
    free(big);
}

/* A seeded PRNG (xorshift64*), so failures repeat. */
static uint64_t rng_state = 0x2545F4914F6CDD1DULL;
static unsigned rnd(unsigned n)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (unsigned)((rng_state * 2685821657736338717ULL) >> 33) % n;
}

/* The reference: masks every occurrence (overlaps included) found in the
 * original bytes, and a trailing start of a secret of 8 bytes or more. */
static void reference(const char *body, size_t n, const char *const *sec,
                      size_t n_sec, char *out)
{
    size_t i, j, k;
    memcpy(out, body, n);
    for (k = 0; k < n_sec; k++) {
        size_t sl = strlen(sec[k]), tail = 0;
        for (i = 0; i + sl <= n; i++)
            if (memcmp(body + i, sec[k], sl) == 0)
                memset(out + i, '*', sl);
        for (j = sl - 1; j > 0 && !tail; j--)
            if (j <= n && memcmp(body + n - j, sec[k], j) == 0)
                tail = j;
        if (tail >= BODY_SCRUB_MIN_PARTIAL)
            memset(out + n - tail, '*', tail);
    }
}

/* Random bodies of text, keys, key starts and self-overlapping pieces, in
 * random receives. */
static void check_random(int rounds)
{
    static const char *const sec[] = {KEY, "aaaaaaaaab", "abcabcabd"};
    static const char *const parts[] = {KEY,      "sk-test-",  "sk-test-SECRET",
                                        "aaaaa",  "aaaaaaaaa", "b",
                                        "abcab",  "abcabcab",  "d",
                                        "data: ", "\n\n",      "x",
                                        "s",      "sk-"};
    static char body[2048], want[2048];
    size_t cuts[2048];
    int r;
    for (r = 0; r < rounds; r++) {
        size_t n = 0, nc = 0, at = 0;
        while (n < 600) {
            const char *p = parts[rnd(sizeof parts / sizeof parts[0])];
            memcpy(body + n, p, strlen(p));
            n += strlen(p);
        }
        if (rnd(2))
            n -= rnd(12); /* sometimes end inside a secret */
        reference(body, n, sec, 3, want);
        while (at < n) {
            at += 1 + rnd(rnd(3) ? 6 : 60);
            if (at > n)
                at = n;
            cuts[nc++] = at;
        }
        feed_cuts(sec, 3, body, n, want, cuts, nc, "random");
    }
}

int main(void)
{
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_case(i);
    check_pass_through();
    check_add_limits();
    check_random(3000);
    return CHECK_DONE();
}
