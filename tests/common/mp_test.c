/* mp_test: the hostile-input msgpack decoder: every encoding, every prefix
 * of a value asks for more, depth and size bombs are refused. */
#include <string.h>

#include "check.h"
#include "mp.h"

struct mp_case {
    const char *name;
    const unsigned char *bytes;
    size_t len;
    enum mp_type type;
    int64_t int_value; /* for integers */
};

#define B(...)                                                                 \
    (const unsigned char[]){__VA_ARGS__},                                      \
        sizeof((const unsigned char[]){__VA_ARGS__})

static const struct mp_case cases[] = {
    {"positive fixint", B(0x05), MP_UINT, 5},
    {"negative fixint", B(0xff), MP_INT, -1},
    {"uint8", B(0xcc, 0xff), MP_UINT, 255},
    {"uint16", B(0xcd, 0x01, 0x00), MP_UINT, 256},
    {"uint32", B(0xce, 0x00, 0x01, 0x00, 0x00), MP_UINT, 65536},
    {"uint64", B(0xcf, 0, 0, 0, 1, 0, 0, 0, 0), MP_UINT, 4294967296LL},
    {"int8", B(0xd0, 0x80), MP_INT, -128},
    {"int16", B(0xd1, 0xff, 0x00), MP_INT, -256},
    {"int32", B(0xd2, 0xff, 0xff, 0xff, 0xfe), MP_INT, -2},
    {"int64 positive", B(0xd3, 0, 0, 0, 0, 0, 0, 0, 7), MP_UINT, 7},
    {"nil", B(0xc0), MP_NIL, 0},
    {"true", B(0xc3), MP_BOOL, 0},
    {"fixstr", B(0xa2, 'h', 'i'), MP_STR, 0},
    {"str8", B(0xd9, 0x01, 'x'), MP_STR, 0},
    {"bin8", B(0xc4, 0x02, 0x00, 0xff), MP_BIN, 0},
    {"float64 1.5", B(0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0), MP_FLOAT, 0},
    {"float32 1.5", B(0xca, 0x3f, 0xc0, 0, 0), MP_FLOAT, 0},
    {"fixarray", B(0x92, 0x01, 0xa1, 'a'), MP_ARRAY, 0},
    {"fixmap", B(0x81, 0xa1, 'k', 0x02), MP_MAP, 0},
    {"fixext1", B(0xd4, 0x05, 0x09), MP_EXT, 0},
    {"empty array16", B(0xdc, 0x00, 0x00), MP_ARRAY, 0},
};

static void test_cases(void)
{
    struct mp_arena a;
    mp_arena_init(&a, 1024);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct mp_case *c = &cases[i];
        struct mp_value *v;
        size_t used;
        mp_arena_reset(&a);
        CHECK_MSG(mp_decode(c->bytes, c->len, &a, &v, &used) == MP_OK, "%s",
                  c->name);
        CHECK_MSG(used == c->len && v->type == c->type, "%s", c->name);
        if (c->type == MP_UINT || c->type == MP_INT) {
            int64_t x;
            CHECK_MSG(mp_get_int(v, &x) && x == c->int_value, "%s", c->name);
        }
        /* Every strict prefix needs more bytes, never reads past the end. */
        for (size_t n = 0; n < c->len; n++) {
            mp_arena_reset(&a);
            CHECK_MSG(mp_decode(c->bytes, n, &a, &v, &used) == MP_MORE,
                      "%s prefix %zu", c->name, n);
        }
    }
    mp_arena_reset(&a);
    struct mp_value *v;
    size_t used;
    CHECK(mp_decode(B(0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0), &a, &v, &used) ==
          MP_OK);
    CHECK(v->v.f == 1.5);
    mp_arena_reset(&a);
    /* Strings point into the input: it must outlive the tree. */
    static const unsigned char map[] = {0x81, 0xa1, 'k', 0x02};
    CHECK(mp_decode(map, sizeof(map), &a, &v, &used) == MP_OK);
    int64_t k;
    CHECK(mp_get_int(mp_map_get(v, "k"), &k) && k == 2);
    CHECK(mp_map_get(v, "missing") == NULL);
    mp_arena_free(&a);
}

static void test_bombs(void)
{
    struct mp_arena a;
    struct mp_value *v;
    size_t used;
    unsigned char deep[64];
    mp_arena_init(&a, 1024);
    /* 40 nested one-element arrays: deeper than MP_MAX_DEPTH. */
    memset(deep, 0x91, 40);
    deep[40] = 0x00;
    CHECK(mp_decode(deep, 41, &a, &v, &used) == MP_BAD);
    /* 0xc1 is reserved. */
    CHECK(mp_decode(B(0xc1), &a, &v, &used) == MP_BAD);
    /* A 4 GiB string header: MP_MORE with the claimed size, nothing built. */
    CHECK(mp_skip(B(0xdb, 0xff, 0xff, 0xff, 0xff, 'x'), &used) == MP_MORE);
    CHECK(used == 5 + 0xffffffffULL);
    /* More nodes than the arena allows: refused. */
    unsigned char many[3 + 2000];
    many[0] = 0xdc;
    many[1] = 0x07;
    many[2] = 0xd0; /* 2000 elements */
    memset(many + 3, 0x00, 2000);
    CHECK(mp_decode(many, sizeof(many), &a, &v, &used) == MP_NOMEM);
    mp_arena_free(&a);
}

int main(void)
{
    test_cases();
    test_bombs();
    return CHECK_DONE();
}
