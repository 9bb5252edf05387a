/* replay_synth_sse: the synthetic event stream as a state machine: headers
 * and preamble at arrival, keepalives, token chunks on the absolute
 * schedule, early-ending faults, closing events. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay_format_resp.h"
#include "replay_synth_state.h"
#include "replay_synth_stream.h"
#include "rng.h"

/* Due time of token i on the absolute schedule. */
static int64_t token_due(struct synth_stream *s, size_t i)
{
    int64_t t = s->first_ns + (int64_t)i * s->tpot_ns;

    if (i > 0 && s->jitter > 0)
        t += (int64_t)llround((rng_unit(&s->rng) - 0.5) * s->jitter *
                              (double)s->tpot_ns);
    return t;
}

/* Computes the extent and due time of the next token chunk: reasoning and
 * answer tokens never share a chunk; a chunk leaves when its last token is
 * generated. */
static void prepare_next(struct synth_stream *s)
{
    size_t limit;

    if (s->have_next)
        return;
    if (s->n == 0) { /* no-tokens: the end is due when a first token was */
        s->next_end = 0;
        s->next_due = s->first_ns;
        s->have_next = true;
        return;
    }
    limit = s->tok < s->h ? s->h : s->n;
    s->next_end = s->tok + s->k < limit ? s->tok + s->k : limit;
    s->next_due = token_due(s, s->next_end - 1);
    s->have_next = true;
}

/* Headers and the events a stream sends on arrival. */
static int refill_head(struct synth_stream *s, struct replay_steps *q)
{
    struct buf *b = &q->bytes;
    int64_t t = s->arrival_ns;
    size_t mark;
    /* sse-as-json: the events as ever, under a header that says one JSON
     * reply (a misconfigured gateway) */
    int rc = replay_steps_start(q, t, 200,
                                FAULT_HAS(s->faults, FAULT_SSE_AS_JSON)
                                    ? "application/json"
                                    : "text/event-stream");

    if (rc == 0 && s->fmt.api == API_OPENAI_RESPONSES) {
        mark = b->len;
        rc = replay_fmt_resp_created(b, &s->fmt);
        rc = rc ? rc : replay_fmt_resp_item_added(b, &s->fmt, 0, s->h > 0);
        rc = rc ? rc : replay_steps_send(q, t, mark);
    } else if (rc == 0 && s->fmt.api == API_ANTHROPIC) {
        mark = b->len;
        rc = replay_fmt_msg_start(b, &s->fmt, s->prompt_tokens,
                                  !FAULT_HAS(s->faults, FAULT_NO_USAGE));
        rc = rc ? rc : replay_steps_send(q, t, mark);
        mark = b->len;
        rc = rc ? rc : replay_fmt_block_start(b, &s->fmt, 0, s->h > 0);
        rc = rc ? rc : replay_steps_send(q, t, mark);
        mark = b->len;
        rc = rc ? rc : replay_fmt_ping(b, &s->fmt);
        rc = rc ? rc : replay_steps_send(q, t, mark);
    } else if (rc == 0 && FAULT_HAS(s->faults, FAULT_ROLE_FIRST)) {
        mark = b->len;
        rc = replay_fmt_role(b, &s->fmt);
        rc = rc ? rc : replay_steps_send(q, t, mark);
        s->role_sent = true;
    }
    s->phase = s->keepalive_ns > 0 ? PH_KEEPALIVE : PH_TOKENS;
    return rc ? -1 : 0;
}

/* leaky-body: sends the bytes at [mark, end) as two writes
 * SYNTH_SPLIT_GAP_NS apart, split in the middle of the key inside them
 * (the part of s->leak after its last space), so a client sees the key
 * across two receives. One write when the key is not found. */
static int add_leak_send(const struct synth_stream *s, struct replay_steps *q,
                         int64_t due, size_t mark)
{
    const char *key = strrchr(s->leak, ' ');
    size_t len = q->bytes.len - mark, klen, i;
    struct replay_step *a, *b;

    key = key ? key + 1 : s->leak;
    klen = strlen(key);
    for (i = 0; klen >= 2 && i + klen <= len; i++) {
        if (memcmp(q->bytes.data + mark + i, key, klen) == 0)
            break;
    }
    if (klen < 2 || i + klen > len)
        return replay_steps_send(q, due, mark);
    a = replay_steps_add(q, STEP_SEND, due, mark);
    b = replay_steps_add(q, STEP_SEND, due + SYNTH_SPLIT_GAP_NS, mark);
    if (a == NULL || b == NULL)
        return -1;
    a->len = i + klen / 2;
    b->off = mark + a->len;
    b->len = len - a->len;
    return 0;
}

