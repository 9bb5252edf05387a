/* metrics_test: the per-request formulas (analyze/metrics/metrics.c) on
 * hand-computed cases, and its ITL median against stats_summarize's. */
#include "metrics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "stats.h"

#define X NAN /* undefined */

/* One request's facts in milliseconds; a time of 0 is unknown (-1). */
struct in {
    bool failed; /* the loader found an error kind */
    enum token_mode mode;
    double sched, start;
    bool unfinished;             /* no result record */
    double end, post, pre;       /* post/pre: ms after start */
    double done, last_feed;      /* [DONE], last bytes */
    double tok[8];               /* token event times */
    size_t n_tok;                /* stored events */
    unsigned reasoning;          /* bit i: token i carried only reasoning */
    uint64_t unstored;           /* events past the parser's cap */
    double last_tok;             /* the last of those; 0: tok[n_tok - 1] */
    bool usage;                  /* the stream reported usage: */
    int64_t usage_out, usage_in; /* ... these */
    int64_t est;                 /* the recorder's input estimate */
};

enum want_ms {
    W_TTFT,
    W_CONTENT,
    W_SERVER,
    W_TPOT,
    W_LATENCY,
    W_STREAM_END,
    W_SEND_LAG,
    W_RESP_TTFT,
    W_RESP_LATENCY,
    W_TPS,
    W_TPC,
    W_ITL_P50,
    W_ITL_MAX,
    W_COUNT
};

struct want {
    double ms[W_COUNT]; /* in enum want_ms order; X undefined */
    int64_t output_tokens;
    const char *source;
    bool disagrees;
    const char *measured_class;
    size_t n_itl;
};

struct metrics_case {
    const char *name;
    struct in in;
    struct want want;
};

/* Hand computations (start 1000 ms unless said):
 * one token at 1100: TTFT = latency = 100, TPOT undefined (1 token), TPS
 *   1 / 0.1 s = 10, no gap.
 * tokens 1100, 1120, 1150: gaps 20, 30 (median 25, max 30); TPOT = (1150 -
 *   1100) / (3 - 1) = 25; latency 150; TPS 3 / 0.15 = 20.
 * the same with usage 10 (several tokens per event, text sizes unknown):
 *   the first event carried ceil(10 / 3) = 4, TPOT 50 / (10 - 4), TPS 10 /
 *   0.15, tokens per chunk 10 / 3, usage disagrees with 3 events.
 * gaps 10, 40, 20, 30: median (20 + 30) / 2 = 25, max 40.
 * open loop, scheduled 900: send lag 100, response TTFT = TTFT + 100.
 * server TTFT: post-transfer 5 ms after start -> 100 - 5 = 95; only
 *   pre-transfer 2 ms -> 98; no result -> undefined.
 * usage 257 in one event: the event carried them all, no span to divide:
 *   TPOT undefined (the classic formula's 0 / 256 is in coalescing_cases),
 *   TPS 257 / 0.1 = 2570. */
