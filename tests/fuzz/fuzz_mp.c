/* fuzz_mp: common/mp.c's decoder on arbitrary bytes, as a stream of values.
 *
 * Invariants checked beyond "no crash": mp_skip and mp_decode agree on every
 * value's size; every proper prefix of a complete value is "need more" (never
 * "bad", never "ok") with a lower bound between the prefix and the value's
 * size; the decoded tree stays inside the input and inside the arena limit;
 * map lookups find the first pair with a key. */
#include <string.h>

#include "fuzz_common.h"
#include "mp.h"

#define FUZZ_MP_NODES 4096 /* arena limit: small, so MP_NOMEM is reached */

struct fuzz_walk {
    const uint8_t *lo, *hi; /* the input: every payload must lie inside */
    size_t nodes;
};

/* Visits every node of v, checking payload bounds and the helpers. */
static void walk(struct fuzz_walk *w, const struct mp_value *v, int depth)
{
    int64_t x;
    FUZZ_CHECK(depth <= MP_MAX_DEPTH + 1);
    w->nodes++;
    if (mp_get_int(v, &x) && v->type == MP_UINT)
        FUZZ_CHECK((uint64_t)x == v->v.u);
    switch (v->type) {
    case MP_STR:
    case MP_BIN:
    case MP_EXT:
        FUZZ_CHECK(v->v.bytes >= w->lo && v->v.bytes <= w->hi);
        FUZZ_CHECK((size_t)(w->hi - v->v.bytes) >= v->n);
        break;
    case MP_ARRAY:
        for (uint32_t i = 0; i < v->n; i++)
            walk(w, &v->v.items[i], depth + 1);
        break;
    case MP_MAP:
        for (uint32_t i = 0; i < v->n; i++) {
            const struct mp_value *k = &v->v.items[2 * i];
            walk(w, k, depth + 1);
            walk(w, &v->v.items[2 * i + 1], depth + 1);
            if (k->type == MP_STR && k->n < 64 &&
                !memchr(k->v.bytes, '\0', k->n)) {
                char key[64];
                const struct mp_value *got;
                memcpy(key, k->v.bytes, k->n);
                key[k->n] = '\0';
                got = mp_map_get(v, key);
                /* The first pair with this key answers, never a later one. */
                FUZZ_CHECK(got && got <= &v->v.items[2 * i + 1]);
                FUZZ_CHECK(mp_str_eq(k, key));
            }
        }
        break;
    default:
        break;
    }
}

/* Every proper prefix of a complete value needs more bytes. */
static void check_prefixes(const uint8_t *p, size_t size)
{
    size_t step = size <= 256 ? 1 : size / 64;
    for (size_t cut = 0; cut < size; cut += step) {
        size_t need = 0;
        int st = mp_skip(p, cut, &need);
        FUZZ_CHECK(st == MP_MORE);
        FUZZ_CHECK(need > cut && need <= size);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct mp_arena arena;
    size_t off = 0;
    mp_arena_init(&arena, FUZZ_MP_NODES);
    while (off < size) {
        struct mp_value *v = NULL;
        size_t used = 0, skipped = 0;
        int st_skip = mp_skip(data + off, size - off, &skipped);
        int st;
        mp_arena_reset(&arena);
        st = mp_decode(data + off, size - off, &arena, &v, &used);
        FUZZ_CHECK(arena.used <= FUZZ_MP_NODES && arena.cap <= FUZZ_MP_NODES);
        if (st_skip != MP_OK) {
            /* The decoder measures with mp_skip first: same verdict. */
            FUZZ_CHECK(st == st_skip);
            if (st_skip == MP_MORE)
                FUZZ_CHECK(skipped > size - off);
            break;
        }
        if (st == MP_NOMEM) {
            off += skipped;
            continue;
        }
        FUZZ_CHECK(st == MP_OK);
        FUZZ_CHECK(used == skipped && used >= 1 && used <= size - off);
        {
            struct fuzz_walk w = {data + off, data + off + used, 0};
            walk(&w, v, 0);
            /* At most one node per byte: the arena bound is real. */
            FUZZ_CHECK(w.nodes <= used && w.nodes == arena.used);
        }
        check_prefixes(data + off, used);
        off += used;
    }
    mp_arena_free(&arena);
    return 0;
}
