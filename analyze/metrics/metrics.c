/* metrics: one request's facts in, its per-request numbers out (the
 * formulas of docs/metrics.md, "Per request"). */
#include "metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error_kinds.h"
#include "stats.h"
#include "stream_bursts.h"

/* Milliseconds from one absolute time to another; NAN when either is
 * unknown. */
static double ms_between(int64_t from, int64_t to)
{
    if (from < 0 || to < 0)
        return NAN;
    return (double)(to - from) / 1e6;
}

/* When the request was fully sent: libcurl's post-transfer time, else its
 * pre-transfer time (the moment sending starts); -1 unknown. */
static int64_t sent_ns(const struct metrics_facts *f)
{
    int64_t after;
    if (!f->has_result || f->start_ns < 0)
        return -1;
    after = f->posttransfer_ns >= 0 ? f->posttransfer_ns : f->pretransfer_ns;
    return after >= 0 ? f->start_ns + after : -1;
}

/* Classic TPOT: the generation span over the output_tokens - 1 gaps after
 * the first token, as most tools define it; undefined below 2 tokens. Under
 * coalescing it is biased low (the first event's extra tokens are counted
 * as generated inside the span). */
static double tpot_classic_ms(int64_t first_token_ns, int64_t last_token_ns,
                              int64_t output_tokens)
{
    if (output_tokens < 2)
        return NAN;
    return ms_between(first_token_ns, last_token_ns) /
           (double)(output_tokens - 1);
}

/* How many of the n output tokens the first token event carried (k1).
 * 1 when the events carry one token each (n <= events, or the count comes
 * from the events). Else two estimates: even packing, u = ceil(n /
 * events) (every event full but maybe the last: exact for a server that
 * flushes every u tokens), and the first event's share of the stored text,
 * s = n x its text_bytes / all text_bytes (right when the first event is
 * flushed alone and later ones are batched, but off by the byte-length
 * spread of tokens). When s is within 25% of u the packing is even and u
 * is taken; else s rounded (a token count is whole). Kept within [1, n -
 * (events - 1)]: every later event carried at least one token. */
static double first_event_tokens(const struct metrics_facts *f, int64_t n)
{
    double k, hi, even;
    uint64_t ev = f->token_events;
    if (n <= 0 || ev == 0 || (uint64_t)n <= ev)
        return 1;
    even = (double)(((uint64_t)n + ev - 1) / ev);
    k = even;
    if (f->n_tokens > 0 && f->n_tokens == ev && f->text_bytes > 0) {
        double share =
            (double)n * (double)f->tokens[0].text_bytes / (double)f->text_bytes;
        if (fabs(share - even) > 0.25 * even)
            k = floor(share + 0.5);
    }
    hi = (double)n - (double)(ev - 1);
    if (k > hi)
        k = hi;
    return k < 1 ? 1 : k;
}

/* TPOT: the generation span over the tokens generated after the first
 * event, n - k1 (k1 = first_event_tokens), so latency = TTFT + TPOT x
 * (n - k1) holds and a first event carrying k tokens does not bias it low.
 * With one token per event k1 = 1: the classic formula. Undefined below 2
 * tokens or when a single event carried them all (no span to divide). */
static double tpot_ms(const struct metrics_facts *f, int64_t n,
                      double *first_tokens)
{
    double k1, span;
    *first_tokens = NAN;
    if (n < 2)
        return NAN;
    k1 = first_event_tokens(f, n);
    *first_tokens = k1;
    span = ms_between(f->first_token_ns, f->last_token_ns);
    if (!((double)n - k1 > 0))
        return NAN;
    return span / ((double)n - k1);
}

/* TPS: output tokens over latency in seconds (TTFT included). */
static double tps(int64_t output_tokens, double latency_ms)
{
    if (output_tokens < 0 || !(latency_ms > 0))
        return NAN;
    return (double)output_tokens / (latency_ms / 1000.0);
}

/* The measured class of a request from its input and output tokens. */
static const char *measured_class(int64_t input, int64_t output)
{
    bool long_in = input > METRICS_LONG_INPUT;
    bool long_out = output > METRICS_LONG_OUTPUT;
    if (long_in && long_out)
        return "long-long";
    if (long_in)
        return "long-short";
    return long_out ? "short-long" : "short-short";
}