/* clang-format off */
static const struct metrics_case cases[] = {
    {"no tokens (failed: no_tokens)",
     {.failed = true, .start = 1000, .end = 1200, .done = 1190},
     {{X, X, X, X, X, 190, X, X, X, X, X, X, X}, 0, "chunks", false,
      "short-short", 0}},
    {"single token",
     {.start = 1000, .end = 1130, .tok = {1100}, .n_tok = 1, .usage = true,
      .usage_out = 1, .usage_in = 40},
     {{100, 100, X, X, 100, 130, X, X, X, 10, 1, X, X}, 1, "usage", false,
      "short-short", 0}},
    {"three events, token count from the events",
     {.start = 1000, .end = 1160, .done = 1155, .tok = {1100, 1120, 1150},
      .n_tok = 3},
     {{100, 100, X, 25, 150, 155, X, X, X, 20, X, 25, 30}, 3, "chunks",
      false, "short-short", 2}},
    {"multi-token events: usage 10 over 3 events",
     {.start = 1000, .end = 1160, .tok = {1100, 1120, 1150}, .n_tok = 3,
      .usage = true, .usage_out = 10, .usage_in = 40},
     {{100, 100, X, 50.0 / 6, 150, 160, X, X, X, 10 / 0.15, 10.0 / 3, 25,
       30}, 10, "usage", true, "short-short", 2}},
    {"--tokens chunks over usage",
     {.mode = TOKENS_CHUNKS, .start = 1000, .end = 1160,
      .tok = {1100, 1120, 1150}, .n_tok = 3, .usage = true, .usage_out = 10},
     {{100, 100, X, 25, 150, 160, X, X, X, 20, 10.0 / 3, 25, 30}, 3,
      "chunks", true, "short-short", 2}},
    {"--tokens usage without usage",
     {.mode = TOKENS_USAGE, .start = 1000, .end = 1160,
      .tok = {1100, 1120, 1150}, .n_tok = 3},
     {{100, 100, X, X, 150, 160, X, X, X, X, X, 25, 30}, -1, "usage", false,
      "short-short", 2}},
    {"usage 0 with events: auto keeps usage",
     {.start = 1000, .end = 1160, .tok = {1100, 1120}, .n_tok = 2,
      .usage = true, .usage_out = 0},
     {{100, 100, X, X, 120, 160, X, X, X, 0, 0, 20, 20}, 0, "usage", true,
      "short-short", 1}},
    {"reasoning first: TTFT (content) at the first answer event",
     {.start = 1000, .end = 1200, .tok = {1100, 1120, 1150, 1190},
      .n_tok = 4, .reasoning = 0x3},
     {{100, 150, X, 30, 190, 200, X, X, X, 4 / 0.19, X, 30, 40}, 4,
      "chunks", false, "short-short", 3}},
    {"only reasoning: no answer token",
     {.start = 1000, .end = 1200, .tok = {1100, 1150}, .n_tok = 2,
      .reasoning = 0x3},
     {{100, X, X, 50, 150, 200, X, X, X, 2 / 0.15, X, 50, 50}, 2, "chunks",
      false, "short-short", 1}},
    {"even number of gaps: median between the middle two",
     {.start = 1000, .end = 1200, .tok = {1100, 1110, 1150, 1170, 1200},
      .n_tok = 5},
     {{100, 100, X, 25, 200, 200, X, X, X, 25, X, 25, 40}, 5, "chunks",
      false, "short-short", 4}},
    {"open loop: send lag and response times",
     {.sched = 900, .start = 1000, .end = 1160, .tok = {1100, 1120, 1150},
      .n_tok = 3},
     {{100, 100, X, 25, 150, 160, 100, 200, 250, 20, X, 25, 30}, 3, "chunks",
      false, "short-short", 2}},
    {"open loop, sent early (negative lag)",
     {.sched = 1010, .start = 1000, .end = 1160, .tok = {1100}, .n_tok = 1},
     {{100, 100, X, X, 100, 160, -10, 90, 90, 10, X, X, X}, 1, "chunks",
      false, "short-short", 0}},
    {"open loop, failed: send lag and stream end stay",
     {.failed = true, .sched = 900, .start = 1000, .end = 1300,
      .tok = {1100, 1120}, .n_tok = 2, .usage = true, .usage_out = 4},
     {{X, X, X, X, X, 300, 100, X, X, X, 2, X, X}, 4, "usage", true,
      "short-short", 0}},
    {"server TTFT from post-transfer",
     {.start = 1000, .end = 1160, .post = 5, .pre = 2, .tok = {1100},
      .n_tok = 1},
     {{100, 100, 95, X, 100, 160, X, X, X, 10, X, X, X}, 1, "chunks", false,
      "short-short", 0}},
    {"server TTFT from pre-transfer (older libcurl)",
     {.start = 1000, .end = 1160, .pre = 2, .tok = {1100}, .n_tok = 1},
     {{100, 100, 98, X, 100, 160, X, X, X, 10, X, X, X}, 1, "chunks", false,
      "short-short", 0}},
    {"unfinished: ends at the last bytes, no server TTFT",
     {.unfinished = true, .start = 1000, .post = 5, .last_feed = 1170,
      .tok = {1100, 1120, 1150}, .n_tok = 3},
     {{100, 100, X, 25, 150, 170, X, X, X, 20, X, 25, 30}, 3, "chunks",
      false, "short-short", 2}},
    {"unknown start",
     {.end = 1160, .tok = {1100, 1120, 1150}, .n_tok = 3},
     {{X, X, X, 25, X, X, X, X, X, X, X, 25, 30}, 3, "chunks", false,
      "short-short", 2}},
    {"all at once: latency 0, TPS undefined",
     {.start = 1000, .end = 1000, .tok = {1000, 1000}, .n_tok = 2},
     {{0, 0, X, 0, 0, 0, X, X, X, X, X, 0, 0}, 2, "chunks", false,
      "short-short", 1}},
    {"out-of-order times: a negative gap",
     {.start = 1000, .end = 1200, .tok = {1100, 1095, 1105}, .n_tok = 3},
     {{100, 100, X, 2.5, 105, 200, X, X, X, 3 / 0.105, X, 2.5, 10}, 3,
      "chunks", false, "short-short", 2}},
    {"past the parser's cap: counts and last token from every event",
     {.start = 1000, .end = 1300, .tok = {1100, 1120}, .n_tok = 2,
      .unstored = 3, .last_tok = 1200},
     {{100, 100, X, 25, 200, 300, X, X, X, 25, X, 20, 20}, 5, "chunks",
      false, "short-short", 1}},
    {"measured class from usage: long-long",
     {.start = 1000, .end = 1200, .tok = {1100}, .n_tok = 1, .usage = true,
      .usage_out = 257, .usage_in = 1025, .est = 10},
     {{100, 100, X, X, 100, 200, X, X, X, 2570, 257, X, X}, 257, "usage",
      true, "long-long", 0}},
    {"measured class from the estimate: long-short",
     {.start = 1000, .end = 1200, .tok = {1100}, .n_tok = 1, .usage = true,
      .usage_out = 256, .usage_in = -1, .est = 2000},
     {{100, 100, X, X, 100, 200, X, X, X, 2560, 256, X, X}, 256, "usage",
      true, "long-short", 0}},
    {"measured class: short-long at the thresholds",
     {.start = 1000, .end = 1200, .tok = {1100}, .n_tok = 1, .usage = true,
      .usage_out = 257, .usage_in = 1024},
     {{100, 100, X, X, 100, 200, X, X, X, 2570, 257, X, X}, 257, "usage",
      true, "short-long", 0}},
};
/* clang-format on */

