/* definitions_test: every tool's per-request numbers over one hand-made
 * chat stream, each expected value computed here from the tool's published
 * formula (docs/definitions.md), and the two percentile methods. */
#include "definitions.h"

#include <math.h>
#include <string.h>

#include "check.h"

#define MS 1000000 /* ns per ms */
#define CHUNK(json) "data: " json "\n\n"
#define DELTA(d) CHUNK("{\"choices\":[{\"index\":0,\"delta\":" d "}]}")

/* One receive: its time in ms after the start, and its bytes. */
struct recv {
    int64_t t_ms;
    const char *bytes;
};

/* The stream: a role-only first chunk at 100 ms, reasoning at 150 and 170,
 * answer text in multi-token chunks at 200, 230, 260, a finish chunk
 * without text at 270, usage (9 tokens) at 280, [DONE] at 290; the
 * connection ends at 300. */
static const struct recv stream_with_usage[] = {
    {100, DELTA("{\"role\":\"assistant\",\"content\":\"\"}")},
    {150, DELTA("{\"reasoning_content\":\"Let\"}")},
    {170, DELTA("{\"reasoning_content\":\" me\"}")},
    {200, DELTA("{\"content\":\"Hello wor\"}")},
    {230, DELTA("{\"content\":\"ld, how\"}")},
    {260, DELTA("{\"content\":\" are you\"}")},
    {270, CHUNK("{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":"
                "\"stop\"}]}")},
    {280, CHUNK("{\"choices\":[],\"usage\":{\"prompt_tokens\":5,"
                "\"completion_tokens\":9}}")},
    {290, "data: [DONE]\n\n"},
};

static void feed(struct stream_state *s, const struct recv *r, size_t n,
                 bool slow)
{
    stream_state_init(s, API_OPENAI_CHAT, 0);
    s->slow_json = slow;
    for (size_t i = 0; i < n; i++)
        stream_feed(s, r[i].t_ms * MS, r[i].bytes, strlen(r[i].bytes));
    stream_finish(s);
}

static void facts_from(const struct stream_state *s, int64_t max_tokens,
                       struct defs_facts *f)
{
    defs_facts_from_stream(s, f);
    f->start_ns = 0;
    f->end_ns = 300 * MS;
    f->max_tokens = max_tokens;
    f->tt_ttft_ms = 150;
    f->tt_tpot_ms = 12.5;
    f->tt_latency_ms = 260;
}

static bool near(double got, double want)
{
    return (isnan(want) && isnan(got)) || fabs(got - want) < 1e-9;
}

#define CHECK_MS(tool, r, m, want)                                             \
    CHECK_MSG(near((r).ms[m], (want)), "%s %s: %.9g, want %.9g", tool, #m,     \
              (r).ms[m], (double)(want))

/* Gaps appended to v, in ms, against the list want (n of them). */
static void check_gaps(const char *tool, const struct stats_vec *v,
                       const double *want, size_t n)
{
    CHECK_MSG(v->n == n, "%s: %zu gaps, want %zu", tool, v->n, n);
    for (size_t i = 0; i < n && i < v->n; i++)
        CHECK_MSG(near(v->v[i], want[i]), "%s gap %zu: %g, want %g", tool, i,
                  v->v[i], want[i]);
}