/* Output tokens and their source under f->token_mode: usage when the stream
 * reported it (or when forced), else the token events. */
static void output_tokens(const struct metrics_facts *f,
                          struct request_metrics *m)
{
    if (f->token_mode == TOKENS_CHUNKS ||
        (f->token_mode == TOKENS_AUTO && f->usage_output_tokens < 0)) {
        m->output_tokens = (int64_t)f->token_events;
        m->token_source = "chunks";
    } else {
        m->output_tokens = f->usage_output_tokens;
        m->token_source = "usage";
    }
}

/* ---- the token arrays ----------------------------------------------- */

static int buf_reserve(struct metrics_buf *b, size_t n)
{
    int64_t *t;
    double *g;
    if (b->cap >= n)
        return METRICS_OK;
    t = realloc(b->token_ns, n * sizeof(*t));
    if (!t)
        return METRICS_E_NOMEM;
    b->token_ns = t;
    g = realloc(b->itl_ms, n * sizeof(*g));
    if (!g)
        return METRICS_E_NOMEM; /* cap unchanged: token_ns is only larger */
    b->itl_ms = g;
    b->cap = n;
    return METRICS_OK;
}

/* The n - 1 gaps between n > 1 token times, ms. Returns the largest. */
static double gaps_ms(const int64_t *t, size_t n, double *out)
{
    double max = out[0] = (double)(t[1] - t[0]) / 1e6;
    for (size_t i = 2; i < n; i++) {
        out[i - 1] = (double)(t[i] - t[i - 1]) / 1e6;
        if (out[i - 1] > max)
            max = out[i - 1];
    }
    return max;
}

static void swap(double *v, size_t i, size_t j)
{
    double x = v[i];
    v[i] = v[j];
    v[j] = x;
}

/* Puts the k-th smallest of v[0..n) (no NaN) at v[k], with nothing larger
 * before it and nothing smaller after it. Three-way partitions around a
 * median of three (runs of equal gaps are common); when partitions keep
 * being lopsided the rest is sorted, so no input costs more than
 * O(n log n). */
static void select_kth(double *v, size_t n, size_t k)
{
    size_t lo = 0, hi = n; /* v[k] is decided within [lo, hi) */
    unsigned budget = 64;
    while (hi - lo > 16) {
        size_t mid = lo + (hi - lo) / 2, lt = lo, i = lo, gt = hi;
        double a = v[lo], b = v[mid], c = v[hi - 1], pivot;
        if (budget-- == 0) {
            qsort(v + lo, hi - lo, sizeof(*v), quantile_cmp_double);
            return;
        }
        pivot = a < b ? (b < c ? b : (a < c ? c : a))
                      : (a < c ? a : (b < c ? c : b));
        while (i < gt) {
            if (v[i] < pivot)
                swap(v, lt++, i++);
            else if (v[i] > pivot)
                swap(v, i, --gt);
            else
                i++;
        }
        if (k < lt)
            hi = lt;
        else if (k >= gt)
            lo = gt;
        else
            return; /* v[k] is the pivot */
    }
    qsort(v + lo, hi - lo, sizeof(*v), quantile_cmp_double);
}

/* The type-7 median of n > 0 values (no NaN), reordering v: the same bits
 * as stats_summarize's p50, found in O(n) instead of a sort. The two
 * middle values are found by selection and interpolated by
 * quantile_sorted itself (k = (n - 1) / 2 has a fraction of 0 or
 * exactly 0.5, which is p 0 or 50 of the pair). */
static double median(double *v, size_t n)
{
    double k = (50 / 100.0) * (double)(n - 1), pair[2];
    size_t lo = (size_t)floor(k);
    select_kth(v, n, lo);
    if (lo >= n - 1)
        return v[lo];
    pair[0] = v[lo];
    pair[1] = v[lo + 1];
    for (size_t i = lo + 2; i < n; i++)
        if (v[i] < pair[1])
            pair[1] = v[i];
    return quantile_sorted(pair, 2, k > (double)lo ? 50 : 0);
}

