/* replay_format_ref: the pre-rewrite replay_format functions (reference
 * for replay_format_test). Same contracts as replay_format.h. */
#ifndef TT_REPLAY_FORMAT_REF_H
#define TT_REPLAY_FORMAT_REF_H

#include "replay_format.h"

int ref_fmt_keepalive(struct buf *b, const struct replay_fmt *f);
int ref_fmt_role(struct buf *b, const struct replay_fmt *f);
int ref_fmt_tokens(struct buf *b, const struct replay_fmt *f, bool first,
                   bool role_sent, bool reasoning, int block, size_t from,
                   size_t to);
int ref_fmt_finish(struct buf *b, const struct replay_fmt *f,
                   const char *finish_reason);
int ref_fmt_usage(struct buf *b, const struct replay_fmt *f,
                  int64_t prompt_tokens, int64_t completion_tokens);
int ref_fmt_done(struct buf *b, const struct replay_fmt *f);
int ref_fmt_error_event(struct buf *b, const struct replay_fmt *f);
int ref_fmt_msg_start(struct buf *b, const struct replay_fmt *f,
                      int64_t input_tokens, bool with_usage);
int ref_fmt_block_start(struct buf *b, const struct replay_fmt *f, int block,
                        bool thinking);
int ref_fmt_ping(struct buf *b, const struct replay_fmt *f);
int ref_fmt_block_stop(struct buf *b, const struct replay_fmt *f, int block);
int ref_fmt_msg_delta(struct buf *b, const struct replay_fmt *f,
                      const char *stop_reason, int64_t output_tokens,
                      bool with_usage);
int ref_fmt_msg_stop(struct buf *b, const struct replay_fmt *f);

#endif