static const char *const want_names[W_COUNT] = {
    "ttft",     "ttft_content",     "server_ttft",
    "tpot",     "latency",          "stream_end",
    "send_lag", "response_ttft",    "response_latency",
    "tps",      "tokens_per_chunk", "itl_p50",
    "itl_max"};

static int64_t ns(double ms)
{
    return ms > 0 || ms < 0 ? (int64_t)llround(ms * 1e6) : -1;
}

/* The facts of a case; tokens goes into the caller's array. */
static void facts_of(const struct in *in, struct stream_token *tokens,
                     struct metrics_facts *f)
{
    memset(f, 0, sizeof(*f));
    f->ok = !in->failed;
    f->token_mode = in->mode;
    f->scheduled_ns = ns(in->sched);
    f->start_ns = ns(in->start);
    f->input_tokens_est = in->est;
    f->has_result = !in->unfinished;
    f->end_ns = in->unfinished ? -1 : ns(in->end);
    f->posttransfer_ns = ns(in->post);
    f->pretransfer_ns = ns(in->pre);
    f->first_token_ns = f->first_content_ns = f->last_token_ns = -1;
    for (size_t i = 0; i < in->n_tok; i++) {
        memset(&tokens[i], 0, sizeof(tokens[i]));
        tokens[i].t_ns = ns(in->tok[i]);
        if (in->reasoning & (1u << i)) {
            tokens[i].flags = STREAM_TOK_REASONING;
            f->reasoning_events++;
        } else if (f->first_content_ns < 0)
            f->first_content_ns = tokens[i].t_ns;
        if (i == 0)
            f->first_token_ns = tokens[i].t_ns;
        f->last_token_ns = tokens[i].t_ns;
    }
    if (in->last_tok > 0)
        f->last_token_ns = ns(in->last_tok);
    f->tokens = tokens;
    f->n_tokens = in->n_tok;
    f->token_events = in->n_tok + in->unstored;
    f->done_seen = in->done > 0;
    f->done_ns = ns(in->done);
    f->last_feed_ns = ns(in->last_feed);
    f->usage_output_tokens = in->usage ? in->usage_out : -1;
    f->usage_input_tokens = in->usage ? in->usage_in : -1;
}

