/* mp: a bounds-checked, zero-copy msgpack decoder for hostile input.
 *
 * Trace files come from strangers' bug reports. This decoder never reads past
 * the buffer it is given, refuses containers that claim more elements than
 * the remaining bytes could hold (before allocating anything for them), caps
 * nesting depth, and allocates nodes only from an arena the caller resets per
 * record. Strings and binaries point into the input buffer (not NUL-ended).
 */
#ifndef TT_MP_H
#define TT_MP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum mp_type {
    MP_NIL,
    MP_BOOL,
    MP_UINT,
    MP_INT, /* negative integers only */
    MP_FLOAT,
    MP_STR,
    MP_BIN,
    MP_ARRAY,
    MP_MAP,
    MP_EXT,
};

struct mp_value {
    enum mp_type type;
    uint32_t n; /* elements (array), pairs (map), bytes (str/bin/ext) */
    union {
        bool b;
        uint64_t u;
        int64_t i;
        double f;
        const uint8_t *bytes;   /* str, bin, ext */
        struct mp_value *items; /* array: n items; map: 2n (key, value) */
    } v;
    int8_t ext_type;
};

/* A bump allocator for decoded nodes. Bounded: see mp_arena_init. */
struct mp_arena {
    struct mp_value *nodes;
    size_t used;
    size_t cap;
    size_t limit; /* most nodes ever allocated */
};

enum mp_status {
    MP_OK = 0,
    MP_MORE = 1,  /* the buffer ends inside the value: feed more bytes */
    MP_BAD = 2,   /* not valid msgpack (or nested deeper than MP_MAX_DEPTH) */
    MP_NOMEM = 3, /* the arena limit or malloc refused */
};

#define MP_MAX_DEPTH 32

/* Initializes an arena that may hold up to limit nodes. */
void mp_arena_init(struct mp_arena *a, size_t limit);

/* Forgets every node (keeps the memory for reuse). */
void mp_arena_reset(struct mp_arena *a);

/* Frees the arena's memory. NULL-safe. */
void mp_arena_free(struct mp_arena *a);

/* Decodes one value from buf[0..len). On MP_OK, *out points to the tree and
 * *used is the number of bytes the value occupies. */
int mp_decode(const uint8_t *buf, size_t len, struct mp_arena *a,
              struct mp_value **out, size_t *used);

/* Measures the value starting at buf without building a tree: MP_OK with
 * its size in *used; MP_MORE with a lower bound of the bytes it needs in
 * *used (a string header claiming 4 GiB says so at once); or MP_BAD. */
int mp_skip(const uint8_t *buf, size_t len, size_t *used);

/* Reads one msgpack integer (a fixint or an int/uint of 1 to 8 bytes; not
 * a float) at buf[0..len). Returns its size in bytes and the value in *out,
 * or 0 when buf does not start with such an integer, it is cut by len, or
 * its value is above INT64_MAX. Never reads past buf + len. */
size_t mp_read_int(const uint8_t *buf, size_t len, int64_t *out);

/* Reads one msgpack bin or str header at buf[0..len) and checks that its
 * payload lies within len. Returns the whole value's size (header and
 * payload), with the payload in *data and *n; 0 when buf does not start
 * with a bin/str or the payload is cut by len. Never reads past buf + len. */
size_t mp_read_bytes(const uint8_t *buf, size_t len, const uint8_t **data,
                     size_t *n);

/* Map lookup by string key; NULL when v is not a map or the key is absent. */
const struct mp_value *mp_map_get(const struct mp_value *v, const char *key);

/* True when v is a str equal to s. */
bool mp_str_eq(const struct mp_value *v, const char *s);

/* Reads an integer (uint or int, or a float with an integral value) into
 * *out. Returns false for other types or values out of int64 range. */
bool mp_get_int(const struct mp_value *v, int64_t *out);

#endif
