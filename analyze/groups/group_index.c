/* group_index: open addressing with linear probing over (owner, key). */
#include "group_index.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t group_index_hash(uint64_t h, const void *p, size_t len)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < len; i++) {
        h ^= s[i];
        h *= 1099511628211ULL;
    }
    return h;
}

size_t group_index_key(const char *const *vals, size_t n, char *out,
                       size_t size)
{
    size_t at = 0;
    for (size_t i = 0; i < n && at < size; i++)
        at += (size_t)snprintf(out + at, size - at, "%zu:%s", strlen(vals[i]),
                               vals[i]);
    if (at >= size)
        at = size - 1;
    out[at] = '\0';
    return at;
}

/* The key's hash mixed with its owner, so one kind in many groups does not
 * pile up in one probe run. */
static uint64_t mix(uint64_t hash, const void *owner)
{
    uint64_t x = hash ^ ((uint64_t)(uintptr_t)owner * 0x9e3779b97f4a7c15ULL);
    x ^= x >> 29;
    return x * 0xbf58476d1ce4e5b9ULL;
}

/* The slot of (owner, key), or the empty slot where it would go; hash is
 * already mixed. */
static struct group_index_slot *probe(const struct group_index *ix,
                                      uint64_t hash, const void *owner,
                                      const char *key)
{
    size_t mask = ix->cap - 1;
    for (size_t i = (size_t)hash & mask;; i = (i + 1) & mask) {
        struct group_index_slot *s = &ix->slots[i];
        if (!s->key ||
            (s->hash == hash && s->owner == owner && strcmp(s->key, key) == 0))
            return s;
    }
}

int group_index_get(const struct group_index *ix, uint64_t hash,
                    const void *owner, const char *key, size_t *value)
{
    const struct group_index_slot *s;
    if (ix->cap == 0)
        return 0;
    hash = mix(hash, owner);
    s = probe(ix, hash, owner, key);
    if (!s->key)
        return 0;
    *value = s->value;
    return 1;
}

int group_index_set(struct group_index *ix, uint64_t hash, const void *owner,
                    const char *key, size_t value)
{
    struct group_index_slot *s;
    if (ix->cap == 0)
        return 0;
    hash = mix(hash, owner);
    s = probe(ix, hash, owner, key);
    if (!s->key)
        return 0;
    s->value = value;
    return 1;
}

/* Doubles the table (16 slots at first). Returns 0 or -1. */
static int grow(struct group_index *ix)
{
    size_t cap = ix->cap ? ix->cap * 2 : 16;
    struct group_index_slot *old = ix->slots;
    struct group_index_slot *slots;
    if (cap < ix->cap || cap > SIZE_MAX / sizeof(*slots))
        return -1;
    slots = calloc(cap, sizeof(*slots));
    if (!slots)
        return -1;
    ix->slots = slots;
    ix->cap = cap;
    for (size_t i = 0; old && i < cap / 2; i++)
        if (old[i].key)
            *probe(ix, old[i].hash, old[i].owner, old[i].key) = old[i];
    free(old);
    return 0;
}

int group_index_put(struct group_index *ix, uint64_t hash, const void *owner,
                    const char *key, size_t value)
{
    struct group_index_slot *s;
    char *copy;
    if ((ix->n + 1) * 2 > ix->cap && grow(ix) != 0)
        return -1;
    copy = strdup(key);
    if (!copy)
        return -1;
    hash = mix(hash, owner);
    s = probe(ix, hash, owner, key);
    s->hash = hash;
    s->owner = owner;
    s->key = copy;
    s->value = value;
    ix->n++;
    return 0;
}

void group_index_free(struct group_index *ix)
{
    if (!ix)
        return;
    for (size_t i = 0; i < ix->cap; i++)
        free(ix->slots[i].key);
    free(ix->slots);
    ix->slots = NULL;
    ix->cap = ix->n = 0;
}