/* Token times for every request, and ITL with its median and largest gap
 * for successful ones. */
static int token_arrays(const struct metrics_facts *f, struct metrics_buf *b,
                        struct request_metrics *m)
{
    size_t n = f->n_tokens;
    double *itl;
    m->token_ns = NULL;
    m->itl_ms = NULL;
    m->n_token_ns = m->n_itl = 0;
    m->itl_p50_ms = m->itl_max_ms = NAN;
    if (n == 0)
        return METRICS_OK;
    if (buf_reserve(b, n) != METRICS_OK)
        return METRICS_E_NOMEM;
    for (size_t i = 0; i < n; i++)
        b->token_ns[i] = f->tokens[i].t_ns;
    m->token_ns = b->token_ns;
    m->n_token_ns = n;
    if (!f->ok || n < 2)
        return METRICS_OK;
    itl = b->itl_ms;
    m->itl_max_ms = gaps_ms(b->token_ns, n, itl);
    m->itl_p50_ms = median(itl, n - 1);
    (void)gaps_ms(b->token_ns, n, itl); /* arrival order again */
    m->itl_ms = itl;
    m->n_itl = n - 1;
    return METRICS_OK;
}

/* ---- gateway buffering ---------------------------------------------- */

/* The share of gaps inside bursts and whether the request looks held and
 * released by something between the server and the client
 * (common/stream_bursts.h), or its ITL is far below the server's own time
 * per token. m's ITL p50, server TPOT and tokens per chunk must be set. */
static void buffering(const struct metrics_facts *f, struct request_metrics *m)
{
    struct stream_bursts b;
    m->burst_share = NAN;
    m->buffered = false;
    if (!f->ok || f->n_tokens < 2)
        return;
    stream_bursts_of(f->tokens, f->n_tokens, &b);
    m->burst_share = stream_bursts_share(&b);
    m->buffered = stream_bursts_buffered(&b, m->tokens_per_chunk);
    /* the server's time per token far above the ITL p50 means buffering
     * only when the gaps are bursts too: a real decode that stalls while
     * another slot prefills lifts the server's mean (predicted_ms /
     * tokens) over a normal p50 with no burst at all */
    if (m->server_tpot_ms > 0 && m->itl_p50_ms < 0.25 * m->server_tpot_ms &&
        m->burst_share >= STREAM_BUFFERED_SHARE)
        m->buffered = true;
}

/* ---- the whole request ---------------------------------------------- */

int metrics_compute(const struct metrics_facts *f, struct metrics_buf *buf,
                    struct request_metrics *m)
{
    int rc;
    m->ok = f->ok;
    m->open_loop = f->scheduled_ns >= 0;
    m->scheduled_ns = f->scheduled_ns;
    m->start_ns = f->start_ns;
    m->first_token_ns = f->first_token_ns;
    m->first_content_ns = f->first_content_ns;
    m->last_token_ns = f->last_token_ns;
    m->end_ns = f->has_result ? f->end_ns : f->last_feed_ns;
    m->stream_end_ns = f->done_seen ? f->done_ns : m->end_ns;

    m->usage_output_tokens = f->usage_output_tokens;
    m->token_events = (int64_t)f->token_events;
    m->reasoning_events = (int64_t)f->reasoning_events;
    output_tokens(f, m);
    m->usage_disagrees = f->usage_output_tokens >= 0 &&
                         f->usage_output_tokens != m->token_events;
    m->tokens_per_chunk =
        f->usage_output_tokens >= 0 && f->token_events > 0
            ? (double)f->usage_output_tokens / (double)f->token_events
            : NAN;
    m->text_bytes = (int64_t)f->text_bytes;
    m->text_bytes_per_event =
        f->token_events ? (double)f->text_bytes / (double)f->token_events : NAN;
    m->input_tokens = f->usage_input_tokens;
    m->input_tokens_est = f->input_tokens_est;
    m->input_bytes = f->input_bytes;
    m->cached_tokens = f->cached_tokens;
    m->cached_derived = f->cached_derived;
    m->asked_input_tokens = f->asked_input_tokens;
    m->asked_output_tokens = f->asked_output_tokens;
    m->input_error_pct = f->asked_input_tokens > 0 && f->usage_input_tokens >= 0
                             ? 100.0 *
                                   fabs((double)f->usage_input_tokens -
                                        (double)f->asked_input_tokens) /
                                   (double)f->asked_input_tokens
                             : NAN;
    m->first_tool_ms = NAN;
    for (size_t i = 0; f->ok && i < f->n_tokens; i++)
        if (f->tokens[i].flags & STREAM_TOK_TOOL) {
            m->first_tool_ms = ms_between(f->start_ns, f->tokens[i].t_ns);
            break;
        }
    /* the class by size: the server's count, else the estimate */
    m->measured_class = measured_class(
        m->input_tokens >= 0 ? m->input_tokens : m->input_tokens_est,
        m->output_tokens);

