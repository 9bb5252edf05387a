/* fuzz_stream_events: common/stream_events.c (and the SSE parser under it)
 * on arbitrary response bodies, for each of the three API kinds.
 *
 * Input: byte 0 picks the API kind (byte0 % 3), the split point of the body
 * (byte0 / 3 scaled to the body length) and a small SSE cap (bit 0x40); the
 * rest is the body. Invariants checked beyond "no crash": the facts do not
 * depend on how the body is cut into feeds (whole, split in two, and one byte
 * at a time for small bodies give the same facts and token events), token
 * times are the feed times in order, the counters are consistent, and the
 * JSON fast scan (common/stream_scan.c) gives the same token events and
 * facts as cJSON alone (slow_json), whole and split. */
#include <stdbool.h>
#include <string.h>

#include "fuzz_common.h"
#include "stream_events.h"

#define FUZZ_BYTEWISE_MAX 4096 /* bodies fed byte by byte up to this size */
#define FUZZ_SMALL_CAP 256     /* SSE cap used when bit 0x40 is set */

/* Fixed in common/sse.c (sse_end_line tests the discarding state): facts
 * after an oversized event no longer depend on the feed split, so streams
 * that hit the cap are compared too. */
#define FUZZ_COMPARE_OVERSIZED 1

/* Feeds body[0..n) in pieces of at most step bytes (0: one piece split at
 * cut, the first part at t1 and the rest at t2), then finishes. slow: parse
 * every event with cJSON only. */
static void run_json(struct stream_state *s, enum api_kind api, size_t cap,
                     const uint8_t *body, size_t n, size_t step, size_t cut,
                     int64_t t1, int64_t t2, bool slow)
{
    stream_state_init(s, api, cap);
    s->slow_json = slow;
    if (step == 0) {
        (void)stream_feed(s, t1, body, cut);
        (void)stream_feed(s, t2, body + cut, n - cut);
    } else {
        for (size_t off = 0; off < n; off += step)
            (void)stream_feed(s, t1, body + off,
                              n - off < step ? n - off : step);
    }
    (void)stream_finish(s);
}

/* run_json with the fast scan on. */
static void run(struct stream_state *s, enum api_kind api, size_t cap,
                const uint8_t *body, size_t n, size_t step, size_t cut,
                int64_t t1, int64_t t2)
{
    run_json(s, api, cap, body, n, step, cut, t1, t2, false);
}

/* Checks what must hold for any stream. */
static void check_consistent(const struct stream_state *s, size_t n)
{
    FUZZ_CHECK(s->bytes == n);
    FUZZ_CHECK(s->n_tokens <= s->tokens_cap || s->tokens_cap == 0);
    FUZZ_CHECK(s->token_events >= s->n_tokens);
    FUZZ_CHECK(s->err != 0 || s->token_events == s->n_tokens);
    FUZZ_CHECK(s->reasoning_events <= s->token_events);
    FUZZ_CHECK(s->reasoning_bytes <= s->text_bytes);
    FUZZ_CHECK(s->text_chars <= s->text_bytes);
    FUZZ_CHECK(s->json_events + s->bad_json <= s->sse_events);
    FUZZ_CHECK(s->sse_events == s->sse.events);
    FUZZ_CHECK((s->token_events == 0) == (s->first_token_ns < 0));
    FUZZ_CHECK(memchr(s->finish_reason, '\0', sizeof(s->finish_reason)));
    FUZZ_CHECK(memchr(s->error_type, '\0', sizeof(s->error_type)));
    FUZZ_CHECK(memchr(s->error_message, '\0', sizeof(s->error_message)));
    FUZZ_CHECK(s->incomplete <= 1);
}

