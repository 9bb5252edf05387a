/* replay_synth_stream: the synthetic producer: picks the reply shape from
 * the faults, and serves the shapes that are not an event stream. */
#include "replay_synth_stream.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay_bodies.h"
#include "replay_synth_state.h"
#include "rng.h"

int64_t replay_synth_output_tokens(const struct synth_profile *profile,
                                   int64_t max_tokens, int64_t min_tokens)
{
    int64_t n = profile->tokens;
    if (min_tokens > n)
        n = min_tokens;
    if (max_tokens > 0 && max_tokens < n)
        n = max_tokens;
    return n;
}

/* a / b rounded up. */
static size_t div_up(size_t a, size_t b)
{
    return (a + b - 1) / b;
}

/* Picks the reply shape from the faults; the first matching wins. */
static void pick_mode(struct synth_stream *s, bool stream)
{
    static const struct {
        enum replay_fault f;
        int status;
    } errors[] = {{FAULT_HTTP_401, 401},
                  {FAULT_HTTP_403, 403},
                  {FAULT_HTTP_404, 404},
                  {FAULT_HTTP_429, 429},
                  {FAULT_HTTP_500, 500}};
    static const enum replay_fault terminators[] = {
        FAULT_RESET_MID_STREAM, FAULT_STALL,       FAULT_ERROR_MID_STREAM,
        FAULT_ERROR_FIELD,      FAULT_ERROR_FIRST, FAULT_ERROR_OBJECT,
        FAULT_RESPONSE_FAILED};
    size_t i;

    s->terminator = FAULT_COUNT;
    for (i = 0; i < sizeof(terminators) / sizeof(terminators[0]); i++) {
        if (FAULT_HAS(s->faults, terminators[i])) {
            s->terminator = terminators[i];
            break;
        }
    }
    if (FAULT_HAS(s->faults, FAULT_ACCEPT_NO_ANSWER)) {
        s->mode = MODE_SILENT;
        return;
    }
    for (i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
        if (FAULT_HAS(s->faults, errors[i].f)) {
            s->mode = MODE_ERROR;
            s->error_status = errors[i].status;
            return;
        }
    }
    if (FAULT_HAS(s->faults, FAULT_HTML))
        s->mode = MODE_HTML;
    else if (FAULT_HAS(s->faults, FAULT_HEADERS_ONLY))
        s->mode = MODE_HEADERS_ONLY;
    else if (FAULT_HAS(s->faults, FAULT_ENDLESS_LINE))
        s->mode = MODE_ENDLESS;
    else if (!stream || FAULT_HAS(s->faults, FAULT_NO_STREAM))
        s->mode = MODE_FULL;
    else
        s->mode = MODE_SSE;
}

/* The input tokens the model must prefill: those not found cached. */
static int64_t uncached_tokens(const struct replay_req_info *req)
{
    return req->cached_tokens > 0 ? req->input_tokens - req->cached_tokens
                                  : req->input_tokens;
}

