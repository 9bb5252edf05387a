/* replay_tokens: a fixed "lorem ipsum" vocabulary, one word per token. */
#include "replay_tokens.h"

static const char *const ascii_words[] = {
    "lorem ",        "ipsum ",      "dolor ",      "sit ",       "amet ",
    "consectetur ",  "adipiscing ", "elit ",       "sed ",       "do ",
    "eiusmod ",      "tempor ",     "incididunt ", "ut ",        "labore ",
    "et ",           "dolore ",     "magna ",      "aliqua ",    "enim ",
    "ad ",           "minim ",      "veniam ",     "quis ",      "nostrud ",
    "exercitation ", "ullamco ",    "laboris ",    "nisi ",      "aliquip ",
    "ex ",           "ea ",         "commodo ",    "consequat ", "duis ",
    "aute ",
};

/* Every word holds at least one multibyte character. */
static const char *const utf8_words[] = {
    "h\xc3\xa9llo ",             /* héllo */
    "\xe4\xb8\x96\xe7\x95\x8c ", /* 世界 */
    "na\xc3\xafve ",             /* naïve */
    "caf\xc3\xa9 ",              /* café */
    "\xc3\xbc"
    "ber ",                      /* über */
    "\xe6\x97\xa5\xe6\x9c\xac ", /* 日本 */
    "gr\xc3\xbc\xc3\x9f"
    "e ",                                        /* grüße */
    "\xf0\x9f\x98\x80 ",                         /* U+1F600 */
    "\xce\xbb\xcf\x8c\xce\xb3\xce\xbf\xcf\x82 ", /* λόγος */
    "\xd0\xbc\xd0\xb8\xd1\x80 ",                 /* мир */
};

#define N_ASCII (sizeof(ascii_words) / sizeof(ascii_words[0]))
#define N_UTF8 (sizeof(utf8_words) / sizeof(utf8_words[0]))

const char *replay_token(size_t i, bool utf8)
{
    return utf8 ? utf8_words[i % N_UTF8] : ascii_words[i % N_ASCII];
}

int replay_tokens_append(struct buf *b, size_t from, size_t to, bool utf8)
{
    size_t i;
    int rc;

    for (i = from; i < to; i++) {
        rc = buf_puts(b, replay_token(i, utf8));
        if (rc != BUF_OK)
            return rc;
    }
    return BUF_OK;
}