/* True when got is want up to rounding; NaN equals NaN. */
static bool near(double got, double want)
{
    if (isnan(want))
        return isnan(got);
    return fabs(got - want) <= 1e-9 * (1 + fabs(want));
}

static void test_cases(void)
{
    struct metrics_buf buf = {0};
    for (size_t c = 0; c < sizeof(cases) / sizeof(*cases); c++) {
        const struct metrics_case *k = &cases[c];
        const struct want *w = &k->want;
        struct stream_token tokens[8];
        struct metrics_facts f;
        struct request_metrics m;
        double got[W_COUNT];
        memset(&m, 0, sizeof(m));
        m.id = 77; /* the loader's: left alone */
        facts_of(&k->in, tokens, &f);
        CHECK_MSG(metrics_compute(&f, &buf, &m) == METRICS_OK, "%s", k->name);
        got[W_TTFT] = m.ttft_ms;
        got[W_CONTENT] = m.ttft_content_ms;
        got[W_SERVER] = m.server_ttft_ms;
        got[W_TPOT] = m.tpot_ms;
        got[W_LATENCY] = m.latency_ms;
        got[W_STREAM_END] = m.stream_end_ms;
        got[W_SEND_LAG] = m.send_lag_ms;
        got[W_RESP_TTFT] = m.response_ttft_ms;
        got[W_RESP_LATENCY] = m.response_latency_ms;
        got[W_TPS] = m.tps;
        got[W_TPC] = m.tokens_per_chunk;
        got[W_ITL_P50] = m.itl_p50_ms;
        got[W_ITL_MAX] = m.itl_max_ms;
        for (int i = 0; i < W_COUNT; i++)
            CHECK_MSG(near(got[i], w->ms[i]), "%s: %s got %.17g want %.17g",
                      k->name, want_names[i], got[i], w->ms[i]);
        CHECK_MSG(m.output_tokens == w->output_tokens, "%s: output %lld",
                  k->name, (long long)m.output_tokens);
        CHECK_MSG(strcmp(m.token_source, w->source) == 0, "%s: source %s",
                  k->name, m.token_source);
        CHECK_MSG(m.usage_disagrees == w->disagrees, "%s: disagrees", k->name);
        CHECK_MSG(strcmp(m.measured_class, w->measured_class) == 0,
                  "%s: class %s", k->name, m.measured_class);
        CHECK_MSG(m.n_itl == w->n_itl, "%s: n_itl %zu", k->name, m.n_itl);
        CHECK_MSG(m.ok == !k->in.failed && m.id == 77, "%s: ok/id", k->name);
        CHECK_MSG(m.open_loop == (k->in.sched != 0), "%s: open_loop", k->name);
        CHECK_MSG(m.token_events == (int64_t)f.token_events &&
                      m.reasoning_events == (int64_t)f.reasoning_events,
                  "%s: event counts", k->name);
        CHECK_MSG(m.first_token_ns == f.first_token_ns &&
                      m.last_token_ns == f.last_token_ns &&
                      m.start_ns == f.start_ns &&
                      m.scheduled_ns == f.scheduled_ns,
                  "%s: absolute times", k->name);
        /* token times of every request, failed ones too */
        CHECK_MSG(m.n_token_ns == k->in.n_tok, "%s: n_token_ns %zu", k->name,
                  m.n_token_ns);
        for (size_t i = 0; i < m.n_token_ns; i++)
            CHECK_MSG(m.token_ns[i] == tokens[i].t_ns, "%s: token_ns[%zu]",
                      k->name, i);
        /* gaps in arrival order, whatever the median did to them */
        for (size_t i = 0; i < m.n_itl; i++)
            CHECK_MSG(near(m.itl_ms[i], k->in.tok[i + 1] - k->in.tok[i]),
                      "%s: itl_ms[%zu] = %g", k->name, i, m.itl_ms[i]);
    }
    metrics_buf_free(&buf);
    CHECK(buf.cap == 0 && buf.token_ns == NULL);
    metrics_buf_free(NULL);
}

