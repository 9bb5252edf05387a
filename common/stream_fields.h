/* stream_fields: reading the members of one event's JSON for
 * stream_events.c's cJSON path. Not for use outside stream_events.c. */
#ifndef TT_COMMON_STREAM_FIELDS_H
#define TT_COMMON_STREAM_FIELDS_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

#include "stream_events.h"

/* Returns a JSON member that is a non-empty string, else NULL. */
const char *stream_fields_text(const cJSON *obj, const char *key);

/* Stores a JSON member that is a non-negative whole number into *out. */
void stream_fields_count(const cJSON *obj, const char *key, int64_t *out);

/* Returns true when a JSON member is the given string. */
bool stream_fields_is(const cJSON *obj, const char *key, const char *want);

/* llama.cpp's "timings" object (its last chunk): the server's own view of
 * the request. The last one seen wins. */
void stream_fields_llama_timings(struct stream_state *s, int64_t t_ns,
                                 const cJSON *t);

/* Anthropic's prompt-cache counts of a usage object (NULL-safe). */
void stream_fields_anthropic_cache(struct stream_state *s, const cJSON *u);

/* The text piece of a Responses API *.delta event, by its type. Returns
 * false when the type carries no generated text. */
bool stream_fields_responses_piece(const char *type, bool *reasoning,
                                   bool *tool);

#endif
