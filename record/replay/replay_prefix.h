/* replay_prefix: a request's prompt as a chain of block hashes, the way a
 * server's prefix cache (vLLM's automatic prefix caching, SGLang's radix
 * cache) sees it: the prompt text in order (Anthropic's system, then each
 * message's role and content; completions' prompt), cut into blocks of
 * REPLAY_PREFIX_BLOCK_TOKENS tokens (4 bytes a token, the server's
 * estimate), each hash covering everything before it. Two prompts share
 * their first k hashes exactly when they share their first k blocks. */
#ifndef TT_REPLAY_PREFIX_H
#define TT_REPLAY_PREFIX_H

#include <stddef.h>
#include <stdint.h>

#include "api_kind.h"

#define REPLAY_PREFIX_BLOCK_TOKENS 16
#define REPLAY_PREFIX_BLOCK_BYTES (REPLAY_PREFIX_BLOCK_TOKENS * 4)

/* The hashes of the whole blocks of body's prompt (a partial last block
 * is not cacheable, as in vLLM): a malloc'd array in *out (NULL when
 * none) and its length in *n. Returns 0, or -1 (out of memory, or a body
 * that is not JSON: *out NULL, *n 0). */
int replay_prefix_blocks(enum api_kind api, const char *body, size_t len,
                         uint64_t **out, size_t *n);

#endif
