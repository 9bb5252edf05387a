/* replay_faults: the --fault KIND[:FRACTION][@MODEL] rules and picking the
 * faults that apply to one request. */
#ifndef TT_REPLAY_FAULTS_H
#define TT_REPLAY_FAULTS_H

#include <stddef.h>
#include <stdint.h>

enum replay_fault {
    FAULT_HTTP_401 = 0,
    FAULT_HTTP_403,
    FAULT_HTTP_404,
    FAULT_HTTP_429,
    FAULT_HTTP_500,
    FAULT_HTML,
    FAULT_NO_STREAM,
    FAULT_RESET_MID_STREAM,
    FAULT_STALL,
    FAULT_SPLIT_UTF8,
    FAULT_CRLF,
    FAULT_ROLE_FIRST,
    FAULT_MULTI_TOKEN_CHUNKS,
    FAULT_REASONING,
    FAULT_KEEPALIVE,
    FAULT_ERROR_MID_STREAM,
    FAULT_NO_USAGE,
    FAULT_ACCEPT_NO_ANSWER,
    FAULT_HEADERS_ONLY,
    FAULT_ENDLESS_LINE,
    FAULT_DATA_NOSPACE,
    FAULT_LEAKY_HEADERS,
    FAULT_LEAKY_BODY,
    FAULT_SSE_AS_JSON,
    FAULT_ERROR_FIELD,
    FAULT_ERROR_FIRST,
    FAULT_ERROR_OBJECT,
    FAULT_NO_TOKENS,
    FAULT_LLAMA_TIMINGS,   /* not a fault: llama.cpp's "timings" object */
    FAULT_RESPONSE_FAILED, /* Responses API: response.failed mid-stream */
    FAULT_COUNT
};

/* A set of faults, one bit per enum replay_fault (64 bits: 29 kinds used
 * when it was widened from 32). */
typedef uint64_t replay_fault_set;
#define FAULT_BIT(k) ((replay_fault_set)1 << (k))
#define FAULT_HAS(set, k) (((set)&FAULT_BIT(k)) != 0)
_Static_assert(FAULT_COUNT <= 64, "replay_fault_set holds 64 kinds");

#define REPLAY_MAX_FAULTS 32
#define REPLAY_FAULT_MODEL_MAX 128

struct replay_fault_rule {
    enum replay_fault kind;
    double fraction;                    /* 1.0 = every request */
    char model[REPLAY_FAULT_MODEL_MAX]; /* "" = every model */
};

/* Parses "KIND[:FRACTION][@MODEL]". Returns 0, or -1 with a one-line
 * reason in err. */
int replay_fault_parse(const char *text, struct replay_fault_rule *out,
                       char *err, size_t errlen);

/* Returns the kind's name ("http-429"). */
const char *replay_fault_name(enum replay_fault kind);

/* Decides which rules fire for a request of model. Rules with a fraction
 * below 1 draw from *rng (rng.h state), in rule order, so a seeded run
 * repeats. */
replay_fault_set replay_faults_pick(const struct replay_fault_rule *rules,
                                    size_t n_rules, const char *model,
                                    uint64_t *rng);

#endif
