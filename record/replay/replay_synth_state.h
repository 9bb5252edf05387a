/* replay_synth_state: the state of one synthetic reply, shared by the
 * producer entry points (replay_synth_stream.c) and the event-stream state
 * machine (replay_synth_sse.c). Internal to the synthetic producer. */
#ifndef TT_REPLAY_SYNTH_STATE_H
#define TT_REPLAY_SYNTH_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "replay_faults.h"
#include "replay_format.h"
#include "replay_steps.h"
#include "replay_synth_stream.h"

enum synth_mode {
    MODE_SSE,          /* a normal (possibly faulty) event stream */
    MODE_FULL,         /* one complete JSON reply after the generation */
    MODE_ERROR,        /* an HTTP error status with error JSON */
    MODE_HTML,         /* 200 text/html */
    MODE_SILENT,       /* accept-no-answer */
    MODE_HEADERS_ONLY, /* 200 + SSE headers, then nothing */
    MODE_ENDLESS,      /* "data: " then an endless line */
};

enum synth_phase {
    PH_HEAD,      /* headers and preamble events at arrival */
    PH_KEEPALIVE, /* comments until the first token */
    PH_TOKENS,
    PH_FINISH,
    PH_OVER, /* everything handed out */
};

struct synth_stream {
    struct replay_fmt fmt;
    char model[REPLAY_MODEL_MAX]; /* as requested, for error texts */
    enum synth_mode mode;
    enum synth_phase phase;
    replay_fault_set faults;
    enum replay_fault terminator; /* FAULT_COUNT: none */
    int error_status;
    bool include_usage;
    int64_t arrival_ns, first_ns, tpot_ns;
    double jitter;
    uint64_t rng;   /* rng.h state of the jitter */
    size_t n, h, k; /* tokens, reasoning tokens, tokens per chunk */
    int64_t prompt_tokens;
    const char *finish; /* "length" or "stop" */
    size_t tok;         /* next token to send */
    size_t chunks_sent, fault_after;
    bool have_next; /* next_end/next_due computed */
    size_t next_end;
    int64_t next_due, last_due, next_keepalive;
    int64_t keepalive_ns; /* comment interval before the first token, 0 off */
    int block;            /* Anthropic content block index */
    bool role_sent;
    char leak[SYNTH_LEAK_MAX]; /* leaky-body: the credential, "" when off */
    char leak_path[SYNTH_LEAK_MAX]; /* and the request's path */
    bool leak_sent;                 /* the token text echoing it went out */
};

/* Appends the steps of the next moment of an event stream (MODE_SSE).
 * Returns 0 or -1 (out of memory / queue full). */
int synth_refill_sse(struct synth_stream *s, struct replay_steps *q);

#endif
