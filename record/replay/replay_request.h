/* replay_request: what the replay server needs from a request body. */
#ifndef TT_REPLAY_REQUEST_H
#define TT_REPLAY_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api_kind.h"

#define REPLAY_MODEL_MAX 256
#define REPLAY_DEFAULT_MODEL "replay-model"

/* count=words: what the template adds, per message and per prompt. */
#define REPLAY_WORDS_PER_MESSAGE 4
#define REPLAY_WORDS_PER_PROMPT 3

struct replay_req_info {
    enum api_kind api;
    char model[REPLAY_MODEL_MAX]; /* REPLAY_DEFAULT_MODEL when absent */
    bool stream;
    bool include_usage;  /* stream_options.include_usage */
    int64_t max_tokens;  /* -1 when not given */
    int64_t input_chars; /* UTF-8 characters of all prompt text */
    /* input_chars / 4 (count=words: input_words), plus the images' */
    int64_t input_tokens;
    /* words and punctuation of the prompt text, plus the images' tokens */
    int64_t input_words;
    /* image parts in the messages (chat "image_url", Responses
     * "input_image", Anthropic "image"); each counts image_tokens_est of
     * its PNG's size (image_tokens.h), IMAGE_TOKENS_UNSIZED when its data
     * is not a base64 PNG */
    int64_t images;
    int64_t min_tokens; /* "min_tokens" (vLLM's), -1 when not given */
    /* Of them: found in the model's prefix cache (--synthetic cache=N;
     * set by the handler), -1 when it has none (as parsed). */
    int64_t cached_tokens;
};

/* Parses a JSON request body for api. Returns 0, or -1 with a one-line
 * reason in err (malformed JSON, wrong types, max_tokens < 1). */
int replay_request_parse(enum api_kind api, const char *body, size_t len,
                         struct replay_req_info *out, char *err, size_t errlen);

#endif
