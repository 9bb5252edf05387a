/* replay_synth_spec: the --synthetic SPEC (timing profiles per model).
 *
 * SPEC is one or more profiles separated by ';'. A profile is a
 * comma-separated list of key=value. A profile that starts with model=NAME
 * applies only to that model and inherits every key it does not set from the
 * default profile (the one without model=), which itself starts from the
 * built-in defaults below. */
#ifndef TT_REPLAY_SYNTH_SPEC_H
#define TT_REPLAY_SYNTH_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SYNTH_MAX_MODELS 64
#define SYNTH_MODEL_MAX 128

/* Built-in defaults. */
#define SYNTH_DEFAULT_TTFT_NS 200000000LL /* 200 ms */
#define SYNTH_DEFAULT_TPOT_NS 20000000LL  /* 20 ms */
#define SYNTH_DEFAULT_TOKENS 128

/* Limits a profile must stay within. */
#define SYNTH_MAX_DURATION_NS 3600000000000LL /* 1 h */
#define SYNTH_MAX_TOKENS 1000000000
/* tokens x tpot (the whole generation) stays within 10^6 h, so every due
 * time fits the int64 nanosecond clock. */
#define SYNTH_MAX_GENERATION_NS (1000000LL * SYNTH_MAX_DURATION_NS)
#define SYNTH_MAX_TOKENS_PER_CHUNK 1024
#define SYNTH_MAX_CAPACITY 65536         /* REPLAY_CAPACITY_MAX */
#define SYNTH_MAX_CACHE_TOKENS 100000000 /* 10^8 tokens */

struct synth_profile {
    char model[SYNTH_MODEL_MAX]; /* "" for the default profile */
    int64_t ttft_ns;
    int64_t tpot_ns;
    int64_t ttft_per_1k_ns; /* extra TTFT per 1000 input tokens */
    int64_t tokens;         /* default output length */
    int64_t tokens_per_chunk;
    double jitter;         /* fraction of tpot, 0..1 */
    int64_t keepalive_ns;  /* ": keep-alive" interval before the first
                              token; 0: only with the keepalive fault */
    int64_t capacity;      /* streams decoding at once (replay_capacity.h);
                              0: unlimited */
    int64_t batch_tpot_ns; /* extra TPOT per other stream decoding */
    /* A prefix cache of this many tokens (replay_prefix_cache.h): the
     * input tokens found cached skip ttft_per_1k, and usage reports them;
     * 0: none. */
    int64_t cache_tokens;
    int64_t align_ns; /* first token on the next multiple of it (the
                         server's CLOCK_MONOTONIC): streams whose tpot
                         is a multiple send in phase, as a batching
                         server's steps; 0 off */
    /* count=words: usage's input tokens are the prompt's words and
     * punctuation plus a template's few a message (replay_request.h), not
     * characters / 4: a tokenizer of its own for calibration tests */
    bool count_words;
};

struct synth_spec {
    struct synth_profile def;
    struct synth_profile models[SYNTH_MAX_MODELS];
    size_t n_models;
};

#define SYNTH_OK 0
#define SYNTH_E_SYNTAX 1 /* details in the err text */

/* Fills *out with the built-in defaults and no model profiles. */
void synth_spec_defaults(struct synth_spec *out);

/* Parses text into *out. On failure returns SYNTH_E_SYNTAX and writes a
 * one-line reason into err (errlen bytes); *out is then unspecified. */
int synth_spec_parse(const char *text, struct synth_spec *out, char *err,
                     size_t errlen);

/* Parses a duration (common/duration.h: "80ms", "1.5s", "250us", "2m", or
 * "0"; a bare number other than 0 needs a unit) into nanoseconds. Returns 0,
 * or -1 when malformed or above 1 h. */
int synth_parse_duration(const char *s, int64_t *ns);

/* Returns the profile for model (its own profile or the default). */
const struct synth_profile *synth_spec_lookup(const struct synth_spec *spec,
                                              const char *model);

#endif
