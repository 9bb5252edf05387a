/* definitions: each peer tool's per-request formulas, as its source code
 * computes them (docs/definitions.md), over tokentrace's stream facts. */
#include "definitions.h"

#include <math.h>
#include <string.h>

#define API_BIT(k) (1u << (unsigned)(k))

/* clang-format off */
static const struct defs_tool_info tools[DEFS_N_TOOLS] = {
    [DEFS_TOKENTRACE] = {
        "tokentrace", "tokentrace", "analyze/metrics/metrics.c",
        DEFS_PCT_LINEAR,
        {"TTFT", "TPOT", "ITL", "latency"},
        {"first chunk carrying text (reasoning included)",
         "span / tokens after the first chunk",
         "gaps between chunks carrying text, pooled",
         "to the last chunk carrying text"},
        true, 0, NULL},
    [DEFS_VLLM] = {
        "vllm", "vLLM",
        "vllm/benchmarks/lib/endpoint_request_func.py, vllm/benchmarks/serve.py",
        DEFS_PCT_LINEAR,
        {"TTFT", "TPOT", "ITL", "E2EL"},
        {"stops at the first chunk with choices, a role-only chunk included",
         "(E2EL - TTFT) / (usage tokens - 1), both ends at chunks with "
         "choices (role-only and finish chunks count)",
         "gaps between every chunk with choices (role and finish chunks "
         "included), pooled",
         "ends at the last chunk with choices (the finish chunk)"},
        true, 0, NULL},
    [DEFS_SGLANG] = {
        "sglang", "SGLang", "python/sglang/bench_serving.py",
        DEFS_PCT_LINEAR,
        {"TTFT", "TPOT", "ITL", "E2E Latency"},
        {"stops at the first non-empty delta.content: reasoning is not a "
         "token",
         "(E2E - TTFT) / (usage tokens - 1), E2E at the last line ([DONE]); "
         "without usage it divides by max_tokens",
         "gaps between content chunks only, pooled",
         "ends at the last line read ([DONE]), not at the last token"},
        true, API_BIT(API_ANTHROPIC) | API_BIT(API_OPENAI_RESPONSES),
        "a chunk with \"choices\": [] (its parser indexes choices[0])"},
    [DEFS_AIPERF] = {
        "aiperf", "AIPerf",
        "src/aiperf/metrics/types/{ttft,inter_token_latency,request_latency}"
        "_metric.py",
        DEFS_PCT_LINEAR,
        {"Time to First Token", NULL, "Inter Token Latency",
         "Request Latency"},
        {"first response with content or reasoning: tokentrace's clock",
         NULL,
         "(latency - TTFT) / (tokens - 1) per request: tokentrace's classic "
         "TPOT, not the gaps between chunks",
         "to the last content response: tokentrace's latency"},
        false, 0, NULL},
    [DEFS_GUIDELLM] = {
        "guidellm", "GuideLLM",
        "src/guidellm/schemas/request_stats.py, src/guidellm/schemas/"
        "statistics.py, src/guidellm/backends/openai/request_handlers.py",
        DEFS_PCT_INVERTED_CDF,
        {"TTFT", "TPOT", "ITL", "Request Latency"},
        {"first chunk with content, reasoning or any tool_calls delta; "
         "percentiles by inverted CDF",
         "(last token - request start) / tokens: TTFT inside; percentiles "
         "weighted by tokens",
         "(last - first token) / (tokens - 1) per request, weighted by "
         "tokens - 1",
         "to [DONE] (its read loop breaks there), else the connection's end"},
        false, API_BIT(API_ANTHROPIC), NULL},
    [DEFS_LLMPERF] = {
        "llmperf", "LLMPerf",
        "src/llmperf/ray_clients/openai_chat_completions_client.py, "
        "token_benchmark_ray.py",
        DEFS_PCT_LINEAR,
        {"ttft_s", NULL, "inter_token_latency_s", "end_to_end_latency_s"},
        {"first non-empty delta.content: reasoning is not a token",
         NULL,
         "(last content chunk - start) / SSE data events per request: TTFT "
         "inside, role, empty and usage chunks counted",
         "to the end of the stream (every line read)"},
        false,
        API_BIT(API_OPENAI_COMPLETIONS) | API_BIT(API_ANTHROPIC) |
            API_BIT(API_OPENAI_RESPONSES),
        "a chunk with \"choices\": [] (its client indexes choices[0])"},
    [DEFS_GENAI_BENCH] = {
        "genai-bench", "genai-bench",
        "genai_bench/user/openai_user.py, genai_bench/metrics/"
        "request_metrics_collector.py",
        DEFS_PCT_LINEAR,
        {"ttft", "tpot", NULL, "e2e_latency"},
        {"first chunk with content or reasoning_content (none: the usage "
         "chunk)",
         "(e2e - TTFT) / (tokens - 1), e2e at the usage chunk; without usage "
         "its tokenizer counts the text (here: text chunks)",
         NULL,
         "ends when the usage chunk arrives, else at [DONE], else the end"},
        false, 0,
        "no content or reasoning, and no usage chunk of over one token "
        "(time_at_first_token is never set)"},
};
/* clang-format on */