/* A small deterministic generator (tests only). */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Token times of one shape: random gaps, few distinct gaps (many equal),
 * equal times, ascending, descending (negative gaps), organ pipe. */
static void shape(int kind, size_t n, uint64_t *seed, struct stream_token *t)
{
    int64_t at = 1000000000;
    for (size_t i = 0; i < n; i++) {
        int64_t gap;
        switch (kind) {
        case 0:
            gap = (int64_t)(next(seed) % 50000000);
            break;
        case 1:
            gap = (int64_t)(next(seed) % 3) * 1000000;
            break;
        case 2:
            gap = 0;
            break;
        case 3:
            gap = (int64_t)i * 1000;
            break;
        case 4:
            gap = -(int64_t)i * 1000;
            break;
        default:
            gap = (int64_t)(i < n / 2 ? i : n - i) * 777;
            break;
        }
        at += gap;
        memset(&t[i], 0, sizeof(t[i]));
        t[i].t_ns = at;
    }
}

/* The median and max of metrics_compute are stats_summarize's p50 and
 * max, bit for bit, for every shape and size (selection, not a sort). */
static void test_median_against_stats(void)
{
    static const size_t sizes[] = {2,  3,   4,   5,    16,   17,   18,
                                   33, 100, 101, 1000, 1001, 65537};
    struct metrics_buf buf = {0};
    uint64_t seed = 42;
    size_t max_n = 65537;
    struct stream_token *t = malloc(max_n * sizeof(*t));
    double *gaps = malloc(max_n * sizeof(*gaps));
    CHECK(t && gaps);
    for (int kind = 0; t && gaps && kind < 6; kind++)
        for (size_t s = 0; s < sizeof(sizes) / sizeof(*sizes); s++) {
            size_t n = sizes[s];
            struct metrics_facts f;
            struct request_metrics m;
            struct stats_summary sum;
            shape(kind, n, &seed, t);
            memset(&f, 0, sizeof(f));
            f.ok = true;
            f.scheduled_ns = -1;
            f.start_ns = t[0].t_ns;
            f.tokens = t;
            f.n_tokens = n;
            f.token_events = n;
            f.first_token_ns = t[0].t_ns;
            f.last_token_ns = t[n - 1].t_ns;
            f.usage_output_tokens = f.usage_input_tokens = -1;
            memset(&m, 0, sizeof(m));
            CHECK(metrics_compute(&f, &buf, &m) == METRICS_OK);
            for (size_t i = 1; i < n; i++)
                gaps[i - 1] = (double)(t[i].t_ns - t[i - 1].t_ns) / 1e6;
            CHECK_MSG(m.n_itl == n - 1 &&
                          memcmp(m.itl_ms, gaps, (n - 1) * sizeof(*gaps)) == 0,
                      "shape %d n %zu: gaps in arrival order", kind, n);
            stats_summarize(gaps, n - 1, &sum);
            CHECK_MSG(m.itl_p50_ms == sum.p50 && m.itl_max_ms == sum.max,
                      "shape %d n %zu: p50 %.17g want %.17g, max %.17g "
                      "want %.17g",
                      kind, n, m.itl_p50_ms, sum.p50, m.itl_max_ms, sum.max);
        }
    free(t);
    free(gaps);
    metrics_buf_free(&buf);
}

/* TPOT under coalescing: token events (ms, text bytes), the usage count
 * (-1 none) and the stored share; want the first event's tokens (k1), TPOT
 * = span / (n - k1) and the classic span / (n - 1). Start 1000 ms. */
struct coalesce_case {
    const char *name;
    enum token_mode mode;
    double t[8];
    uint32_t bytes[8];
    size_t n_tok;      /* events stored */
    uint64_t unstored; /* events past the parser's cap */
    int64_t usage;
    double k1, tpot, classic;
};