/* The facts of a and b are the same (both fed at the same times). */
static void check_same(const struct stream_state *a,
                       const struct stream_state *b)
{
    FUZZ_CHECK(a->n_tokens == b->n_tokens);
    for (size_t i = 0; i < a->n_tokens; i++) {
        FUZZ_CHECK(a->tokens[i].t_ns == b->tokens[i].t_ns);
        FUZZ_CHECK(a->tokens[i].text_bytes == b->tokens[i].text_bytes);
        FUZZ_CHECK(a->tokens[i].pieces == b->tokens[i].pieces);
        FUZZ_CHECK(a->tokens[i].flags == b->tokens[i].flags);
    }
    FUZZ_CHECK(a->first_token_ns == b->first_token_ns);
    FUZZ_CHECK(a->first_content_ns == b->first_content_ns);
    FUZZ_CHECK(a->token_events == b->token_events);
    FUZZ_CHECK(a->reasoning_events == b->reasoning_events);
    FUZZ_CHECK(a->text_bytes == b->text_bytes);
    FUZZ_CHECK(a->text_chars == b->text_chars);
    FUZZ_CHECK(a->reasoning_bytes == b->reasoning_bytes);
    FUZZ_CHECK(a->usage_output_tokens == b->usage_output_tokens);
    FUZZ_CHECK(a->usage_input_tokens == b->usage_input_tokens);
    FUZZ_CHECK(a->usage_reasoning_tokens == b->usage_reasoning_tokens);
    FUZZ_CHECK(a->sse_events == b->sse_events);
    FUZZ_CHECK(a->json_events == b->json_events);
    FUZZ_CHECK(a->bad_json == b->bad_json);
    FUZZ_CHECK(a->comments == b->comments);
    FUZZ_CHECK(a->pings == b->pings);
    FUZZ_CHECK(a->finish_reasons == b->finish_reasons);
    FUZZ_CHECK(strcmp(a->finish_reason, b->finish_reason) == 0);
    FUZZ_CHECK(a->done_seen == b->done_seen);
    FUZZ_CHECK(a->stream_errors == b->stream_errors);
    FUZZ_CHECK(strcmp(a->error_type, b->error_type) == 0);
    FUZZ_CHECK(strcmp(a->error_message, b->error_message) == 0);
    FUZZ_CHECK(a->oversized == b->oversized);
    FUZZ_CHECK(a->incomplete == b->incomplete);
    FUZZ_CHECK(a->err == b->err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct stream_state whole, split, timed;
    enum api_kind api;
    const uint8_t *body;
    size_t n, cut, cap;
    bool compare;
    if (size < 1)
        return 0;
    api = (enum api_kind)(data[0] % 3);
    cap = (data[0] & 0x40) ? FUZZ_SMALL_CAP : 0;
    body = data + 1;
    n = size - 1;
    cut = (size_t)((uint64_t)n * (data[0] / 3u) / 85u);

    run(&whole, api, cap, body, n, n ? n : 1, 0, 1000, 1000);
    check_consistent(&whole, n);

    compare = FUZZ_COMPARE_OVERSIZED || !whole.oversized;

    /* The fast scan and cJSON alone agree, whole and split. */
    {
        struct stream_state slow;
        run_json(&slow, api, cap, body, n, n ? n : 1, 0, 1000, 1000, true);
        check_consistent(&slow, n);
        check_same(&whole, &slow);
        stream_state_free(&slow);
        run_json(&slow, api, cap, body, n, 0, cut, 100, 200, true);
        check_consistent(&slow, n);
        {
            struct stream_state fast;
            run(&fast, api, cap, body, n, 0, cut, 100, 200);
            check_same(&fast, &slow);
            stream_state_free(&fast);
        }
        stream_state_free(&slow);
    }

    run(&split, api, cap, body, n, 0, cut, 1000, 1000);
    check_consistent(&split, n);
    if (compare)
        check_same(&whole, &split);
    stream_state_free(&split);

    if (n <= FUZZ_BYTEWISE_MAX) {
        struct stream_state bytewise;
        run(&bytewise, api, cap, body, n, 1, 0, 1000, 1000);
        check_consistent(&bytewise, n);
        if (compare)
            check_same(&whole, &bytewise);
        stream_state_free(&bytewise);
    }

    /* With distinct feed times, token events carry those times in order. */
    run(&timed, api, cap, body, n, 0, cut, 100, 200);
    check_consistent(&timed, n);
    FUZZ_CHECK(!compare || timed.n_tokens == whole.n_tokens);
    for (size_t i = 0; i < timed.n_tokens; i++) {
        int64_t t = timed.tokens[i].t_ns;
        FUZZ_CHECK(t == 100 || t == 200);
        FUZZ_CHECK(i == 0 || t >= timed.tokens[i - 1].t_ns);
    }
    if (timed.n_tokens > 0) {
        FUZZ_CHECK(timed.first_token_ns == timed.tokens[0].t_ns);
        FUZZ_CHECK(timed.last_token_ns ==
                   timed.tokens[timed.n_tokens - 1].t_ns);
    }
    stream_state_free(&timed);
    stream_state_free(&whole);
    return 0;
}