    m->ttft_ms = ms_between(f->start_ns, f->first_token_ns);
    m->ttft_content_ms = ms_between(f->start_ns, f->first_content_ns);
    m->server_ttft_ms = ms_between(sent_ns(f), f->first_token_ns);
    m->latency_ms = ms_between(f->start_ns, f->last_token_ns);
    m->stream_end_ms = ms_between(f->start_ns, m->stream_end_ns);
    m->tpot_ms = tpot_ms(f, m->output_tokens, &m->first_event_tokens);
    m->tpot_classic_ms =
        tpot_classic_ms(f->first_token_ns, f->last_token_ns, m->output_tokens);
    m->tps = tps(m->output_tokens, m->latency_ms);
    m->send_lag_ms =
        m->open_loop ? ms_between(f->scheduled_ns, f->start_ns) : NAN;
    m->cap_wait_ms = m->client_lag_ms = NAN;
    if (m->open_loop) {
        bool held = f->cap_released_ns > f->scheduled_ns;
        m->cap_wait_ms =
            held ? ms_between(f->scheduled_ns, f->cap_released_ns) : 0.0;
        m->client_lag_ms =
            held ? ms_between(f->cap_released_ns, f->start_ns) : m->send_lag_ms;
    }
    m->response_ttft_ms =
        m->open_loop ? ms_between(f->scheduled_ns, f->first_token_ns) : NAN;
    m->response_latency_ms =
        m->open_loop ? ms_between(f->scheduled_ns, f->last_token_ns) : NAN;
    m->server_prompt_ms = f->server.present ? f->server.prompt_ms : NAN;
    m->server_decode_ms = f->server.present ? f->server.predicted_ms : NAN;
    m->server_tpot_ms =
        f->server.present ? f->server.predicted_per_token_ms : NAN;
    m->server_prompt_n = f->server.present ? f->server.prompt_n : -1;
    m->server_predicted_n = f->server.present ? f->server.predicted_n : -1;
    m->server_cache_n = f->server.present ? f->server.cache_n : -1;
    m->client_overhead_ms = m->ttft_ms - m->server_prompt_ms; /* NAN-safe */
    if (!m->ok) { /* failed requests stay out of the timing distributions */
        m->ttft_ms = m->ttft_content_ms = m->server_ttft_ms = NAN;
        m->tpot_ms = m->tpot_classic_ms = m->latency_ms = m->tps = NAN;
        m->first_event_tokens = NAN;
        m->response_ttft_ms = m->response_latency_ms = NAN;
        m->client_overhead_ms = NAN;
    }
    m->keepalives = (int64_t)f->comments;
    rc = token_arrays(f, buf, m);
    buffering(f, m);
    return rc;
}

void metrics_buf_free(struct metrics_buf *buf)
{
    if (!buf)
        return;
    free(buf->token_ns);
    free(buf->itl_ms);
    memset(buf, 0, sizeof(*buf));
}

enum metrics_outcome metrics_outcome(const struct request_metrics *m)
{
    if (m->ok)
        return METRICS_OUTCOME_OK;
    if (m->error_kind && strcmp(m->error_kind, ERROR_KIND_INTERRUPTED) == 0)
        return METRICS_OUTCOME_INTERRUPTED;
    return METRICS_OUTCOME_FAILED;
}
