/* progress: the recorder's live status line. */
#include "progress.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PROGRESS_INTERVAL_NS 250000000LL

void progress_init(struct progress *p, bool enabled, uint64_t total,
                   int64_t start_ns)
{
    memset(p, 0, sizeof *p);
    p->enabled = enabled;
    p->total = total;
    p->start_ns = start_ns;
    p->last_draw_ns = start_ns - PROGRESS_INTERVAL_NS;
}

/* The histogram bucket of a TTFT of ms milliseconds. */
static size_t ttft_bucket(double ms)
{
    double i;
    if (!(ms > PROGRESS_TTFT_MIN_MS)) /* also NaN */
        return 0;
    i = floor(log(ms / PROGRESS_TTFT_MIN_MS) / log(PROGRESS_TTFT_GROWTH));
    if (i >= PROGRESS_TTFT_BUCKETS - 1)
        return PROGRESS_TTFT_BUCKETS - 1;
    return (size_t)i;
}

/* The value a bucket stands for: its geometric middle, in ms. */
static double ttft_bucket_ms(size_t i)
{
    return PROGRESS_TTFT_MIN_MS * pow(PROGRESS_TTFT_GROWTH, (double)i + 0.5);
}

void progress_add_ttft(struct progress *p, int64_t ttft_ns)
{
    p->ttft_hist[ttft_bucket((double)ttft_ns / 1e6)]++;
    p->n_ttft++;
}

/* The value (ms) of the sample of 0-based rank `rank` in sorted order. */
static double ttft_at_rank(const struct progress *p, uint64_t rank)
{
    uint64_t seen = 0;
    for (size_t i = 0; i < PROGRESS_TTFT_BUCKETS; i++) {
        seen += p->ttft_hist[i];
        if (seen > rank)
            return ttft_bucket_ms(i);
    }
    return ttft_bucket_ms(PROGRESS_TTFT_BUCKETS - 1);
}

double progress_ttft_p50(const struct progress *p)
{
    uint64_t lo;
    double k, r;
    if (p->n_ttft == 0)
        return -1;
    k = (double)(p->n_ttft - 1) * 0.5;
    lo = (uint64_t)k;
    r = ttft_at_rank(p, lo);
    if (lo + 1 < p->n_ttft)
        r += (ttft_at_rank(p, lo + 1) - r) * (k - (double)lo);
    return r;
}

void progress_draw(struct progress *p, int64_t now_ns, bool force)
{
    char total[32], ttft[32], retries[64] = "";
    double p50;
    if (!p->enabled)
        return;
    if (!force && now_ns - p->last_draw_ns < PROGRESS_INTERVAL_NS)
        return;
    p->last_draw_ns = now_ns;
    if (p->total == UINT64_MAX)
        snprintf(total, sizeof total, "-");
    else
        snprintf(total, sizeof total, "%llu", (unsigned long long)p->total);
    p50 = progress_ttft_p50(p);
    if (p50 < 0)
        snprintf(ttft, sizeof ttft, "-");
    else
        snprintf(ttft, sizeof ttft, "%.0f ms", p50);
    if (p->retries)
        snprintf(retries, sizeof retries, ", %llu retries (%llu waiting)",
                 (unsigned long long)p->retries,
                 (unsigned long long)p->waiting);
    fprintf(stderr,
            "\r%llu/%s done, %llu errors, %llu in flight%s, "
            "TTFT p50 %s, %.0f s\033[K",
            (unsigned long long)p->done, total, (unsigned long long)p->errors,
            (unsigned long long)p->in_flight, retries, ttft,
            (double)(now_ns - p->start_ns) / 1e9);
    fflush(stderr);
    p->drawn = true;
}

void progress_finish(struct progress *p, int64_t now_ns)
{
    if (p->enabled) { /* the final state, even for a run too short to draw */
        progress_draw(p, now_ns, true);
        fputc('\n', stderr);
    }
}
