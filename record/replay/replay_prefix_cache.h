/* replay_prefix_cache: one model's prefix cache in the synthetic server
 * (--synthetic cache=N): the block hashes (replay_prefix.h) of the
 * prompts it served, at most N tokens' worth, least recently used
 * evicted first. A request finds the longest run of its first blocks
 * that is cached (those tokens need no prefill), then all its blocks are
 * cached (and the most recently used). */
#ifndef TT_REPLAY_PREFIX_CACHE_H
#define TT_REPLAY_PREFIX_CACHE_H

#include <stddef.h>
#include <stdint.h>

struct replay_prefix_cache;

/* A cache of capacity_blocks blocks (at least 1). NULL out of memory. */
struct replay_prefix_cache *replay_prefix_cache_new(size_t capacity_blocks);

/* The number of leading blocks of hashes[0..n) found cached; then every
 * block of it is cached (evicting the least recently used beyond the
 * capacity). Cannot fail. */
size_t replay_prefix_cache_use(struct replay_prefix_cache *c,
                               const uint64_t *hashes, size_t n);

/* Blocks held now. */
size_t replay_prefix_cache_size(const struct replay_prefix_cache *c);

/* Frees the cache. NULL-safe. */
void replay_prefix_cache_free(struct replay_prefix_cache *c);

/* The caches of a server, one per model name (created on first use). */
#define REPLAY_PREFIX_CACHE_MODELS 256

struct replay_prefix_caches {
    struct {
        char *model; /* owned */
        struct replay_prefix_cache *cache;
    } m[REPLAY_PREFIX_CACHE_MODELS];
    size_t n;
};

/* The cache of model in set (made with capacity_blocks when new). NULL
 * out of memory or when REPLAY_PREFIX_CACHE_MODELS models have one. */
struct replay_prefix_cache *
replay_prefix_caches_get(struct replay_prefix_caches *set, const char *model,
                         size_t capacity_blocks);

/* Frees every cache of set. */
void replay_prefix_caches_free(struct replay_prefix_caches *set);

#endif