/* Every tool over the stream with usage. n = 9 usage tokens throughout. */
static void test_with_usage(bool slow)
{
    const double n = 9;
    struct stream_state s;
    struct defs_facts f;
    struct defs_result r;
    struct stats_vec gaps;
    feed(&s, stream_with_usage,
         sizeof(stream_with_usage) / sizeof(stream_with_usage[0]), slow);
    CHECK(s.n_tokens == 5 && s.bare_choices == 2);
    facts_from(&s, 64, &f);
    stats_vec_init(&gaps, 0);

    /* vLLM: TTFT at the first chunk with choices (the role chunk, 100);
     * E2EL at the last one (the finish chunk, 270); TPOT = (E2EL - TTFT) /
     * (n - 1); ITL = every gap between chunks with choices. */
    CHECK(defs_compute(DEFS_VLLM, &f, &r, &gaps) == 0);
    CHECK_MS("vllm", r, DEFS_TTFT, 100);
    CHECK_MS("vllm", r, DEFS_E2E, 270);
    CHECK_MS("vllm", r, DEFS_TPOT, (270.0 - 100) / (n - 1));
    check_gaps("vllm", &gaps, (const double[]){50, 20, 30, 30, 30, 10}, 6);
    CHECK(r.output_tokens == 9 && strcmp(r.token_source, "usage") == 0);

    /* SGLang: TTFT at the first delta.content (200); latency at the last
     * line read ([DONE], 290); TPOT = (latency - TTFT) / (n - 1); ITL =
     * gaps between content chunks. */
    stats_vec_reset(&gaps);
    CHECK(defs_compute(DEFS_SGLANG, &f, &r, &gaps) == 0);
    CHECK_MS("sglang", r, DEFS_TTFT, 200);
    CHECK_MS("sglang", r, DEFS_E2E, 290);
    CHECK_MS("sglang", r, DEFS_TPOT, (290.0 - 200) / (n - 1));
    check_gaps("sglang", &gaps, (const double[]){30, 30}, 2);

    /* AIPerf: TTFT at the first content response, reasoning included
     * (150); request latency at the last one (260); ITL = (latency - TTFT)
     * / (n - 1). */
    CHECK(defs_compute(DEFS_AIPERF, &f, &r, NULL) == 0);
    CHECK_MS("aiperf", r, DEFS_TTFT, 150);
    CHECK_MS("aiperf", r, DEFS_E2E, 260);
    CHECK_MS("aiperf", r, DEFS_ITL, (260.0 - 150) / (n - 1));
    CHECK_MS("aiperf", r, DEFS_TPOT, NAN);

    /* GuideLLM: first/last iteration = chunks with content or reasoning
     * (150, 260; request_handlers.py add_streaming_line); TPOT = (last -
     * start) / n weighted by n; ITL = (last - first) / (n - 1) weighted by
     * n - 1; request latency to [DONE] (290), where its read loop breaks
     * (http.py). */
    CHECK(defs_compute(DEFS_GUIDELLM, &f, &r, NULL) == 0);
    CHECK_MS("guidellm", r, DEFS_TTFT, 150);
    CHECK_MS("guidellm", r, DEFS_TPOT, 260.0 / n);
    CHECK_MS("guidellm", r, DEFS_ITL, (260.0 - 150) / (n - 1));
    CHECK_MS("guidellm", r, DEFS_E2E, 290);
    CHECK(r.weight[DEFS_TPOT] == n && r.weight[DEFS_ITL] == n - 1 &&
          r.weight[DEFS_TTFT] == 1);

    /* LLMPerf: TTFT at the first delta.content (200); ITL = sum of the
     * gaps from the start to the last content chunk / tokens_received,
     * every data line but [DONE] (8 here: role, 2 reasoning, 3 content,
     * finish, usage) = 260 / 8; E2E to the end of the stream (300). The
     * usage chunk's "choices": [] would make its client fail the request. */
    CHECK(defs_compute(DEFS_LLMPERF, &f, &r, NULL) == 0);
    CHECK_MS("llmperf", r, DEFS_TTFT, 200);
    CHECK_MS("llmperf", r, DEFS_ITL, 260.0 / 8);
    CHECK_MS("llmperf", r, DEFS_E2E, 300);
    CHECK(r.would_fail);

    /* genai-bench: TTFT at the first content or reasoning_content (150);
     * e2e when the usage chunk arrives (280); TPOT = (e2e - TTFT) / (n -
     * 1). */
    CHECK(defs_compute(DEFS_GENAI_BENCH, &f, &r, NULL) == 0);
    CHECK_MS("genai-bench", r, DEFS_TTFT, 150);
    CHECK_MS("genai-bench", r, DEFS_E2E, 280);
    CHECK_MS("genai-bench", r, DEFS_TPOT, (280.0 - 150) / (n - 1));

    /* tokentrace: its own numbers, passed through. */
    CHECK(defs_compute(DEFS_TOKENTRACE, &f, &r, NULL) == 0);
    CHECK_MS("tokentrace", r, DEFS_TTFT, 150);
    CHECK_MS("tokentrace", r, DEFS_TPOT, 12.5);
    stats_vec_free(&gaps);
    stream_state_free(&s);
}

/* Without usage each tool falls back its own way: vLLM retokenizes the
 * content (here: its 3 chunks), SGLang takes max_tokens, genai-bench
 * tokenizes content and reasoning (here: their 5 chunks). */
static void test_without_usage(void)
{
    struct stream_state s;
    struct defs_facts f;
    struct defs_result res;
    feed(&s, stream_with_usage, 6, false); /* up to 260 ms: no finish chunk,
                                              no usage, no [DONE] */
    facts_from(&s, 64, &f);
    CHECK(defs_compute(DEFS_VLLM, &f, &res, NULL) == 0);
    /* 3 content events; E2EL at the last chunk with choices (260) */
    CHECK(res.output_tokens == 3 && strcmp(res.token_source, "chunks") == 0);
    CHECK_MS("vllm no usage", res, DEFS_TPOT, (260.0 - 100) / (3 - 1));
    CHECK(defs_compute(DEFS_SGLANG, &f, &res, NULL) == 0);
    /* no [DONE]: latency at the last bytes (260); n = max_tokens 64 */
    CHECK(res.output_tokens == 64 &&
          strcmp(res.token_source, "max_tokens") == 0);
    CHECK_MS("sglang no usage", res, DEFS_TPOT, (260.0 - 200) / (64 - 1));
    CHECK(defs_compute(DEFS_GENAI_BENCH, &f, &res, NULL) == 0);
    CHECK_MS("genai-bench no usage", res, DEFS_TPOT, (300.0 - 150) / (5 - 1));
    CHECK_MS("genai-bench no usage", res, DEFS_E2E, 300);
    CHECK(defs_compute(DEFS_GUIDELLM, &f, &res, NULL) == 0);
    /* its token iterations: the 2 reasoning and 3 content chunks */
    CHECK_MS("guidellm no usage", res, DEFS_TPOT, 260.0 / 5);
    stream_state_free(&s);
}

