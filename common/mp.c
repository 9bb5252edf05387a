/* mp: a bounds-checked, zero-copy msgpack decoder for hostile input. */
#include "mp.h"

#include <stdlib.h>
#include <string.h>

void mp_arena_init(struct mp_arena *a, size_t limit)
{
    a->nodes = NULL;
    a->used = 0;
    a->cap = 0;
    a->limit = limit;
}

void mp_arena_reset(struct mp_arena *a)
{
    a->used = 0;
}

void mp_arena_free(struct mp_arena *a)
{
    if (!a)
        return;
    free(a->nodes);
    a->nodes = NULL;
    a->used = a->cap = 0;
}

/* Nodes are addressed by index while decoding because the arena may move
 * when it grows; pointers are fixed up once the whole tree is built. */
static int arena_take(struct mp_arena *a, size_t count, size_t *first)
{
    if (count > a->limit || a->used > a->limit - count)
        return MP_NOMEM;
    if (a->used + count > a->cap) {
        size_t ncap = a->cap ? a->cap : 64;
        struct mp_value *p;
        while (ncap < a->used + count)
            ncap *= 2;
        if (ncap > a->limit)
            ncap = a->limit;
        p = realloc(a->nodes, ncap * sizeof(*p));
        if (!p)
            return MP_NOMEM;
        a->nodes = p;
        a->cap = ncap;
    }
    *first = a->used;
    memset(&a->nodes[a->used], 0, count * sizeof(*a->nodes));
    a->used += count;
    return MP_OK;
}

/* The big-endian unsigned integer of n bytes (1, 2, 4 or 8) at p. The
 * fixed widths compile to single loads and byte swaps. */
static uint64_t be(const uint8_t *p, int n)
{
    switch (n) {
    case 1:
        return p[0];
    case 2:
        return (uint64_t)p[0] << 8 | p[1];
    case 4:
        return (uint64_t)p[0] << 24 | (uint64_t)p[1] << 16 |
               (uint64_t)p[2] << 8 | p[3];
    default:
        return (uint64_t)p[0] << 56 | (uint64_t)p[1] << 48 |
               (uint64_t)p[2] << 40 | (uint64_t)p[3] << 32 |
               (uint64_t)p[4] << 24 | (uint64_t)p[5] << 16 |
               (uint64_t)p[6] << 8 | p[7];
    }
}

/* Shape of the value whose first byte is at p: payload-length bytes, fixed
 * size, or container element count. */
struct head {
    enum mp_type type;
    size_t hdr;   /* bytes of the header */
    uint64_t len; /* str/bin/ext payload bytes, or container count */
    uint64_t raw; /* scalar payload */
    int raw_bytes;
    bool is_signed;
    int8_t ext_type;
};

/* The one-byte forms (positive and negative fixint, fixmap, fixarray,
 * fixstr): true when c is one, with *h filled; false, *h untouched,
 * for a marker byte (0xc0 to 0xdf). */
static bool read_fix(uint8_t c, struct head *h)
{
    if (c <= 0x7f) {
        h->type = MP_UINT;
        h->raw = c;
        return true;
    }
    if (c >= 0xe0) {
        h->type = MP_INT;
        h->raw = (uint64_t)(int64_t)(int8_t)c;
        return true;
    }
    if ((c & 0xf0) == 0x80) {
        h->type = MP_MAP;
        h->len = c & 0x0f;
        return true;
    }
    if ((c & 0xf0) == 0x90) {
        h->type = MP_ARRAY;
        h->len = c & 0x0f;
        return true;
    }
    if ((c & 0xe0) == 0xa0) {
        h->type = MP_STR;
        h->len = c & 0x1f;
        return true;
    }
    return false;
}

/* What the marker byte c (0xc0 to 0xdf) announces: the type, and how many
 * bytes of length (*lenbytes) or of scalar payload (h->raw_bytes) follow,
 * or the header size of a fixext. Returns MP_OK, or MP_BAD for 0xc1
 * (never used). */
