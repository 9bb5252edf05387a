/* replay_prefix_cache: an LRU set of block hashes, open addressing plus an
 * index-linked recency list; everything allocated once. */
#include "replay_prefix_cache.h"

#include <stdlib.h>
#include <string.h>

#define NIL ((uint32_t)-1)

struct entry {
    uint64_t hash;
    uint32_t prev, next; /* recency list: head is the most recent */
    uint8_t used;        /* 0 empty, 1 in use, 2 deleted (a tombstone) */
};

struct replay_prefix_cache {
    struct entry *slots;
    size_t n_slots; /* a power of two, at least twice the capacity */
    size_t capacity;
    size_t size;
    size_t tombs;
    uint32_t head, tail;
};

struct replay_prefix_cache *replay_prefix_cache_new(size_t capacity_blocks)
{
    struct replay_prefix_cache *c = calloc(1, sizeof *c);
    size_t n = 16;
    if (!c)
        return NULL;
    if (capacity_blocks < 1)
        capacity_blocks = 1;
    while (n < capacity_blocks * 2 + 2)
        n *= 2;
    c->slots = calloc(n, sizeof *c->slots);
    if (!c->slots) {
        free(c);
        return NULL;
    }
    c->n_slots = n;
    c->capacity = capacity_blocks;
    c->head = c->tail = NIL;
    return c;
}

/* The slot holding hash, or NIL. */
static uint32_t find(const struct replay_prefix_cache *c, uint64_t hash)
{
    size_t mask = c->n_slots - 1, i = (size_t)(hash ^ (hash >> 29)) & mask;
    for (;;) {
        const struct entry *e = &c->slots[i];
        if (e->used == 0)
            return NIL;
        if (e->used == 1 && e->hash == hash)
            return (uint32_t)i;
        i = (i + 1) & mask;
    }
}

static void unlink_slot(struct replay_prefix_cache *c, uint32_t i)
{
    struct entry *e = &c->slots[i];
    if (e->prev != NIL)
        c->slots[e->prev].next = e->next;
    else
        c->head = e->next;
    if (e->next != NIL)
        c->slots[e->next].prev = e->prev;
    else
        c->tail = e->prev;
}

static void push_front(struct replay_prefix_cache *c, uint32_t i)
{
    struct entry *e = &c->slots[i];
    e->prev = NIL;
    e->next = c->head;
    if (c->head != NIL)
        c->slots[c->head].prev = i;
    c->head = i;
    if (c->tail == NIL)
        c->tail = i;
}

/* Rebuilds the table without tombstones, keeping the recency order. */
static void rehash(struct replay_prefix_cache *c)
{
    struct entry *old = c->slots;
    uint32_t i = c->tail;
    struct entry *fresh = calloc(c->n_slots, sizeof *fresh);
    if (!fresh)
        return; /* keep the tombstones: slower, still right */
    c->slots = fresh;
    c->head = c->tail = NIL;
    c->tombs = 0;
    while (i != NIL) { /* oldest first, so each goes to the front */
        size_t mask = c->n_slots - 1;
        uint64_t h = old[i].hash;
        size_t j = (size_t)(h ^ (h >> 29)) & mask;
        while (fresh[j].used)
            j = (j + 1) & mask;
        fresh[j].hash = h;
        fresh[j].used = 1;
        push_front(c, (uint32_t)j);
        i = old[i].prev;
    }
    free(old);
}

/* Inserts hash (not present) as the most recent. */
static void insert(struct replay_prefix_cache *c, uint64_t hash)
{
    size_t mask = c->n_slots - 1, i = (size_t)(hash ^ (hash >> 29)) & mask;
    if (c->size == c->capacity) { /* evict the least recent */
        uint32_t t = c->tail;
        unlink_slot(c, t);
        c->slots[t].used = 2;
        c->size--;
        c->tombs++;
    }
    if (c->size + c->tombs + 1 > c->n_slots * 3 / 4) {
        rehash(c);
        mask = c->n_slots - 1;
        i = (size_t)(hash ^ (hash >> 29)) & mask;
    }
    while (c->slots[i].used == 1)
        i = (i + 1) & mask;
    if (c->slots[i].used == 2)
        c->tombs--;
    c->slots[i].hash = hash;
    c->slots[i].used = 1;
    push_front(c, (uint32_t)i);
    c->size++;
}

size_t replay_prefix_cache_use(struct replay_prefix_cache *c,
                               const uint64_t *hashes, size_t n)
{
    size_t hit = 0, k;
    while (hit < n && find(c, hashes[hit]) != NIL)
        hit++;
    for (k = 0; k < n; k++) {
        uint32_t i = find(c, hashes[k]);
        if (i != NIL) {
            unlink_slot(c, i);
            push_front(c, i);
        } else {
            insert(c, hashes[k]);
        }
    }
    return hit;
}

size_t replay_prefix_cache_size(const struct replay_prefix_cache *c)
{
    return c->size;
}

void replay_prefix_cache_free(struct replay_prefix_cache *c)
{
    if (!c)
        return;
    free(c->slots);
    free(c);
}

struct replay_prefix_cache *
replay_prefix_caches_get(struct replay_prefix_caches *set, const char *model,
                         size_t capacity_blocks)
{
    size_t i;
    for (i = 0; i < set->n; i++)
        if (strcmp(set->m[i].model, model) == 0)
            return set->m[i].cache;
    if (set->n == REPLAY_PREFIX_CACHE_MODELS)
        return NULL;
    set->m[i].model = strdup(model);
    set->m[i].cache = replay_prefix_cache_new(capacity_blocks);
    if (!set->m[i].model || !set->m[i].cache) {
        free(set->m[i].model);
        replay_prefix_cache_free(set->m[i].cache);
        return NULL;
    }
    set->n++;
    return set->m[i].cache;
}

void replay_prefix_caches_free(struct replay_prefix_caches *set)
{
    for (size_t i = 0; i < set->n; i++) {
        free(set->m[i].model);
        replay_prefix_cache_free(set->m[i].cache);
    }
    set->n = 0;
}
