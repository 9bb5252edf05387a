/* replay_synth_stream: the producer of synthetic replies. It turns a timing
 * profile, a parsed request and the request's faults into timed steps:
 * token i is due at arrival + TTFT + i*TPOT (+ seeded jitter), on an
 * absolute schedule, never accumulated sleeps. */
#ifndef TT_REPLAY_SYNTH_STREAM_H
#define TT_REPLAY_SYNTH_STREAM_H

#include <stdbool.h>
#include <stdint.h>

#include "replay_faults.h"
#include "replay_request.h"
#include "replay_stream.h"
#include "replay_synth_spec.h"

/* Gap between the two halves of a split-utf8 token write. */
#define SYNTH_SPLIT_GAP_NS 3000000LL
/* Interval of keepalive comments before the first token. */
#define SYNTH_KEEPALIVE_NS 200000000LL
/* Interval and size of endless-line writes. */
#define SYNTH_ENDLESS_NS 10000000LL
#define SYNTH_ENDLESS_BYTES 65536
/* Token chunks sent before reset-mid-stream / stall / error-mid-stream. */
#define SYNTH_FAULT_AFTER_CHUNKS 3
/* tokens_per_chunk forced by multi-token-chunks. */
#define SYNTH_MULTI_TOKENS 4
/* Longest credential text leaky-body echoes (longer ones are cut). */
#define SYNTH_LEAK_MAX 512
/* An error message quoting the credential and the path. */
#define SYNTH_LEAK_MSG_MAX (2 * SYNTH_LEAK_MAX + 128)

extern const struct replay_producer replay_synth_producer;

/* What leaky-body echoes of a request (borrowed). */
struct synth_leak {
    const char *credential; /* as sent: "Bearer K" (Authorization) or "K" */
    const char *path;       /* the request's path, "/.../v1/..." */
};

/* Creates the producer state for one request (rr: the server's request
 * number, also in ids; seed: --seed; leak: for leaky-body, NULL when that
 * fault is off). Returns 0 or ENOMEM. */
int replay_synth_stream_new(const struct replay_req_info *req,
                            const struct synth_profile *profile,
                            replay_fault_set faults, uint64_t rr, uint64_t seed,
                            int64_t arrival_ns, const struct synth_leak *leak,
                            void **out);

/* Output tokens for a request: min(profile tokens, max_tokens if given),
 * at least min_tokens (vLLM's: no end of sequence before it; -1 none),
 * never above max_tokens. */
int64_t replay_synth_output_tokens(const struct synth_profile *profile,
                                   int64_t max_tokens, int64_t min_tokens);

#endif
