/* group_index: a hash index from (owner, key string) to a position, so
 * finding a group among many, or an error kind among a group's many, is
 * constant time instead of a scan (the analyzer stays linear in the number
 * of distinct models, classes, labels and error kinds a trace holds). */
#ifndef TT_GROUP_INDEX_H
#define TT_GROUP_INDEX_H

#include <stddef.h>
#include <stdint.h>

struct group_index_slot {
    uint64_t hash;
    const void *owner; /* compared by address; NULL is an owner like any */
    char *key;         /* owned copy; NULL: the slot is empty */
    size_t value;
};

struct group_index {
    struct group_index_slot *slots;
    size_t cap, n; /* cap a power of two (or 0), n < cap / 2 */
};

/* FNV-1a over len bytes, continuing from h (start with
 * GROUP_INDEX_HASH_INIT): callers hash several parts into one key. */
#define GROUP_INDEX_HASH_INIT 14695981039346656037ULL
uint64_t group_index_hash(uint64_t h, const void *p, size_t len);

/* Writes into out (size > 0 bytes) the key of the values vals[0..n):
 * "LEN:VALUE" for each, so different value lists never give the same key
 * (a value may hold any byte but NUL). Cut at size - 1 bytes. Returns its
 * length. */
size_t group_index_key(const char *const *vals, size_t n, char *out,
                       size_t size);

/* Looks up (owner, key) with key's hash. Returns 1 and sets *value when
 * present, 0 when absent. Cannot fail. */
int group_index_get(const struct group_index *ix, uint64_t hash,
                    const void *owner, const char *key, size_t *value);

/* Adds (owner, key) -> value; the key must be absent. Returns 0, or -1 out
 * of memory (the index is unchanged). */
int group_index_put(struct group_index *ix, uint64_t hash, const void *owner,
                    const char *key, size_t value);

/* Changes the value of (owner, key), e.g. after the entries it points at
 * were reordered. Returns 1 when present, 0 when absent (nothing done).
 * Cannot fail. */
int group_index_set(struct group_index *ix, uint64_t hash, const void *owner,
                    const char *key, size_t value);

/* Frees every key and the slots; the index is empty again. NULL-safe. */
void group_index_free(struct group_index *ix);

#endif