int replay_synth_stream_new(const struct replay_req_info *req,
                            const struct synth_profile *profile,
                            replay_fault_set faults, uint64_t rr, uint64_t seed,
                            int64_t arrival_ns, const struct synth_leak *leak,
                            void **out)
{
    struct synth_stream *s = calloc(1, sizeof(*s));
    size_t chunks;

    if (s == NULL)
        return ENOMEM;
    s->faults = faults;
    memcpy(s->model, req->model, sizeof(s->model));
    replay_fmt_init(&s->fmt, req->api, FAULT_HAS(faults, FAULT_CRLF),
                    FAULT_HAS(faults, FAULT_SPLIT_UTF8), rr, req->model);
    pick_mode(s, req->stream);
    s->include_usage = req->include_usage && !FAULT_HAS(faults, FAULT_NO_USAGE);
    s->arrival_ns = arrival_ns;
    /* cached input tokens need no prefill (--synthetic cache=N) */
    s->first_ns = arrival_ns + profile->ttft_ns +
                  profile->ttft_per_1k_ns * uncached_tokens(req) / 1000;
    if (profile->align_ns > 0) /* the next step of the shared grid */
        s->first_ns = (s->first_ns + profile->align_ns - 1) /
                      profile->align_ns * profile->align_ns;
    s->tpot_ns = profile->tpot_ns;
    s->jitter = profile->jitter;
    s->rng = rng_mix(seed, rr);
    s->n = FAULT_HAS(faults, FAULT_NO_TOKENS)
               ? 0
               : (size_t)replay_synth_output_tokens(profile, req->max_tokens,
                                                    req->min_tokens);
    s->h = FAULT_HAS(faults, FAULT_REASONING) ? s->n / 2 : 0;
    s->k = FAULT_HAS(faults, FAULT_MULTI_TOKEN_CHUNKS)
               ? SYNTH_MULTI_TOKENS
               : (size_t)profile->tokens_per_chunk;
    s->prompt_tokens = req->input_tokens;
    s->fmt.cached_tokens = req->cached_tokens; /* -1: no cache */
    s->finish = req->max_tokens > 0 && (int64_t)s->n == req->max_tokens
                    ? "length"
                    : "stop";
    chunks = div_up(s->h, s->k) + div_up(s->n - s->h, s->k);
    s->fault_after = chunks == 0 || s->terminator == FAULT_ERROR_FIRST ? 0
                     : chunks - 1 < SYNTH_FAULT_AFTER_CHUNKS
                         ? chunks - 1
                         : SYNTH_FAULT_AFTER_CHUNKS;
    s->keepalive_ns = profile->keepalive_ns > 0 ? profile->keepalive_ns
                      : FAULT_HAS(faults, FAULT_KEEPALIVE) ? SYNTH_KEEPALIVE_NS
                                                           : 0;
    s->next_keepalive = arrival_ns + s->keepalive_ns;
    s->fmt.nospace = FAULT_HAS(faults, FAULT_DATA_NOSPACE);
    if (leak != NULL && FAULT_HAS(faults, FAULT_LEAKY_BODY)) {
        snprintf(s->leak, sizeof(s->leak), "%s", leak->credential);
        snprintf(s->leak_path, sizeof(s->leak_path), "%s", leak->path);
    }
    *out = s;
    return 0;
}

/* leaky-body: the error message that echoes the credential and the
 * route, in m; NULL (the usual text) when the fault is off. */
static const char *leak_message(const struct synth_stream *s,
                                char m[SYNTH_LEAK_MSG_MAX])
{
    if (s->leak[0] == '\0')
        return NULL;
    snprintf(m, SYNTH_LEAK_MSG_MAX, "Incorrect API key provided: %s (POST %s)",
             s->leak, s->leak_path);
    return m;
}

/* Adds a whole reply whose body was appended since mark (429 gets
 * Retry-After: 2). Returns 0 or -1. */
static int add_reply(struct replay_steps *q, int64_t due, size_t mark,
                     int status, const char *ctype)
{
    struct replay_step *st = replay_steps_add(q, STEP_REPLY, due, mark);
    if (st == NULL)
        return -1;
    st->status = status;
    st->content_type = ctype;
    if (status == 429) {
        st->header_name = "Retry-After";
        st->header_value = "2";
    }
    return 0;
}