/* clang-format off */
static const struct coalesce_case coalescing_cases[] = {
    /* 64 tokens at 10 ms, flushed every 16: 48 tokens in a 480 ms span */
    {"16 per event, even text", TOKENS_AUTO, {1250, 1410, 1570, 1730},
     {16, 16, 16, 16}, 4, 0, 64, 16, 10, 480.0 / 63},
    /* share 64 x 70 / 256 = 17.5, within 25% of 16: even packing */
    {"16 per event, uneven text", TOKENS_AUTO, {1250, 1410, 1570, 1730},
     {70, 60, 66, 60}, 4, 0, 64, 16, 10, 480.0 / 63},
    /* 10 tokens, 3 per event, the last event 1: ceil(10 / 4) = 3 */
    {"3 per event, short last event", TOKENS_AUTO, {1120, 1150, 1180, 1190},
     {3, 3, 3, 1}, 4, 0, 10, 3, 10, 70.0 / 9},
    /* the first token flushed alone, then 4 by 4: the text share says 1 */
    {"first alone, then batched", TOKENS_AUTO, {1100, 1140, 1180, 1220},
     {5, 20, 20, 20}, 4, 0, 13, 1, 10, 10},
    {"one token per event: the classic formula", TOKENS_AUTO,
     {1100, 1110, 1120}, {4, 4, 4}, 3, 0, 3, 1, 10, 10},
    {"usage below the events: the classic formula", TOKENS_AUTO,
     {1100, 1110, 1120}, {4, 4, 4}, 3, 0, 2, 1, 20, 20},
    {"no usage: counted from the events", TOKENS_AUTO, {1100, 1110, 1120},
     {40, 40, 40}, 3, 0, -1, 1, 10, 10},
    {"--tokens chunks over packed usage", TOKENS_CHUNKS,
     {1250, 1410, 1570, 1730}, {16, 16, 16, 16}, 4, 0, 64, 1, 160, 160},
    /* all in one event: nothing to divide (classic: 0 / 256) */
    {"one event carries all", TOKENS_AUTO, {1100}, {900}, 1, 0, 257, 257, X,
     0},
    /* share 10 x 100 / 103 = 9.7 -> 10, but 3 later events carry >= 1 each */
    {"share clamped by the later events", TOKENS_AUTO,
     {1100, 1130, 1160, 1190}, {100, 1, 1, 1}, 4, 0, 10, 7, 30, 10},
    /* past the parser's cap the text of all events is unknown: even */
    {"past the cap: even packing", TOKENS_AUTO, {1100, 1140}, {1, 1}, 2, 2,
     16, 4, 40.0 / 12, 40.0 / 15},
};
/* clang-format on */

static void test_coalescing(void)
{
    struct metrics_buf buf = {0};
    for (size_t c = 0; c < sizeof(coalescing_cases) / sizeof(*coalescing_cases);
         c++) {
        const struct coalesce_case *k = &coalescing_cases[c];
        struct stream_token tokens[8];
        struct metrics_facts f;
        struct request_metrics m;
        memset(&f, 0, sizeof(f));
        memset(tokens, 0, sizeof(tokens));
        f.ok = true;
        f.token_mode = k->mode;
        f.scheduled_ns = -1;
        f.start_ns = ns(1000);
        f.has_result = true;
        f.end_ns = ns(2000);
        f.posttransfer_ns = f.pretransfer_ns = -1;
        for (size_t i = 0; i < k->n_tok; i++) {
            tokens[i].t_ns = ns(k->t[i]);
            tokens[i].text_bytes = k->bytes[i];
            f.text_bytes += k->bytes[i];
        }
        f.tokens = tokens;
        f.n_tokens = k->n_tok;
        f.token_events = k->n_tok + k->unstored;
        f.first_token_ns = f.first_content_ns = tokens[0].t_ns;
        f.last_token_ns = tokens[k->n_tok - 1].t_ns;
        f.done_ns = f.last_feed_ns = -1;
        f.usage_output_tokens = k->usage;
        f.usage_input_tokens = -1;
        f.input_tokens_est = -1;
        memset(&m, 0, sizeof(m));
        CHECK_MSG(metrics_compute(&f, &buf, &m) == METRICS_OK, "%s", k->name);
        CHECK_MSG(near(m.first_event_tokens, k->k1), "%s: k1 got %.17g want %g",
                  k->name, m.first_event_tokens, k->k1);
        CHECK_MSG(near(m.tpot_ms, k->tpot), "%s: tpot got %.17g want %.17g",
                  k->name, m.tpot_ms, k->tpot);
        CHECK_MSG(near(m.tpot_classic_ms, k->classic),
                  "%s: classic got %.17g want %.17g", k->name,
                  m.tpot_classic_ms, k->classic);
        /* the identity TPOT keeps: latency = TTFT + TPOT x (n - k1) */
        if (!isnan(k->tpot))
            CHECK_MSG(near(m.latency_ms,
                           m.ttft_ms + m.tpot_ms * ((double)m.output_tokens -
                                                    m.first_event_tokens)),
                      "%s: latency identity", k->name);
    }
    metrics_buf_free(&buf);
}