const struct defs_tool_info *defs_tool(enum defs_tool t)
{
    return &tools[t];
}

int defs_tool_from_name(const char *name, enum defs_tool *out)
{
    for (int t = 0; t < DEFS_N_TOOLS; t++)
        if (name && strcmp(name, tools[t].name) == 0) {
            *out = (enum defs_tool)t;
            return 0;
        }
    return -1;
}

void defs_facts_from_stream(const struct stream_state *s, struct defs_facts *f)
{
    memset(f, 0, sizeof(*f));
    f->tokens = s->tokens;
    f->n_tokens = s->n_tokens;
    f->bare_ns = s->bare_choice_ns;
    f->n_bare = s->n_bare_ns;
    f->usage_output_tokens = s->usage_output_tokens;
    f->usage_ns = s->usage_ns;
    f->usage_bare_output_tokens = s->usage_bare_output_tokens;
    f->done_ns = s->done_seen ? s->done_ns : -1;
    f->last_feed_ns = s->last_feed_ns;
    f->api = s->api;
    f->json_events = s->json_events;
    f->empty_choices = s->empty_choices;
    f->tool_call_events = s->tool_call_events;
    f->tool_call_first_ns = s->tool_call_first_ns;
    f->tool_call_last_ns = s->tool_call_last_ns;
    f->tool_name_first_ns = s->tool_name_first_ns;
    f->tool_name_last_ns = s->tool_name_last_ns;
    f->max_tokens = -1;
}

/* Milliseconds from one absolute time to another; NAN when either is
 * unknown. */
static double ms(int64_t from, int64_t to)
{
    if (from < 0 || to < 0)
        return NAN;
    return (double)(to - from) / 1e6;
}

/* Which token events a tool counts as "a token arrived". */
enum which {
    ANY_TEXT,          /* AIPerf: content, reasoning or tool text */
    CONTENT_ONLY,      /* SGLang, LLMPerf: delta.content */
    CONTENT_OR_REASON, /* genai-bench */
};

static bool counts(const struct stream_token *t, enum which w)
{
    switch (w) {
    case CONTENT_ONLY:
        return t->flags & STREAM_TOK_CONTENT;
    case CONTENT_OR_REASON:
        return t->flags & (STREAM_TOK_CONTENT | STREAM_TOK_REASONING);
    default:
        return true;
    }
}

/* First and last counted event times (-1 none) and how many there were. */
static size_t span(const struct defs_facts *f, enum which w, int64_t *first,
                   int64_t *last)
{
    size_t n = 0;
    *first = *last = -1;
    for (size_t i = 0; i < f->n_tokens; i++) {
        if (!counts(&f->tokens[i], w))
            continue;
        if (*first < 0)
            *first = f->tokens[i].t_ns;
        *last = f->tokens[i].t_ns;
        n++;
    }
    return n;
}

/* Appends the gaps between consecutive counted events, ms. */
static int gaps_of(const struct defs_facts *f, enum which w,
                   struct stats_vec *gaps)
{
    int64_t prev = -1;
    for (size_t i = 0; i < f->n_tokens; i++) {
        int rc;
        if (!counts(&f->tokens[i], w))
            continue;
        if (prev >= 0 && (rc = stats_vec_push(
                              gaps, (double)(f->tokens[i].t_ns - prev) / 1e6)))
            return rc;
        prev = f->tokens[i].t_ns;
    }
    return 0;
}

/* vLLM's events: every token event and every bare choice event, merged in
 * time order. Sets first/last; appends the gaps when gaps is not NULL. */
static int vllm_events(const struct defs_facts *f, int64_t *first,
                       int64_t *last, struct stats_vec *gaps)
{
    size_t i = 0, j = 0;
    int64_t prev = -1;
    *first = *last = -1;
    while (i < f->n_tokens || j < f->n_bare) {
        int64_t t;
        if (j >= f->n_bare ||
            (i < f->n_tokens && f->tokens[i].t_ns <= f->bare_ns[j]))
            t = f->tokens[i++].t_ns;
        else
            t = f->bare_ns[j++];
        if (*first < 0)
            *first = t;
        *last = t;
        if (gaps && prev >= 0) {
            int rc = stats_vec_push(gaps, (double)(t - prev) / 1e6);
            if (rc)
                return rc;
        }
        prev = t;
    }
    return 0;
}