/* The whole non-streamed reply, when the generation would be over. */
static int refill_full(struct synth_stream *s, struct replay_steps *q)
{
    int64_t done = s->first_ns + ((int64_t)s->n - 1) * s->tpot_ns;
    size_t mark = q->bytes.len;
    char m[SYNTH_LEAK_MSG_MAX];
    int rc;

    s->phase = PH_OVER;
    if (s->terminator == FAULT_RESET_MID_STREAM)
        return replay_steps_bare(q, STEP_RESET, s->first_ns);
    if (s->terminator == FAULT_STALL)
        return replay_steps_bare(q, STEP_HOLD, s->arrival_ns);
    if (s->terminator == FAULT_ERROR_MID_STREAM ||
        s->terminator == FAULT_ERROR_FIELD ||
        s->terminator == FAULT_ERROR_FIRST ||
        s->terminator == FAULT_ERROR_OBJECT) {
        rc = replay_body_error(&q->bytes, s->fmt.api, 500, leak_message(s, m),
                               NULL);
        return rc ? -1
                  : add_reply(q, s->first_ns, mark, 500, "application/json");
    }
    rc = replay_body_full(&q->bytes, &s->fmt, s->n, s->h, s->prompt_tokens,
                          s->finish, !FAULT_HAS(s->faults, FAULT_NO_USAGE));
    return rc ? -1 : add_reply(q, done, mark, 200, "application/json");
}

/* "data: " and then 64 KiB of line every 10 ms, until the client leaves. */
static int refill_endless(struct synth_stream *s, struct replay_steps *q)
{
    size_t mark = q->bytes.len;
    struct replay_step *st;
    char fill[1024];
    int i;

    if (s->phase == PH_HEAD) {
        s->phase = PH_TOKENS;
        s->next_keepalive = s->arrival_ns;
        if (replay_steps_start(q, s->arrival_ns, 200, "text/event-stream") !=
                0 ||
            buf_puts(&q->bytes, "data: ") != BUF_OK)
            return -1;
        return replay_steps_send(q, s->arrival_ns, mark);
    }
    s->next_keepalive += SYNTH_ENDLESS_NS;
    memset(fill, 'x', sizeof(fill));
    for (i = 0; i < SYNTH_ENDLESS_BYTES / (int)sizeof(fill); i++) {
        if (buf_append(&q->bytes, fill, sizeof(fill)) != BUF_OK)
            return -1;
    }
    st = replay_steps_add(q, STEP_SEND, s->next_keepalive, mark);
    if (st == NULL)
        return -1;
    st->droppable = true;
    return 0;
}

/* Producer entry point: appends the next steps of s. */
static int synth_refill(void *state, struct replay_steps *q)
{
    struct synth_stream *s = state;
    size_t mark = q->bytes.len;
    char m[SYNTH_LEAK_MSG_MAX];
    int rc = 0;

    switch (s->mode) {
    case MODE_SSE:
        return synth_refill_sse(s, q);
    case MODE_FULL:
        if (s->phase == PH_OVER)
            break;
        return refill_full(s, q);
    case MODE_ENDLESS:
        return refill_endless(s, q);
    case MODE_HEADERS_ONLY:
        if (s->phase == PH_OVER)
            break;
        s->phase = PH_OVER;
        if (replay_steps_start(q, s->arrival_ns, 200, "text/event-stream") != 0)
            return -1;
        break;
    case MODE_ERROR:
        if (s->phase == PH_OVER)
            break;
        s->phase = PH_OVER;
        rc = replay_body_error(&q->bytes, s->fmt.api, s->error_status,
                               leak_message(s, m), s->model);
        return rc ? -1
                  : add_reply(q, s->arrival_ns, mark, s->error_status,
                              "application/json");
    case MODE_HTML:
        if (s->phase == PH_OVER)
            break;
        s->phase = PH_OVER;
        return replay_body_html(&q->bytes)
                   ? -1
                   : add_reply(q, s->arrival_ns, mark, 200,
                               "text/html; "
                               "charset=utf-8");
    case MODE_SILENT:
        break;
    }
    return replay_steps_bare(q, STEP_HOLD, s->arrival_ns);
}

/* Producer entry point: frees the state. */
static void synth_free(void *state)
{
    free(state);
}

const struct replay_producer replay_synth_producer = {
    .refill = synth_refill,
    .free = synth_free,
};
