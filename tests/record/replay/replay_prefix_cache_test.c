/* replay_prefix_cache_test: prompts as chained block hashes, and the LRU
 * cache over them (hits are leading blocks only; eviction oldest first). */
#include "replay_prefix.h"
#include "replay_prefix_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* A chat body whose one user message is `len` copies of c after prefix. */
static char *body(const char *prefix, char c, size_t len)
{
    size_t pl = strlen(prefix);
    char *text = malloc(pl + len + 1), *out = malloc(pl + len + 128);
    memcpy(text, prefix, pl);
    memset(text + pl, c, len);
    text[pl + len] = '\0';
    snprintf(out, pl + len + 128,
             "{\"model\":\"m\",\"messages\":[{\"role\":\"user\","
             "\"content\":\"%s\"}]}",
             text);
    free(text);
    return out;
}

static void blocks_of(const char *b, uint64_t **h, size_t *n)
{
    CHECK(replay_prefix_blocks(API_OPENAI_CHAT, b, strlen(b), h, n) == 0);
}

static void test_blocks(void)
{
    char *a = body("", 'x', 640), *b = body("", 'x', 1280),
         *c = body("y", 'x', 639);
    uint64_t *ha, *hb, *hc;
    size_t na, nb, nc;
    blocks_of(a, &ha, &na);
    blocks_of(b, &hb, &nb);
    blocks_of(c, &hc, &nc);
    /* "\x1e" "user" "\x1f" + 640 bytes = 646: 10 whole blocks */
    CHECK(na == 10);
    CHECK(nb == 20);
    CHECK(memcmp(ha, hb, na * sizeof *ha) == 0); /* a shared prefix */
    CHECK(nc == 10 && hc[0] != ha[0]); /* one byte differs: nothing shared */
    free(hc);
    CHECK(replay_prefix_blocks(API_OPENAI_CHAT, "{", 1, &hc, &nc) == -1);
    free(ha);
    free(hb);
    free(a);
    free(b);
    free(c);
}

static void test_lru(void)
{
    uint64_t h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    uint64_t other[3] = {1, 2, 99};
    uint64_t gap[3] = {50, 2, 3}; /* block 1 differs: no leading hit */
    struct replay_prefix_cache *c = replay_prefix_cache_new(6);
    CHECK(replay_prefix_cache_use(c, h, 4) == 0);
    CHECK(replay_prefix_cache_size(c) == 4);
    CHECK(replay_prefix_cache_use(c, h, 6) == 4);     /* the first 4 */
    CHECK(replay_prefix_cache_use(c, other, 3) == 2); /* 1, 2 then a miss */
    CHECK(replay_prefix_cache_size(c) == 6);          /* 99 evicted 3 */
    CHECK(replay_prefix_cache_use(c, h, 2) == 2);
    CHECK(replay_prefix_cache_use(c, h, 6) == 2); /* 3 was the oldest */
    CHECK(replay_prefix_cache_use(c, gap, 3) == 0);
    CHECK(replay_prefix_cache_size(c) <= 6);
    /* many rounds through a small table: tombstones never fill it */
    for (uint64_t k = 0; k < 100000; k++) {
        uint64_t v[2] = {1000 + k, 7};
        replay_prefix_cache_use(c, v, 2);
    }
    CHECK(replay_prefix_cache_size(c) == 6);
    uint64_t last[2] = {1000 + 99999, 7};
    CHECK(replay_prefix_cache_use(c, last, 2) == 2);
    replay_prefix_cache_free(c);

    struct replay_prefix_caches set;
    memset(&set, 0, sizeof set);
    struct replay_prefix_cache *m1 = replay_prefix_caches_get(&set, "a", 10);
    CHECK(m1 && replay_prefix_caches_get(&set, "a", 10) == m1);
    CHECK(replay_prefix_caches_get(&set, "b", 10) != m1);
    replay_prefix_caches_free(&set);
}

int main(void)
{
    test_blocks();
    test_lru();
    return CHECK_DONE();
}