/* (e2e - ttft) / (n - 1) for n > 1, the vLLM/SGLang/genai-bench/AIPerf
 * per-request average; NAN otherwise. */
static double per_token_after_first(double e2e, double ttft, int64_t n)
{
    return n > 1 ? (e2e - ttft) / (double)(n - 1) : NAN;
}

/* The usage count when the server gave one above 0, else fallback (its
 * source "chunks"). */
static void tokens_usage_or(const struct defs_facts *f, int64_t fallback,
                            struct defs_result *r)
{
    if (f->usage_output_tokens > 0) {
        r->output_tokens = f->usage_output_tokens;
        r->token_source = "usage";
    } else {
        r->output_tokens = fallback;
        r->token_source = "chunks";
    }
}

static int tokentrace(const struct defs_facts *f, struct defs_result *r,
                      struct stats_vec *gaps)
{
    r->ms[DEFS_TTFT] = f->tt_ttft_ms;
    r->ms[DEFS_TPOT] = f->tt_tpot_ms;
    r->ms[DEFS_E2E] = f->tt_latency_ms;
    tokens_usage_or(f, (int64_t)f->n_tokens, r);
    for (size_t i = 0; gaps && i < f->tt_n_itl; i++) {
        int rc = stats_vec_push(gaps, f->tt_itl_ms[i]);
        if (rc)
            return rc;
    }
    return 0;
}

/* The earlier of two times, -1 (none) losing. */
static int64_t earlier(int64_t a, int64_t b)
{
    return a < 0 ? b : (b < 0 || a <= b ? a : b);
}

