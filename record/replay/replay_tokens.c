/* replay_tokens: a fixed "lorem ipsum" vocabulary, one word per token. */
#include "replay_tokens.h"

#include <string.h>

/* A word and its length in bytes. */
struct word {
    const char *s;
    size_t len;
};

#define W(lit)                                                                 \
    {                                                                          \
        lit, sizeof(lit) - 1                                                   \
    }

static const struct word ascii_words[] = {
    W("lorem "),      W("ipsum "),        W("dolor "),      W("sit "),
    W("amet "),       W("consectetur "),  W("adipiscing "), W("elit "),
    W("sed "),        W("do "),           W("eiusmod "),    W("tempor "),
    W("incididunt "), W("ut "),           W("labore "),     W("et "),
    W("dolore "),     W("magna "),        W("aliqua "),     W("enim "),
    W("ad "),         W("minim "),        W("veniam "),     W("quis "),
    W("nostrud "),    W("exercitation "), W("ullamco "),    W("laboris "),
    W("nisi "),       W("aliquip "),      W("ex "),         W("ea "),
    W("commodo "),    W("consequat "),    W("duis "),       W("aute "),
};

/* Every word holds at least one multibyte character. */
static const struct word utf8_words[] = {
    W("h\xc3\xa9llo "),             /* héllo */
    W("\xe4\xb8\x96\xe7\x95\x8c "), /* 世界 */
    W("na\xc3\xafve "),             /* naïve */
    W("caf\xc3\xa9 "),              /* café */
    W("\xc3\xbc"
      "ber "),                      /* über */
    W("\xe6\x97\xa5\xe6\x9c\xac "), /* 日本 */
    W("gr\xc3\xbc\xc3\x9f"
      "e "),                                        /* grüße */
    W("\xf0\x9f\x98\x80 "),                         /* U+1F600 */
    W("\xce\xbb\xcf\x8c\xce\xb3\xce\xbf\xcf\x82 "), /* λόγος */
    W("\xd0\xbc\xd0\xb8\xd1\x80 "),                 /* мир */
};

#define N_ASCII (sizeof(ascii_words) / sizeof(ascii_words[0]))
#define N_UTF8 (sizeof(utf8_words) / sizeof(utf8_words[0]))

/* Token i of the vocabulary. */
static const struct word *word_at(size_t i, bool utf8)
{
    return utf8 ? &utf8_words[i % N_UTF8] : &ascii_words[i % N_ASCII];
}

const char *replay_token(size_t i, bool utf8)
{
    return word_at(i, utf8)->s;
}

size_t replay_tokens_len(size_t from, size_t to, bool utf8)
{
    size_t i, n = 0;

    for (i = from; i < to; i++)
        n += word_at(i, utf8)->len;
    return n;
}

char *replay_tokens_copy(char *dst, size_t from, size_t to, bool utf8)
{
    size_t i;

    for (i = from; i < to; i++) {
        const struct word *w = word_at(i, utf8);
        memcpy(dst, w->s, w->len);
        dst += w->len;
    }
    return dst;
}

int replay_tokens_append(struct buf *b, size_t from, size_t to, bool utf8)
{
    char *p;
    int rc = buf_extend(b, replay_tokens_len(from, to, utf8), &p);

    if (rc == BUF_OK)
        replay_tokens_copy(p, from, to, utf8);
    return rc;
}