static int read_marker(uint8_t c, struct head *h, int *lenbytes)
{
    switch (c) {
    case 0xc0:
        h->type = MP_NIL;
        return MP_OK;
    case 0xc2:
        h->type = MP_BOOL;
        h->raw = 0;
        return MP_OK;
    case 0xc3:
        h->type = MP_BOOL;
        h->raw = 1;
        return MP_OK;
    case 0xc4:
        h->type = MP_BIN;
        *lenbytes = 1;
        break;
    case 0xc5:
        h->type = MP_BIN;
        *lenbytes = 2;
        break;
    case 0xc6:
        h->type = MP_BIN;
        *lenbytes = 4;
        break;
    case 0xc7:
        h->type = MP_EXT;
        *lenbytes = 1;
        break;
    case 0xc8:
        h->type = MP_EXT;
        *lenbytes = 2;
        break;
    case 0xc9:
        h->type = MP_EXT;
        *lenbytes = 4;
        break;
    case 0xca:
        h->type = MP_FLOAT;
        h->raw_bytes = 4;
        break;
    case 0xcb:
        h->type = MP_FLOAT;
        h->raw_bytes = 8;
        break;
    case 0xcc:
        h->type = MP_UINT;
        h->raw_bytes = 1;
        break;
    case 0xcd:
        h->type = MP_UINT;
        h->raw_bytes = 2;
        break;
    case 0xce:
        h->type = MP_UINT;
        h->raw_bytes = 4;
        break;
    case 0xcf:
        h->type = MP_UINT;
        h->raw_bytes = 8;
        break;
    case 0xd0:
        h->type = MP_INT;
        h->raw_bytes = 1;
        h->is_signed = true;
        break;
    case 0xd1:
        h->type = MP_INT;
        h->raw_bytes = 2;
        h->is_signed = true;
        break;
    case 0xd2:
        h->type = MP_INT;
        h->raw_bytes = 4;
        h->is_signed = true;
        break;
    case 0xd3:
        h->type = MP_INT;
        h->raw_bytes = 8;
        h->is_signed = true;
        break;
    case 0xd4:
        h->type = MP_EXT;
        h->len = 1;
        h->hdr = 2;
        break;
    case 0xd5:
        h->type = MP_EXT;
        h->len = 2;
        h->hdr = 2;
        break;
    case 0xd6:
        h->type = MP_EXT;
        h->len = 4;
        h->hdr = 2;
        break;
    case 0xd7:
        h->type = MP_EXT;
        h->len = 8;
        h->hdr = 2;
        break;
    case 0xd8:
        h->type = MP_EXT;
        h->len = 16;
        h->hdr = 2;
        break;
    case 0xd9:
        h->type = MP_STR;
        *lenbytes = 1;
        break;
    case 0xda:
        h->type = MP_STR;
        *lenbytes = 2;
        break;
    case 0xdb:
        h->type = MP_STR;
        *lenbytes = 4;
        break;
    case 0xdc:
        h->type = MP_ARRAY;
        *lenbytes = 2;
        break;
    case 0xdd:
        h->type = MP_ARRAY;
        *lenbytes = 4;
        break;
    case 0xde:
        h->type = MP_MAP;
        *lenbytes = 2;
        break;
    case 0xdf:
        h->type = MP_MAP;
        *lenbytes = 4;
        break;
    default:
        return MP_BAD; /* 0xc1 is never used */
    }
    return MP_OK;
}

/* Reads what follows a marker byte of the len bytes at p: the length
 * (lenbytes of it) or the scalar payload, and the ext type byte, into
 * *h. Returns MP_OK or MP_MORE when the header is cut short. */
static int read_sized(const uint8_t *p, size_t len, int lenbytes,
                      struct head *h)
{
    if (lenbytes) {
        if (len < 1 + (size_t)lenbytes)
            return MP_MORE;
        h->len = be(p + 1, lenbytes);
        h->hdr = 1 + (size_t)lenbytes;
        if (h->type == MP_EXT)
            h->hdr += 1; /* the type byte */
    } else if (h->raw_bytes) {
        if (len < 1 + (size_t)h->raw_bytes)
            return MP_MORE;
        h->raw = be(p + 1, h->raw_bytes);
        h->hdr = 1 + (size_t)h->raw_bytes;
        if (h->is_signed) {
            int shift = 64 - 8 * h->raw_bytes;
            h->raw = (uint64_t)((int64_t)(h->raw << shift) >> shift);
            if ((int64_t)h->raw >= 0)
                h->type = MP_UINT;
        }
    }
    if (h->hdr > len)
        return MP_MORE;
    if (h->type == MP_EXT)
        h->ext_type = (int8_t)p[h->hdr - 1];
    return MP_OK;
}

