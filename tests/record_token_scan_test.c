/* record_token_scan_test: the live first-token / stream-error spotting,
 * every case fed whole, split at every byte boundary, and byte by byte. */
#include <string.h>

#include "check.h"
#include "token_scan.h"

static const struct {
    const char *stream;
    bool token;
    bool error;
} cases[] = {
    {"data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n", true,
     false},
    {"data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}"
     "}]}\n\n",
     false, false},
    {"data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}\n\n", false,
     false},
    {"data: {\"choices\":[{\"text\":\" the\",\"index\":0}]}\n\n", true, false},
    {"data: {\"choices\":[{\"text\":\"\",\"index\":0}]}\n\n", false, false},
    {"event: content_block_delta\ndata: {\"type\":\"content_block_delta\","
     "\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}\n\n",
     true, false},
    {"data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"hmm\"}}]}\n\n",
     true, false},
    {"data: {\"choices\":[{\"delta\":{\"reasoning\":\"hmm\"}}]}\n\n", true,
     false},
    {": keep-alive\n\n: keep-alive\n\n", false, false},
    {"data: {\"error\":{\"message\":\"overloaded\"}}\n\n", false, true},
    {"event: error\ndata: {\"type\": \"error\", \"error\": {\"type\": "
     "\"overloaded_error\"}}\n\n",
     false, true},
    {"data: {\"id\":\"x\",\"error\":null,\"choices\":[]}\n\n", false, false},
    /* an escaped quote inside content is not a key */
    {"data: {\"choices\":[{\"delta\":{\"content\":\"say \\\"error\\\": x\"}}]}"
     "\n\n",
     true, false},
    {"data: {\"choices\":[{\"delta\":{\"content\": \"spaced\"}}]}\n\n", true,
     false},
};

/* Feeds s in pieces split at the given points; returns how many feeds
 * reported a first token. */
static int feed_split(struct token_scan *sc, const char *s, size_t a,
                      size_t b)
{
    size_t n = strlen(s);
    int firsts = 0;
    token_scan_init(sc);
    firsts += token_scan_feed(sc, s, a);
    firsts += token_scan_feed(sc, s + a, b - a);
    firsts += token_scan_feed(sc, s + b, n - b);
    return firsts;
}

int main(void)
{
    size_t i, a, b;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *s = cases[i].stream;
        size_t n = strlen(s);
        struct token_scan sc;
        int firsts;
        for (a = 0; a <= n; a++) {
            for (b = a; b <= n; b++) {
                firsts = feed_split(&sc, s, a, b);
                CHECK_MSG(sc.token_seen == cases[i].token &&
                              sc.error_seen == cases[i].error &&
                              firsts == (cases[i].token ? 1 : 0),
                          "case %zu split at %zu,%zu: token %d error %d "
                          "firsts %d",
                          i, a, b, sc.token_seen, sc.error_seen, firsts);
                if (check_failures > 20)
                    return CHECK_DONE();
            }
        }
        token_scan_init(&sc);
        firsts = 0;
        for (a = 0; a < n; a++)
            firsts += token_scan_feed(&sc, s + a, 1);
        CHECK_MSG(sc.token_seen == cases[i].token &&
                      sc.error_seen == cases[i].error,
                  "case %zu byte by byte", i);
    }
    return CHECK_DONE();
}
