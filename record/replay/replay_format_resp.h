/* replay_format_resp: the OpenAI Responses API's stream events
 * (POST /v1/responses, "stream": true): response.created and
 * response.in_progress, an output item per part of the reply (a
 * "reasoning" item whose text goes out as
 * response.reasoning_summary_text.delta, then a "message" item with
 * response.output_text.delta), their *.done events, and
 * response.completed (response.incomplete at max_output_tokens) with
 * usage; response.failed for the fault of that name. Each event is
 * "event: TYPE" plus its JSON with the same "type" and a running
 * "sequence_number" (f->seq, advanced here). Every function appends whole
 * events and returns a buf error code. */
#ifndef TT_REPLAY_FORMAT_RESP_H
#define TT_REPLAY_FORMAT_RESP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "replay_format.h"

/* response.created and response.in_progress (status "in_progress", no
 * usage yet). */
int replay_fmt_resp_created(struct buf *b, struct replay_fmt *f);

/* response.output_item.added for output item index (a reasoning item, or
 * a message item followed by its response.content_part.added). */
int replay_fmt_resp_item_added(struct buf *b, struct replay_fmt *f, int index,
                               bool reasoning);

/* One delta event of vocabulary tokens [from, to) in item index:
 * response.reasoning_summary_text.delta or response.output_text.delta. */
int replay_fmt_resp_delta(struct buf *b, struct replay_fmt *f, int index,
                          bool reasoning, size_t from, size_t to);

/* One response.output_text.delta carrying text (escaped here). */
int replay_fmt_resp_text(struct buf *b, struct replay_fmt *f, int index,
                         const char *text);

/* The end of item index, whose text was tokens [from, to): the *.done
 * event with the whole text, then response.output_item.done (a message
 * item also gets response.content_part.done). */
int replay_fmt_resp_item_done(struct buf *b, struct replay_fmt *f, int index,
                              bool reasoning, size_t from, size_t to);

/* Token counts of response.completed's usage. */
struct replay_resp_usage {
    int64_t input, output, reasoning, cached;
};

/* response.completed, or response.incomplete (incomplete_details.reason
 * "max_output_tokens") when incomplete; usage NULL sends "usage": null. */
int replay_fmt_resp_end(struct buf *b, struct replay_fmt *f, bool incomplete,
                        const struct replay_resp_usage *usage);

/* response.failed: status "failed" and response.error {code, message}
 * (message escaped here). */
int replay_fmt_resp_failed(struct buf *b, struct replay_fmt *f,
                           const char *message);

/* The response object's members after its "id" for a non-streamed reply:
 * "object" to "usage", the output a reasoning item (when h > 0) and a
 * message with tokens [h, n). */
int replay_body_resp_full(struct buf *b, const struct replay_fmt *f, size_t n,
                          size_t h, const char *finish,
                          const struct replay_resp_usage *usage);

#endif