/* numpy's linear percentiles and GuideLLM's inverted CDF. */
static void test_percentiles(void)
{
    double a[4] = {4, 1, 3, 2}, b[4] = {4, 1, 3, 2}, c[10];
    struct defs_summary s;
    defs_summarize(a, NULL, 4, DEFS_PCT_LINEAR, &s);
    /* k = 3p: p50 between 2 and 3, p90 = 3 + 0.7, p99 = 3 + 0.97 */
    CHECK(s.n == 4 && near(s.mean, 2.5) && near(s.p50, 2.5) &&
          near(s.p90, 3.7) && near(s.p99, 3.97));
    defs_summarize(b, NULL, 4, DEFS_PCT_INVERTED_CDF, &s);
    /* CDF 0.25, 0.5, 0.75, 1: first value whose CDF >= p */
    CHECK(s.n == 4 && near(s.mean, 2.5) && near(s.p50, 2) && near(s.p90, 4) &&
          near(s.p99, 4));
    /* ten values: nine 0.1 steps sum to 0.8999999999999999 < 0.9, so
     * GuideLLM's p90 is the tenth value, as numpy's cumsum gives */
    for (int i = 0; i < 10; i++)
        c[i] = i + 1;
    defs_summarize(c, NULL, 10, DEFS_PCT_INVERTED_CDF, &s);
    CHECK_MSG(near(s.p50, 5) && near(s.p90, 10), "p50 %g p90 %g", s.p50, s.p90);
    defs_summarize(c, NULL, 0, DEFS_PCT_LINEAR, &s);
    {
        /* GuideLLM's token-weighted TPOT: 10 ms over 1 token and 20 ms
         * over 3 make a PDF of 0.25 and 0.75: p50 is 20 (unweighted, the
         * inverted CDF's p50 of two values is the smaller, 10), the mean
         * 17.5; a weight-0 value is dropped as from_values drops it. */
        double v[3] = {20, 5, 10}, w[3] = {3, 0, 1};
        struct defs_summary ws;
        defs_summarize(v, w, 3, DEFS_PCT_INVERTED_CDF, &ws);
        CHECK_MSG(ws.p50 == 20 && ws.p99 == 20 && near(ws.mean, 17.5),
                  "weighted p50 %g mean %g", ws.p50, ws.mean);
    }
    CHECK(s.n == 0 && isnan(s.p50) && isnan(s.mean));
}

/* The collector keeps one value per request (pooled gaps for ITL of the
 * pooling tools) and counts the request shapes. */
static void test_collect(void)
{
    struct stream_state s;
    struct defs_facts f;
    struct defs_collect c;
    struct defs_summary sum;
    feed(&s, stream_with_usage,
         sizeof(stream_with_usage) / sizeof(stream_with_usage[0]), false);
    facts_from(&s, 64, &f);
    defs_collect_init(&c);
    CHECK(defs_collect_add(&c, &f) == 0 && defs_collect_add(&c, &f) == 0);
    CHECK(c.requests == 2 && c.role_first == 2 && c.reasoning_first == 2 &&
          c.no_usage == 0 && c.packed == 2);
    CHECK(c.v[DEFS_VLLM][DEFS_ITL].n == 12 && c.v[DEFS_VLLM][DEFS_TTFT].n == 2);
    CHECK(c.v[DEFS_AIPERF][DEFS_TPOT].n == 0);
    defs_collect_summary(&c, DEFS_SGLANG, DEFS_ITL, &sum);
    CHECK(sum.n == 4 && near(sum.p50, 30));
    defs_collect_free(&c);
    defs_collect_free(NULL);
    stream_state_free(&s);
}

static void test_names(void)
{
    enum defs_tool t;
    CHECK(defs_tool_from_name("genai-bench", &t) == 0 && t == DEFS_GENAI_BENCH);
    CHECK(defs_tool_from_name("vLLM", &t) == -1);
    CHECK(defs_tool_from_name(NULL, &t) == -1);
    for (int i = 0; i < DEFS_N_TOOLS; i++)
        CHECK(defs_tool((enum defs_tool)i)->metric_name[DEFS_TTFT] != NULL);
}

int main(void)
{
    test_with_usage(false);
    test_with_usage(true);
    test_without_usage();
    test_percentiles();
    test_collect();
    test_names();
    return CHECK_DONE();
}
