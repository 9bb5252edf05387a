/* replay_format: builds the bytes of SSE events per API kind (OpenAI chat,
 * OpenAI completions, Anthropic messages; the Responses API's own events
 * are in replay_format_resp.h). Every function appends one whole
 * SSE event to b and returns a buf error code (BUF_OK on success). */
#ifndef TT_REPLAY_FORMAT_H
#define TT_REPLAY_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "replay_request.h"

/* What every event of one stream shares. */
struct replay_fmt {
    enum api_kind api;
    bool crlf;         /* "\r\n" line ends instead of "\n" */
    bool utf8;         /* multibyte vocabulary (split-utf8 fault) */
    bool nospace;      /* "data:{...}" without the space (data-nospace) */
    char id[48];       /* chatcmpl-rr-N, cmpl-rr-N or msg_rr_N */
    long long created; /* Unix seconds at arrival */
    char model_json[REPLAY_MODEL_MAX * 6]; /* escaped, without quotes */
    size_t model_len;                      /* strlen(model_json) */
    /* A chat/completions chunk object up to the model's value:
     * {"id":"…","object":"…","created":…,"model":" (built once, copied
     * into every event). */
    char chunk_pre[160];
    size_t chunk_pre_len;
    /* Input tokens found in the prefix cache (--synthetic cache=N), shown
     * in usage; -1 (set by replay_fmt_init): no cache, not shown. */
    int64_t cached_tokens;
    unsigned seq; /* Responses API: the next event's sequence_number */
};

/* Fills f for request number rr of api and model (borrowed). */
void replay_fmt_init(struct replay_fmt *f, enum api_kind api, bool crlf,
                     bool utf8, uint64_t rr, const char *model);

/* The cache members of a usage object, when f has a cache: OpenAI's
 * ,"prompt_tokens_details":{"cached_tokens":N} (anthropic false), or
 * Anthropic's ,"cache_read_input_tokens":N,"cache_creation_input_tokens":0
 * (anthropic true). Appends nothing without one. */
int replay_fmt_cache_usage(struct buf *b, const struct replay_fmt *f,
                           bool anthropic);

/* Starts an event: the "event: NAME" line when name is not NULL, then
 * "data: " (f's spacing and line ends). */
int replay_fmt_event_begin(struct buf *b, const struct replay_fmt *f,
                           const char *name);

/* Ends an event with its line end and the blank line. */
int replay_fmt_event_end(struct buf *b, const struct replay_fmt *f);

/* ": keep-alive" comment. */
int replay_fmt_keepalive(struct buf *b, const struct replay_fmt *f);

/* Chat: a role-only delta with content "". Completions: text "". */
int replay_fmt_role(struct buf *b, const struct replay_fmt *f);

/* Tokens [from, to) as one event. first: the stream's first token event
 * (chat puts role "assistant" in it unless role_sent). reasoning: as
 * reasoning_content (chat) / thinking_delta (messages). block: the
 * Anthropic content block index. */
int replay_fmt_tokens(struct buf *b, const struct replay_fmt *f, bool first,
                      bool role_sent, bool reasoning, int block, size_t from,
                      size_t to);

/* Chat/completions: the finish chunk (empty delta / text ""). */
int replay_fmt_finish(struct buf *b, const struct replay_fmt *f,
                      const char *finish_reason);

/* Chat/completions: "choices":[] with usage. */
int replay_fmt_usage(struct buf *b, const struct replay_fmt *f,
                     int64_t prompt_tokens, int64_t completion_tokens);

/* llama.cpp's server timings of one request, ms. */
struct replay_llama_timings {
    int64_t prompt_n, predicted_n;
    double prompt_ms, predicted_ms;
};

/* Chat/completions: llama.cpp's last chunk, "choices":[] with its
 * "timings" object (prompt_n, prompt_ms, predicted_n, predicted_ms and
 * their per-token and per-second values), and usage when with_usage. */
int replay_fmt_llama_timings(struct buf *b, const struct replay_fmt *f,
                             const struct replay_llama_timings *t,
                             bool with_usage, int64_t prompt_tokens,
                             int64_t completion_tokens);

/* "data: [DONE]". */
int replay_fmt_done(struct buf *b, const struct replay_fmt *f);

/* An in-band error event (OpenAI data: {"error":...}; Anthropic
 * event: error; Responses API event: error {"type":"error","code",
 * "message"}). */
int replay_fmt_error_event(struct buf *b, const struct replay_fmt *f);

/* llama.cpp's in-stream error: an "error: " field line (not data) with a
 * bare error object {"code":code,"message":message,"type":type}, and the
 * blank line. Returns a buf error code. */
int replay_fmt_error_field(struct buf *b, const struct replay_fmt *f, int code,
                           const char *message, const char *type);

/* An error sent as a bare object in a data event, as vLLM's ErrorResponse
 * ({"object":"error","message":..,"type":..,"param":null,"code":..}).
 * Returns a buf error code. */
int replay_fmt_error_object(struct buf *b, const struct replay_fmt *f,
                            const char *message);

/* The same error event with message (escaped here) as its message. */
int replay_fmt_error_text(struct buf *b, const struct replay_fmt *f,
                          const char *message);

/* One answer event carrying text (escaped here) instead of vocabulary
 * tokens: chat delta.content, completions text, Anthropic text_delta in
 * block. first and role_sent as for replay_fmt_tokens. */
int replay_fmt_text(struct buf *b, const struct replay_fmt *f, bool first,
                    bool role_sent, int block, const char *text);

/* Anthropic events. with_usage false leaves usage out (no-usage fault). */
int replay_fmt_msg_start(struct buf *b, const struct replay_fmt *f,
                         int64_t input_tokens, bool with_usage);
int replay_fmt_block_start(struct buf *b, const struct replay_fmt *f, int block,
                           bool thinking);
int replay_fmt_ping(struct buf *b, const struct replay_fmt *f);
int replay_fmt_block_stop(struct buf *b, const struct replay_fmt *f, int block);
int replay_fmt_msg_delta(struct buf *b, const struct replay_fmt *f,
                         const char *stop_reason, int64_t output_tokens,
                         bool with_usage);
int replay_fmt_msg_stop(struct buf *b, const struct replay_fmt *f);

#endif
