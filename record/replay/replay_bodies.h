/* replay_bodies: whole (non-streamed) response bodies: complete replies,
 * error JSON in the style of each API, and the html fault page. */
#ifndef TT_REPLAY_BODIES_H
#define TT_REPLAY_BODIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "replay_format.h"
#include "replay_request.h"

/* A complete reply of n tokens, the first n_reasoning of them as
 * reasoning. Returns a buf error code. */
int replay_body_full(struct buf *b, const struct replay_fmt *f, size_t n,
                     size_t n_reasoning, int64_t prompt_tokens,
                     const char *finish_reason, bool with_usage);

/* An error body for HTTP status (400, 401, 403, 404, 405, 429, 500...).
 * OpenAI shape {"error":{message,type,param,code}}; on the messages API the
 * Anthropic shape {"type":"error","error":{type,message}}. message NULL
 * picks the usual text for the status; model names the 404 model (NULL:
 * a 404 for an unknown path, code unknown_url). */
int replay_body_error(struct buf *b, enum api_kind api, int status,
                      const char *message, const char *model);

/* The html fault page (a website instead of an API). */
int replay_body_html(struct buf *b);

#endif
