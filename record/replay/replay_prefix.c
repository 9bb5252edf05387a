/* replay_prefix: prompt text to chained block hashes. */
#include "replay_prefix.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* The chain being built: the running hash, the bytes of the open block. */
struct chain {
    uint64_t h;
    size_t in_block;
    uint64_t *v;
    size_t n, cap;
    int nomem;
};

#define FNV_PRIME 0x100000001b3ULL

/* Feeds n bytes; each completed block appends the hash so far. */
static void feed(struct chain *c, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        c->h = (c->h ^ (unsigned char)p[i]) * FNV_PRIME;
        if (++c->in_block < REPLAY_PREFIX_BLOCK_BYTES)
            continue;
        c->in_block = 0;
        if (c->n == c->cap) {
            size_t ncap = c->cap ? c->cap * 2 : 64;
            uint64_t *nv = realloc(c->v, ncap * sizeof *nv);
            if (!nv) {
                c->nomem = 1;
                return;
            }
            c->v = nv;
            c->cap = ncap;
        }
        c->v[c->n++] = c->h;
    }
}

static void feed_str(struct chain *c, const char *s)
{
    feed(c, s, strlen(s));
}

/* A content: a string, or the "text" of each part. */
static void feed_content(struct chain *c, const cJSON *content)
{
    const cJSON *part;
    if (cJSON_IsString(content)) {
        feed_str(c, content->valuestring);
        return;
    }
    cJSON_ArrayForEach(part, content)
    {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(part, "text");
        if (cJSON_IsString(t))
            feed_str(c, t->valuestring);
    }
}

int replay_prefix_blocks(enum api_kind api, const char *body, size_t len,
                         uint64_t **out, size_t *n)
{
    struct chain c = {0xcbf29ce484222325ULL, 0, NULL, 0, 0, 0};
    cJSON *root = cJSON_ParseWithLength(body, len);
    const cJSON *m;
    *out = NULL;
    *n = 0;
    if (!root)
        return -1;
    if (api == API_OPENAI_COMPLETIONS) {
        feed_content(&c, cJSON_GetObjectItemCaseSensitive(root, "prompt"));
    } else {
        /* the Responses API: "instructions", then "input" (a string, or
         * items like messages) */
        const cJSON *msgs = cJSON_GetObjectItemCaseSensitive(
            root, api == API_OPENAI_RESPONSES ? "input" : "messages");
        const cJSON *list = cJSON_IsArray(msgs) ? msgs : NULL;
        if (api == API_ANTHROPIC)
            feed_content(&c, cJSON_GetObjectItemCaseSensitive(root, "system"));
        if (api == API_OPENAI_RESPONSES) {
            feed_content(
                &c, cJSON_GetObjectItemCaseSensitive(root, "instructions"));
            if (cJSON_IsString(msgs))
                feed_content(&c, msgs);
        }
        cJSON_ArrayForEach(m, list)
        {
            const cJSON *role = cJSON_GetObjectItemCaseSensitive(m, "role");
            /* a separator no text holds, so "ab"+"c" differs from "a"+"bc" */
            feed(&c, "\x1e", 1);
            if (cJSON_IsString(role))
                feed_str(&c, role->valuestring);
            feed(&c, "\x1f", 1);
            feed_content(&c, cJSON_GetObjectItemCaseSensitive(m, "content"));
        }
    }
    cJSON_Delete(root);
    if (c.nomem) {
        free(c.v);
        return -1;
    }
    *out = c.v;
    *n = c.n;
    return 0;
}
