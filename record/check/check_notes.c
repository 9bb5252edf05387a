/* check_notes: the numbers of a --check probe that streamed (tokens, TPOT)
 * and the notes and warnings about them. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "check_verdict.h"
#include "error_classify.h"

int64_t check_output_tokens(const struct probe_facts *f, const char **source)
{
    if (f->usage_tokens >= 0) {
        *source = "usage";
        return f->usage_tokens;
    }
    *source = "chunks";
    return (int64_t)f->token_events;
}

double check_tpot_ms(const struct probe_facts *f)
{
    const char *source;
    int64_t n = check_output_tokens(f, &source);
    if (n < 2 || f->ttft_ns < 0 || f->last_token_ns < f->ttft_ns)
        return -1;
    return (double)(f->last_token_ns - f->ttft_ns) / 1e6 / (double)(n - 1);
}

/* Adds one note (warn: a warning). */
static void add(struct check_notes *out, bool warn, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void add(struct check_notes *out, bool warn, const char *fmt, ...)
{
    va_list ap;
    if (out->n == CHECK_MAX_NOTES)
        return;
    va_start(ap, fmt);
    vsnprintf(out->text[out->n], sizeof out->text[0], fmt, ap);
    va_end(ap);
    out->warn[out->n++] = warn;
}

/* Where the time before the first token went: "connect+TLS 1.2 ms, first
 * byte after 2400.0 ms". */
static void ttft_parts(const struct probe_facts *f, char *b, size_t len)
{
    int64_t setup = f->tls_ns > 0 ? f->tls_ns : f->connect_ns;
    b[0] = '\0';
    if (setup < 0 || f->first_byte_ns < 0)
        return;
    snprintf(b, len,
             " (connection set-up %.1f ms, first byte after "
             "%.1f ms)",
             (double)setup / 1e6, (double)f->first_byte_ns / 1e6);
}

/* Several tokens per chunk, seen in usage or guessed from the text. */
static void chunking_notes(const struct probe_facts *f, struct check_notes *out)
{
    double per;
    if (f->token_events == 0)
        return;
    per = (double)f->usage_tokens / (double)f->token_events;
    if (f->usage_tokens >= 0 && per >= 1.25 &&
        f->usage_tokens - (int64_t)f->token_events >= 2)
        add(out, true,
            "several tokens per chunk: usage counts %lld tokens "
            "in %llu token events (%.1f per event), so chunk counts "
            "understate tokens and the gaps between chunks are not per "
            "token; the analyzer takes usage (--tokens auto)",
            (long long)f->usage_tokens, (unsigned long long)f->token_events,
            per);
    if (f->usage_tokens < 0) {
        double chars = (double)f->text_chars / (double)f->token_events;
        add(out, chars > 16,
            "no usage in the stream: token counts and TPOT "
            "come from chunks%s (the gateway may drop "
            "stream_options.include_usage)",
            chars > 16 ? ", and the chunks look like several tokens each "
                         "(long text per event), so they understate tokens"
                       : "");
    }
}

void check_verdict_notes(const struct probe_facts *f, struct check_notes *out)
{
    double ttft = f->ttft_ns >= 0 ? (double)f->ttft_ns / 1e6 : -1;
    double tpot = check_tpot_ms(f);
    char parts[128];
    out->n = 0;
    /* the body decided it is a stream (error_classify.h): name the header */
    if (error_classify_sse_mislabelled(f->http_status, f->content_type,
                                       f->sse_events > 0))
        add(out, true,
            "the stream came with Content-Type: %s instead of "
            "text/event-stream; its SSE events were measured as a stream, "
            "but clients that trust the header (SDKs, Cline) may parse it "
            "as a single JSON body and fail: fix the gateway's Content-Type",
            f->content_type && *f->content_type ? f->content_type : "(none)");
    if (f->models_missing && f->models_missing[0])
        add(out, true, "%s", f->models_missing);
    chunking_notes(f, out);
    if (ttft >= CHECK_TTFT_HIGH_MS && tpot >= 0 &&
        tpot < CHECK_TPOT_NORMAL_MS) {
        ttft_parts(f, parts, sizeof parts);
        add(out, true,
            "TTFT %.0f ms is high while TPOT %.1f ms is "
            "normal%s: look at the network and first-packet path (DNS, "
            "connect, TLS, proxies, gateway queueing, prompt processing)",
            ttft, tpot, parts);
    }
    if (tpot >= CHECK_TPOT_HIGH_MS && ttft >= 0 && ttft < CHECK_TTFT_NORMAL_MS)
        add(out, true,
            "TPOT %.1f ms is high while TTFT %.0f ms is normal: "
            "look at decoding settings and output length (model size, "
            "reasoning, max_tokens, speculative decoding, batch load)",
            tpot, ttft);
    if (f->reasoning_events > 0)
        add(out, false,
            "%llu of %llu token events were reasoning; TTFT "
            "counts the first reasoning token, the first answer token came "
            "at %.1f ms",
            (unsigned long long)f->reasoning_events,
            (unsigned long long)f->token_events,
            f->ttft_content_ns >= 0 ? (double)f->ttft_content_ns / 1e6 : -1.0);
    if (stream_bursts_buffered(
            &f->bursts, f->usage_tokens >= 0 && f->token_events > 0
                            ? (double)f->usage_tokens / (double)f->token_events
                            : NAN))
        add(out, true,
            "the stream looks buffered on the way: %.0f%% of its chunks "
            "(one token each) came within %.1f ms of the one before, after "
            "holds of up to %.0f ms; a gateway or proxy holds the events and "
            "releases them together, so users see bursts and ITL measures "
            "the gateway (turn off response buffering: nginx "
            "proxy_buffering off / X-Accel-Buffering: no)",
            100 * stream_bursts_share(&f->bursts),
            (double)STREAM_BURST_GAP_NS / 1e6,
            (double)f->bursts.longest_gap_ns / 1e6);
    if (f->comments > 0)
        add(out, false,
            "%llu keep-alive comment%s before or between events "
            "(not tokens)",
            (unsigned long long)f->comments, f->comments == 1 ? "" : "s");
    if (!f->done_seen)
        add(out, false, "the stream ended without %s",
            f->api_kind == API_OPENAI_RESPONSES ? "response.completed"
            : f->api_kind == API_ANTHROPIC      ? "message_stop"
                                                : "[DONE]");
}
