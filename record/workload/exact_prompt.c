/* exact_prompt: the fit of the server's token counts, and the synthetic
 * prompts of a byte size built from it. */
#include "exact_prompt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

/* The fixed filler text: common short words, one token each on the usual
 * tokenizers, repeated (the same words as the --arrivals filler). */
static const char *const words[] = {"the", "cat", "sat", "on",  "a",
                                    "mat", "and", "saw", "two", "red",
                                    "fox", "run", "by",  "old", "oak"};
#define N_WORDS (sizeof words / sizeof words[0])

int length_fit_solve(int64_t b1, int64_t t1, int64_t b2, int64_t t2,
                     struct length_fit *out)
{
    struct length_fit f;
    if (b2 <= b1 || t2 <= t1 || t1 < 0)
        return -1;
    memset(&f, 0, sizeof f);
    f.k = (double)(t2 - t1) / (double)(b2 - b1);
    f.overhead = (double)t1 - f.k * (double)b1;
    f.probe_bytes[0] = b1;
    f.probe_bytes[1] = b2;
    f.probe_tokens[0] = t1;
    f.probe_tokens[1] = t2;
    f.probes = 2;
    *out = f;
    return 0;
}

void length_fit_fallback(struct length_fit *out)
{
    memset(out, 0, sizeof *out);
    out->k = EXACT_FALLBACK_K;
    out->probe_tokens[0] = out->probe_tokens[1] = -1;
    out->fallback = true;
}

/* Appends exactly n bytes of filler (words from the first, one space
 * apart; the last word may be cut). Returns a buf error code. */
static int filler(struct buf *b, size_t n)
{
    size_t i = 0;
    while (n > 0) {
        const char *w = words[i++ % N_WORDS];
        size_t len = strlen(w);
        int rc;
        if (i > 1) {
            if ((rc = buf_append(b, " ", 1)))
                return rc;
            if (--n == 0)
                break;
        }
        if (len > n)
            len = n;
        if ((rc = buf_append(b, w, len)))
            return rc;
        n -= len;
    }
    return BUF_OK;
}

/* Bytes for t tokens of text under f (no overhead), at least 0. */
static size_t bytes_for(const struct length_fit *f, double t)
{
    double b = f->k > 0 ? t / f->k : 0;
    return b > 0 ? (size_t)llround(b) : 0;
}

char *exact_prompt_text(const struct length_fit *f, uint64_t k, int64_t tokens,
                        int64_t prefix)
{
    struct buf b;
    char marker[48];
    size_t p = 0, rest, m;
    m = (size_t)snprintf(marker, sizeof marker, "Request %llu. ",
                         (unsigned long long)k);
    if (prefix > 0 && prefix < tokens)
        p = bytes_for(f, (double)prefix);
    rest = bytes_for(
        f, (double)(tokens - (prefix > 0 && prefix < tokens ? prefix : 0)) -
               f->overhead);
    buf_init(&b, 0);
    if (buf_puts(&b, "") || (p && (filler(&b, p) || buf_puts(&b, "\n\n"))) ||
        buf_puts(&b, marker) || filler(&b, rest > m ? rest - m : 0)) {
        buf_free(&b);
        return NULL;
    }
    return b.data;
}

char *exact_prompt_probe(size_t bytes)
{
    struct length_fit f;
    memset(&f, 0, sizeof f);
    f.k = 1; /* one "token" a byte: the text is exactly `bytes` long */
    return exact_prompt_text(&f, 0, (int64_t)bytes, 0);
}

char *exact_filler_words(int64_t n)
{
    struct buf b;
    buf_init(&b, 0);
    if (buf_puts(&b, ""))
        return NULL;
    for (int64_t i = 0; i < n; i++)
        if (buf_puts(&b, i ? " " : "") ||
            buf_puts(&b, words[(size_t)i % N_WORDS])) {
            buf_free(&b);
            return NULL;
        }
    return b.data;
}