/* The later of two times, -1 (none) losing. */
static int64_t later(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

static int vllm(const struct defs_facts *f, struct defs_result *r,
                struct stats_vec *gaps)
{
    int64_t first, last, c_first, c_last;
    int rc = vllm_events(f, &first, &last, gaps);
    size_t n_content = span(f, CONTENT_ONLY, &c_first, &c_last);
    /* it reads usage only from a chunk without choices; else it
     * retokenizes generated_text, which is delta.content only: without a
     * tokenizer, the content chunks stand in */
    if (f->usage_bare_output_tokens > 0) {
        r->output_tokens = f->usage_bare_output_tokens;
        r->token_source = "usage";
    } else {
        r->output_tokens = (int64_t)n_content;
        r->token_source = "chunks";
    }
    r->ms[DEFS_TTFT] = ms(f->start_ns, first);
    r->ms[DEFS_E2E] = ms(f->start_ns, last);
    r->ms[DEFS_TPOT] = per_token_after_first(r->ms[DEFS_E2E], r->ms[DEFS_TTFT],
                                             r->output_tokens);
    return rc;
}

static int sglang(const struct defs_facts *f, struct defs_result *r,
                  struct stats_vec *gaps)
{
    int64_t first, last;
    size_t n = span(f, CONTENT_ONLY, &first, &last);
    int64_t end = f->done_ns >= 0 ? f->done_ns : f->last_feed_ns;
    if (f->usage_output_tokens >= 0) {
        r->output_tokens = f->usage_output_tokens;
        r->token_source = "usage";
    } else if (f->max_tokens >= 0) {
        r->output_tokens = f->max_tokens; /* its fallback: output_len asked */
        r->token_source = "max_tokens";
    } else {
        r->output_tokens = (int64_t)n;
        r->token_source = "chunks";
    }
    /* no content at all (a tool-only stream): its ttft stays 0.0 */
    r->ms[DEFS_TTFT] = n ? ms(f->start_ns, first) : 0.0;
    r->ms[DEFS_E2E] = ms(f->start_ns, end);
    r->ms[DEFS_TPOT] = per_token_after_first(r->ms[DEFS_E2E], r->ms[DEFS_TTFT],
                                             r->output_tokens);
    r->would_fail = f->empty_choices > 0;
    return gaps ? gaps_of(f, CONTENT_ONLY, gaps) : 0;
}

static void aiperf(const struct defs_facts *f, struct defs_result *r)
{
    int64_t first, last;
    size_t n = span(f, ANY_TEXT, &first, &last);
    /* a tool call's text is its function name plus its arguments */
    first = earlier(first, f->tool_name_first_ns);
    last = later(last, f->tool_name_last_ns);
    tokens_usage_or(f, (int64_t)n, r); /* --use-server-token-count */
    r->ms[DEFS_TTFT] = ms(f->start_ns, first);
    r->ms[DEFS_E2E] = ms(f->start_ns, last);
    r->ms[DEFS_ITL] = per_token_after_first(r->ms[DEFS_E2E], r->ms[DEFS_TTFT],
                                            r->output_tokens);
}

static void guidellm(const struct defs_facts *f, struct defs_result *r)
{
    int64_t first, last;
    size_t n_text = 0;
    /* an iteration: content, reasoning or any tool_calls delta */
    (void)span(f, ANY_TEXT, &first, &last);
    for (size_t i = 0; i < f->n_tokens; i++)
        n_text += !(f->tokens[i].flags & STREAM_TOK_TOOL);
    first = earlier(first, f->tool_call_first_ns);
    last = later(last, f->tool_call_last_ns);
    tokens_usage_or(f, (int64_t)(n_text + f->tool_call_events), r);
    /* time_to_first_token_ms or 0.0: a request without one counts 0 */
    r->ms[DEFS_TTFT] = first >= 0 ? ms(f->start_ns, first) : 0.0;
    r->ms[DEFS_TPOT] = r->output_tokens > 0
                           ? ms(f->start_ns, last >= 0 ? last : f->end_ns) /
                                 (double)r->output_tokens
                           : 0.0;
    r->weight[DEFS_TPOT] = r->output_tokens > 0 ? (double)r->output_tokens : 0;
    r->ms[DEFS_ITL] = r->output_tokens > 1
                          ? ms(first, last) / (double)(r->output_tokens - 1)
                          : 0.0;
    if (isnan(r->ms[DEFS_ITL]))
        r->ms[DEFS_ITL] = 0.0; /* its None, counted as 0.0 */
    r->weight[DEFS_ITL] =
        r->output_tokens > 1 ? (double)(r->output_tokens - 1) : 0;
    r->ms[DEFS_E2E] = ms(f->start_ns, f->done_ns >= 0 ? f->done_ns : f->end_ns);
}

static void llmperf(const struct defs_facts *f, struct defs_result *r)
{
    int64_t first, last;
    size_t n = span(f, CONTENT_ONLY, &first, &last);
    /* the summed gaps (= last content - start) over tokens_received, which
     * counts every data line but [DONE]; 0 when the text has no tokens */
    r->output_tokens = (int64_t)f->json_events;
    r->token_source = "sse_events";
    r->ms[DEFS_TTFT] = ms(f->start_ns, first);
    r->ms[DEFS_ITL] = n == 0 ? 0.0
                      : f->json_events > 0
                          ? ms(f->start_ns, last) / (double)f->json_events
                          : NAN;
    r->ms[DEFS_E2E] = ms(f->start_ns, f->end_ns);
    r->would_fail = f->empty_choices > 0;
}

static void genai_bench(const struct defs_facts *f, struct defs_result *r)
{
    int64_t first, last, end;
    size_t n = span(f, CONTENT_OR_REASON, &first, &last);
    end = f->usage_ns >= 0 ? f->usage_ns
                           : (f->done_ns >= 0 ? f->done_ns : f->end_ns);
    /* no usage: its tokenizer counts the text; the chunks stand in */
    tokens_usage_or(f, (int64_t)n, r);
    /* no text but a usage chunk ("choices": []) of more than one token:
     * TTFT is then; with neither, time_at_first_token stays None and the
     * request fails */
    if (first < 0 && f->usage_bare_output_tokens > 1)
        first = f->usage_ns;
    r->would_fail = first < 0;
    r->ms[DEFS_TTFT] = ms(f->start_ns, first);
    r->ms[DEFS_E2E] = ms(f->start_ns, end);
    r->ms[DEFS_TPOT] = per_token_after_first(r->ms[DEFS_E2E], r->ms[DEFS_TTFT],
                                             r->output_tokens);
}

int defs_compute(enum defs_tool t, const struct defs_facts *f,
                 struct defs_result *r, struct stats_vec *gaps)
{
    for (int m = 0; m < DEFS_N_METRICS; m++) {
        r->ms[m] = NAN;
        r->weight[m] = 1;
    }
    r->output_tokens = -1;
    r->token_source = "chunks";
    r->would_fail = false;
    r->cannot_parse = (tools[t].cannot_parse & API_BIT(f->api)) != 0;
    if (r->cannot_parse)
        return 0;
    switch (t) {
    case DEFS_TOKENTRACE:
        return tokentrace(f, r, gaps);
    case DEFS_VLLM:
        return vllm(f, r, gaps);
    case DEFS_SGLANG:
        return sglang(f, r, gaps);
    case DEFS_AIPERF:
        aiperf(f, r);
        return 0;
    case DEFS_GUIDELLM:
        guidellm(f, r);
        return 0;
    case DEFS_LLMPERF:
        llmperf(f, r);
        return 0;
    default:
        genai_bench(f, r);
        return 0;
    }
}