/* The fault that ends a stream early, due when the next chunk would be. */
static int refill_terminator(struct synth_stream *s, struct replay_steps *q)
{
    size_t mark = q->bytes.len;
    int rc = 0;

    s->phase = PH_OVER;
    switch (s->terminator) {
    case FAULT_RESET_MID_STREAM:
        return replay_steps_bare(q, STEP_RESET, s->next_due);
    case FAULT_STALL:
        return replay_steps_bare(q, STEP_HOLD, s->next_due);
    case FAULT_ERROR_FIELD:
    case FAULT_ERROR_FIRST:
    case FAULT_ERROR_OBJECT:
        /* llama.cpp's and vLLM's shapes: the error, then [DONE] */
        if (s->terminator == FAULT_ERROR_OBJECT)
            rc = replay_fmt_error_object(&q->bytes, &s->fmt,
                                         "prompt is too long (replay fault "
                                         "error-object)");
        else if (s->terminator == FAULT_ERROR_FIELD)
            rc = replay_fmt_error_field(&q->bytes, &s->fmt, 500,
                                        "context shift is disabled (replay "
                                        "fault error-field)",
                                        "server_error");
        else
            rc = replay_fmt_error_field(
                &q->bytes, &s->fmt, 400,
                "the request exceeds the available context size, try "
                "increasing it (replay fault error-first)",
                "exceed_context_size_error");
        rc = rc ? rc : replay_fmt_done(&q->bytes, &s->fmt);
        rc = rc ? rc : replay_steps_send(q, s->next_due, mark);
        rc = rc ? rc : replay_steps_bare(q, STEP_END, s->next_due);
        return rc ? -1 : 0;
    case FAULT_RESPONSE_FAILED:
        if (s->fmt.api == API_OPENAI_RESPONSES) {
            rc = replay_fmt_resp_failed(&q->bytes, &s->fmt,
                                        "The model failed to generate a "
                                        "response (replay fault "
                                        "response-failed)");
            rc = rc ? rc : replay_steps_send(q, s->next_due, mark);
            rc = rc ? rc : replay_steps_bare(q, STEP_END, s->next_due);
            return rc ? -1 : 0;
        }
        /* the other kinds: their own error event */
        /* fall through */
    default:
        if (s->leak[0] != '\0') {
            char m[SYNTH_LEAK_MSG_MAX];
            snprintf(m, sizeof(m),
                     "The server had an error while processing your request "
                     "(key: %s, POST %s)",
                     s->leak, s->leak_path);
            rc = replay_fmt_error_text(&q->bytes, &s->fmt, m);
            rc = rc ? rc : add_leak_send(s, q, s->next_due, mark);
        } else {
            rc = replay_fmt_error_event(&q->bytes, &s->fmt);
            rc = rc ? rc : replay_steps_send(q, s->next_due, mark);
        }
        rc = rc ? rc : replay_steps_bare(q, STEP_END, s->next_due);
        return rc ? -1 : 0;
    }
}

/* Splits the write at [mark, end) in the middle of its first multibyte
 * character into two SENDs SYNTH_SPLIT_GAP_NS apart. */
static int add_split_send(struct replay_steps *q, int64_t due, size_t mark)
{
    size_t i, len = q->bytes.len - mark;
    struct replay_step *a, *b;

    for (i = 0; i < len; i++) {
        if (((unsigned char)q->bytes.data[mark + i] & 0xC0) == 0xC0)
            break;
    }
    if (i + 1 >= len)
        return replay_steps_send(q, due, mark);
    a = replay_steps_add(q, STEP_SEND, due, mark);
    b = replay_steps_add(q, STEP_SEND, due + SYNTH_SPLIT_GAP_NS, mark);
    if (a == NULL || b == NULL)
        return -1;
    a->len = i + 1;
    b->off = mark + i + 1;
    b->len = len - (i + 1);
    return 0;
}