/* A buffer that grew for a long stream serves a short one after it. */
static void test_buffer_reuse(void)
{
    struct metrics_buf buf = {0};
    struct stream_token t[3];
    struct metrics_facts f;
    struct request_metrics m;
    uint64_t seed = 7;
    static struct stream_token big[5000];
    shape(0, 5000, &seed, big);
    memset(&f, 0, sizeof(f));
    f.ok = true;
    f.scheduled_ns = f.start_ns = -1;
    f.usage_output_tokens = f.usage_input_tokens = -1;
    f.tokens = big;
    f.n_tokens = f.token_events = 5000;
    CHECK(metrics_compute(&f, &buf, &m) == METRICS_OK && m.n_itl == 4999);
    CHECK(buf.cap >= 5000);
    shape(3, 3, &seed, t);
    f.tokens = t;
    f.n_tokens = f.token_events = 3;
    CHECK(metrics_compute(&f, &buf, &m) == METRICS_OK && m.n_itl == 2 &&
          m.n_token_ns == 3 && m.token_ns == buf.token_ns &&
          m.token_ns[2] == t[2].t_ns && m.itl_max_ms == 0.002);
    f.n_tokens = f.token_events = 0;
    CHECK(metrics_compute(&f, &buf, &m) == METRICS_OK && m.n_itl == 0 &&
          m.n_token_ns == 0 && m.token_ns == NULL && isnan(m.itl_p50_ms));
    metrics_buf_free(&buf);
}

/* llama.cpp's timings pass through; the client overhead is TTFT minus the
 * server's prompt time, kept out for failed requests; without timings all
 * of it is undefined. */
static void test_server_timings(void)
{
    struct metrics_buf buf = {0};
    struct stream_token t[2] = {{.t_ns = 40 * 1000000LL, .text_bytes = 1},
                                {.t_ns = 50 * 1000000LL, .text_bytes = 1}};
    struct metrics_facts f;
    struct request_metrics m;
    memset(&f, 0, sizeof(f));
    f.ok = true;
    f.scheduled_ns = -1;
    f.start_ns = 0;
    f.usage_output_tokens = f.usage_input_tokens = -1;
    f.tokens = t;
    f.n_tokens = f.token_events = 2;
    f.first_token_ns = f.first_content_ns = t[0].t_ns;
    f.last_token_ns = t[1].t_ns;
    f.server.present = true;
    f.server.prompt_ms = 12.5;
    f.server.predicted_ms = 9;
    f.server.predicted_per_token_ms = 4.5;
    f.server.prompt_n = 30;
    f.server.predicted_n = 2;
    f.server.cache_n = 4;
    CHECK(metrics_compute(&f, &buf, &m) == METRICS_OK);
    /* TTFT 40 ms, of which the server spent 12.5 on the prompt */
    CHECK(near(m.client_overhead_ms, 40 - 12.5) &&
          near(m.server_prompt_ms, 12.5) && near(m.server_decode_ms, 9) &&
          near(m.server_tpot_ms, 4.5) && m.server_prompt_n == 30 &&
          m.server_predicted_n == 2 && m.server_cache_n == 4);
    f.ok = false;
    CHECK(metrics_compute(&f, &buf, &m) == METRICS_OK);
    CHECK(isnan(m.client_overhead_ms) && near(m.server_prompt_ms, 12.5));
    f.ok = true;
    f.server.present = false;
    CHECK(metrics_compute(&f, &buf, &m) == METRICS_OK);
    CHECK(isnan(m.client_overhead_ms) && isnan(m.server_prompt_ms) &&
          m.server_prompt_n == -1 && isnan(m.server_tpot_ms));
    metrics_buf_free(&buf);
}

int main(void)
{
    test_cases();
    test_server_timings();
    test_median_against_stats();
    test_coalescing();
    test_buffer_reuse();
    return CHECK_DONE();
}
