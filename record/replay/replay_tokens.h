/* replay_tokens: the deterministic words a synthetic stream generates. */
#ifndef TT_REPLAY_TOKENS_H
#define TT_REPLAY_TOKENS_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

/* Returns token i: one word and a trailing space. With utf8 the words each
 * contain a multibyte UTF-8 character ("héllo ", "世界 "). Static storage;
 * no character needs escaping inside a JSON string. */
const char *replay_token(size_t i, bool utf8);

/* Bytes of tokens [from, to) together. */
size_t replay_tokens_len(size_t from, size_t to, bool utf8);

/* Copies tokens [from, to) to dst (replay_tokens_len bytes, no NUL) and
 * returns the end of what it wrote. */
char *replay_tokens_copy(char *dst, size_t from, size_t to, bool utf8);

/* Appends tokens [from, to) to b. Returns a buf error code. */
int replay_tokens_append(struct buf *b, size_t from, size_t to, bool utf8);

#endif