/* leaky-body: one answer event echoing the credential, split inside the
 * key, right after the first token chunk. */
static int add_leak_event(struct synth_stream *s, struct replay_steps *q)
{
    char text[SYNTH_LEAK_MAX + 64];
    size_t mark = q->bytes.len;

    snprintf(text, sizeof(text), " (your key: %s) ", s->leak);
    if ((s->fmt.api == API_OPENAI_RESPONSES
             ? replay_fmt_resp_text(&q->bytes, &s->fmt, s->block, text)
             : replay_fmt_text(&q->bytes, &s->fmt, false, true, s->block,
                               text)) != BUF_OK)
        return -1;
    return add_leak_send(s, q, s->next_due, mark);
}

static int refill_finish(struct synth_stream *s, struct replay_steps *q);

/* The next token chunk (and Anthropic block switch before it). */
static int refill_tokens(struct synth_stream *s, struct replay_steps *q)
{
    struct buf *b = &q->bytes;
    bool reasoning;
    size_t mark;
    int rc = 0;

    prepare_next(s);
    if (s->terminator != FAULT_COUNT && s->chunks_sent == s->fault_after)
        return refill_terminator(s, q);
    if (s->n == 0) { /* no-tokens: straight to the closing events */
        s->last_due = s->next_due;
        s->phase = PH_FINISH;
        return refill_finish(s, q);
    }
    reasoning = s->tok < s->h;
    if (s->fmt.api == API_OPENAI_RESPONSES && s->h > 0 && s->tok == s->h) {
        mark = b->len;
        rc = replay_fmt_resp_item_done(b, &s->fmt, s->block, true, 0, s->h);
        s->block++;
        rc = rc ? rc : replay_fmt_resp_item_added(b, &s->fmt, s->block, false);
        rc = rc ? rc : replay_steps_send(q, s->next_due, mark);
    }
    if (s->fmt.api == API_ANTHROPIC && s->h > 0 && s->tok == s->h) {
        mark = b->len;
        rc = replay_fmt_block_stop(b, &s->fmt, s->block);
        rc = rc ? rc : replay_steps_send(q, s->next_due, mark);
        s->block++;
        mark = b->len;
        rc = rc ? rc : replay_fmt_block_start(b, &s->fmt, s->block, false);
        rc = rc ? rc : replay_steps_send(q, s->next_due, mark);
    }
    mark = b->len;
    if (rc == 0 && s->fmt.api == API_OPENAI_RESPONSES)
        rc = replay_fmt_resp_delta(b, &s->fmt, s->block, reasoning, s->tok,
                                   s->next_end);
    else
        rc = rc ? rc
                : replay_fmt_tokens(b, &s->fmt, s->chunks_sent == 0,
                                    s->role_sent, reasoning, s->block, s->tok,
                                    s->next_end);
    if (rc == 0)
        rc = FAULT_HAS(s->faults, FAULT_SPLIT_UTF8)
                 ? add_split_send(q, s->next_due, mark)
                 : replay_steps_send(q, s->next_due, mark);
    if (rc == 0 && s->leak[0] != '\0' && !s->leak_sent && !reasoning) {
        s->leak_sent = true;
        rc = add_leak_event(s, q);
    }
    s->tok = s->next_end;
    s->chunks_sent++;
    s->last_due = s->next_due;
    s->have_next = false;
    if (s->tok >= s->n)
        s->phase = PH_FINISH;
    return rc ? -1 : 0;
}

/* llama-timings: the last chunk with llama.cpp's own account of the
 * request, as the synthetic server scheduled it: the prompt took from the
 * arrival to the first token, generation from there to the last one (t). */