/* Reads the header of the value whose first byte is at p (len bytes
 * there) into *h. Returns MP_OK, MP_MORE when len is too short for the
 * header, or MP_BAD for a byte that starts no value. */
static int read_head(const uint8_t *p, size_t len, struct head *h)
{
    uint8_t c;
    int lenbytes = 0;
    memset(h, 0, sizeof(*h));
    if (len < 1)
        return MP_MORE;
    c = p[0];
    h->hdr = 1;
    if (read_fix(c, h))
        return MP_OK;
    if (read_marker(c, h, &lenbytes) != MP_OK)
        return MP_BAD;
    return read_sized(p, len, lenbytes, h);
}

static bool is_container(enum mp_type t)
{
    return t == MP_ARRAY || t == MP_MAP;
}

static bool has_payload(enum mp_type t)
{
    return t == MP_STR || t == MP_BIN || t == MP_EXT;
}

/* Walks the value at buf: returns its size in *used. Iterative with an
 * explicit stack of remaining element counts, so depth is bounded. */
int mp_skip(const uint8_t *buf, size_t len, size_t *used)
{
    uint64_t remaining[MP_MAX_DEPTH + 1];
    int depth = 0;
    size_t off = 0;
    remaining[0] = 1;
    while (depth >= 0) {
        struct head h;
        int st;
        if (remaining[depth] == 0) {
            depth--;
            continue;
        }
        remaining[depth]--;
        st = read_head(buf + off, len - off, &h);
        if (st) {
            *used = len + 1;
            return st;
        }
        off += h.hdr;
        if (has_payload(h.type)) {
            if (h.len > len - off) {
                /* Tell the caller how much this value needs at least, so
                 * absurd lengths are refused before reading or allocating. */
                *used = h.len > SIZE_MAX - off ? SIZE_MAX : off + (size_t)h.len;
                return MP_MORE;
            }
            off += (size_t)h.len;
        } else if (is_container(h.type)) {
            uint64_t count = h.type == MP_MAP ? h.len * 2 : h.len;
            if (count == 0)
                continue;
            if (depth == MP_MAX_DEPTH)
                return MP_BAD;
            remaining[++depth] = count;
        }
    }
    *used = off;
    return MP_OK;
}

static void fill_scalar(struct mp_value *v, const struct head *h,
                        const uint8_t *payload)
{
    v->type = h->type;
    switch (h->type) {
    case MP_BOOL:
        v->v.b = h->raw != 0;
        break;
    case MP_UINT:
        v->v.u = h->raw;
        break;
    case MP_INT:
        v->v.i = (int64_t)h->raw;
        break;
    case MP_FLOAT:
        if (h->raw_bytes == 4) {
            uint32_t b32 = (uint32_t)h->raw;
            float f;
            memcpy(&f, &b32, sizeof(f));
            v->v.f = f;
        } else {
            memcpy(&v->v.f, &h->raw, sizeof(v->v.f));
        }
        break;
    case MP_STR:
    case MP_BIN:
    case MP_EXT:
        v->n = (uint32_t)h->len;
        v->v.bytes = payload;
        v->ext_type = h->ext_type;
        break;
    default:
        break;
    }
}

/* Decodes recursively after mp_skip proved the value complete and well
 * formed, so every length here is within the buffer. Node positions are
 * indices into the arena (it may move while growing). */
static int decode_at(const uint8_t *buf, size_t *off, struct mp_arena *a,
                     size_t node)
{
    struct head h;
    size_t first, count;
    read_head(buf + *off, (size_t)-1 / 2, &h);
    *off += h.hdr;
    if (!is_container(h.type)) {
        fill_scalar(&a->nodes[node], &h, buf + *off);
        if (has_payload(h.type))
            *off += (size_t)h.len;
        return MP_OK;
    }
    count = (size_t)(h.type == MP_MAP ? h.len * 2 : h.len);
    a->nodes[node].type = h.type;
    a->nodes[node].n = (uint32_t)h.len;
    if (count == 0) {
        a->nodes[node].v.items = NULL;
        return MP_OK;
    }
    if (arena_take(a, count, &first))
        return MP_NOMEM;
    /* Store the index for now; fix_pointers turns it into a pointer. */
    a->nodes[node].v.u = first;
    for (size_t i = 0; i < count; i++) {
        int st = decode_at(buf, off, a, first + i);
        if (st)
            return st;
    }
    return MP_OK;
}