static int llama_timings(const struct synth_stream *s, struct buf *b, int64_t t)
{
    struct replay_llama_timings lt;
    lt.prompt_n = s->prompt_tokens > 0 ? s->prompt_tokens : 0;
    if (s->fmt.cached_tokens > 0) /* llama.cpp: prompt_n excludes cache_n */
        lt.prompt_n -= s->fmt.cached_tokens;
    lt.prompt_ms = (double)(s->first_ns - s->arrival_ns) / 1e6;
    lt.predicted_n = (int64_t)s->n;
    lt.predicted_ms = (double)(t - s->first_ns) / 1e6;
    if (lt.prompt_ms < 0)
        lt.prompt_ms = 0;
    if (lt.predicted_ms < 0)
        lt.predicted_ms = 0;
    return replay_fmt_llama_timings(b, &s->fmt, &lt, s->include_usage,
                                    s->prompt_tokens, (int64_t)s->n);
}

/* The closing events after the last token, all at its time. */
static int refill_finish(struct synth_stream *s, struct replay_steps *q)
{
    struct buf *b = &q->bytes;
    int64_t t = s->last_due;
    size_t mark = b->len;
    int rc;

    s->phase = PH_OVER;
    if (s->fmt.api == API_OPENAI_RESPONSES) {
        struct replay_resp_usage u = {
            s->prompt_tokens, (int64_t)s->n, (int64_t)s->h,
            s->fmt.cached_tokens > 0 ? s->fmt.cached_tokens : 0};
        /* the answer item: reasoning [0, h) ended at the switch */
        rc = replay_fmt_resp_item_done(b, &s->fmt, s->block, false, s->h, s->n);
        rc = rc ? rc
                : replay_fmt_resp_end(
                      b, &s->fmt, strcmp(s->finish, "length") == 0,
                      FAULT_HAS(s->faults, FAULT_NO_USAGE) ? NULL : &u);
        rc = rc ? rc : replay_steps_send(q, t, mark);
    } else if (s->fmt.api == API_ANTHROPIC) {
        rc = replay_fmt_block_stop(b, &s->fmt, s->block);
        rc = rc ? rc : replay_steps_send(q, t, mark);
        mark = b->len;
        rc = rc ? rc
                : replay_fmt_msg_delta(
                      b, &s->fmt,
                      strcmp(s->finish, "length") == 0 ? "max_tokens"
                                                       : "end_turn",
                      (int64_t)s->n, !FAULT_HAS(s->faults, FAULT_NO_USAGE));
        rc = rc ? rc : replay_steps_send(q, t, mark);
        mark = b->len;
        rc = rc ? rc : replay_fmt_msg_stop(b, &s->fmt);
        rc = rc ? rc : replay_steps_send(q, t, mark);
    } else {
        rc = replay_fmt_finish(b, &s->fmt, s->finish);
        rc = rc ? rc : replay_steps_send(q, t, mark);
        if (rc == 0 && FAULT_HAS(s->faults, FAULT_LLAMA_TIMINGS)) {
            mark = b->len;
            rc = llama_timings(s, b, t);
            rc = rc ? rc : replay_steps_send(q, t, mark);
        } else if (rc == 0 && s->include_usage) {
            mark = b->len;
            rc = replay_fmt_usage(b, &s->fmt, s->prompt_tokens, (int64_t)s->n);
            rc = rc ? rc : replay_steps_send(q, t, mark);
        }
        mark = b->len;
        rc = rc ? rc : replay_fmt_done(b, &s->fmt);
        rc = rc ? rc : replay_steps_send(q, t, mark);
    }
    rc = rc ? rc : replay_steps_bare(q, STEP_END, t);
    return rc ? -1 : 0;
}

int synth_refill_sse(struct synth_stream *s, struct replay_steps *q)
{
    switch (s->phase) {
    case PH_HEAD:
        return refill_head(s, q);
    case PH_KEEPALIVE:
        prepare_next(s);
        if (s->next_keepalive < s->next_due) {
            size_t mark = q->bytes.len;
            int64_t t = s->next_keepalive;
            s->next_keepalive += s->keepalive_ns;
            if (replay_fmt_keepalive(&q->bytes, &s->fmt) != BUF_OK)
                return -1;
            return replay_steps_send(q, t, mark);
        }
        s->phase = PH_TOKENS;
        return refill_tokens(s, q);
    case PH_TOKENS:
        return refill_tokens(s, q);
    case PH_FINISH:
        return refill_finish(s, q);
    case PH_OVER:
        break;
    }
    return replay_steps_bare(q, STEP_HOLD, s->arrival_ns);
}