static void fix_pointers(struct mp_arena *a, size_t from)
{
    for (size_t i = from; i < a->used; i++) {
        struct mp_value *v = &a->nodes[i];
        if (is_container(v->type) && v->n > 0)
            v->v.items = &a->nodes[v->v.u];
    }
}

int mp_decode(const uint8_t *buf, size_t len, struct mp_arena *a,
              struct mp_value **out, size_t *used)
{
    size_t size, off = 0, root, from = a->used;
    int st = mp_skip(buf, len, &size);
    if (st)
        return st;
    /* Every element occupies at least one byte, so a complete value of size
     * bytes has at most size nodes: the arena limit bounds memory. */
    if (arena_take(a, 1, &root))
        return MP_NOMEM;
    st = decode_at(buf, &off, a, root);
    if (st)
        return st;
    fix_pointers(a, from);
    *out = &a->nodes[root];
    *used = size;
    return MP_OK;
}

size_t mp_read_int(const uint8_t *buf, size_t len, int64_t *out)
{
    size_t size;
    uint64_t x;
    uint8_t c;
    if (len < 1)
        return 0;
    c = buf[0];
    if (c <= 0x7f || c >= 0xe0) { /* positive or negative fixint */
        *out = c <= 0x7f ? (int64_t)c : (int64_t)(int8_t)c;
        return 1;
    }
    if (c < 0xcc || c > 0xd3)
        return 0;
    size = (size_t)1 << ((c - 0xcc) & 3); /* 1, 2, 4 or 8 payload bytes */
    if (len < 1 + size)
        return 0;
    x = be(buf + 1, (int)size);
    if (c >= 0xd0) { /* signed: sign-extend from its width */
        int shift = 64 - 8 * (int)size;
        *out = (int64_t)(x << shift) >> shift;
    } else {
        if (x > (uint64_t)INT64_MAX)
            return 0;
        *out = (int64_t)x;
    }
    return 1 + size;
}

size_t mp_read_bytes(const uint8_t *buf, size_t len, const uint8_t **data,
                     size_t *n)
{
    size_t hdr, lenbytes;
    uint64_t count;
    uint8_t c;
    if (len < 1)
        return 0;
    c = buf[0];
    if ((c & 0xe0) == 0xa0) /* fixstr */
        lenbytes = 0;
    else if (c >= 0xc4 && c <= 0xc6) /* bin 8/16/32 */
        lenbytes = (size_t)1 << (c - 0xc4);
    else if (c >= 0xd9 && c <= 0xdb) /* str 8/16/32 */
        lenbytes = (size_t)1 << (c - 0xd9);
    else
        return 0;
    hdr = 1 + lenbytes;
    if (len < hdr)
        return 0;
    count = lenbytes ? be(buf + 1, (int)lenbytes) : (uint64_t)(c & 0x1f);
    if (count > len - hdr)
        return 0;
    *data = buf + hdr;
    *n = (size_t)count;
    return hdr + (size_t)count;
}

const struct mp_value *mp_map_get(const struct mp_value *v, const char *key)
{
    size_t klen;
    if (!v || v->type != MP_MAP)
        return NULL;
    klen = strlen(key);
    for (uint32_t i = 0; i < v->n; i++) {
        const struct mp_value *k = &v->v.items[2 * i];
        if (k->type == MP_STR && k->n == klen &&
            memcmp(k->v.bytes, key, klen) == 0)
            return &v->v.items[2 * i + 1];
    }
    return NULL;
}

bool mp_str_eq(const struct mp_value *v, const char *s)
{
    size_t len = strlen(s);
    return v && v->type == MP_STR && v->n == len &&
           memcmp(v->v.bytes, s, len) == 0;
}

bool mp_get_int(const struct mp_value *v, int64_t *out)
{
    if (!v)
        return false;
    switch (v->type) {
    case MP_UINT:
        if (v->v.u > (uint64_t)INT64_MAX)
            return false;
        *out = (int64_t)v->v.u;
        return true;
    case MP_INT:
        *out = v->v.i;
        return true;
    case MP_FLOAT:
        if (!(v->v.f >= -9.2e18 && v->v.f <= 9.2e18) ||
            v->v.f != (double)(int64_t)v->v.f)
            return false;
        *out = (int64_t)v->v.f;
        return true;
    default:
        return false;
    }
}
