/* progress: the recorder's live status line. */
#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
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

void progress_add_ttft(struct progress *p, int64_t ttft_ns)
{
    if (p->n_ttft == p->cap) {
        size_t ncap = p->cap ? p->cap * 2 : 256;
        double *n;
        if (p->n_ttft >= PROGRESS_MAX_SAMPLES)
            return; /* enough for a live median */
        if (ncap > PROGRESS_MAX_SAMPLES)
            ncap = PROGRESS_MAX_SAMPLES;
        n = realloc(p->ttft_ms, ncap * sizeof *n);
        if (!n)
            return;
        p->ttft_ms = n;
        p->cap = ncap;
    }
    p->ttft_ms[p->n_ttft++] = (double)ttft_ns / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double progress_ttft_p50(const struct progress *p)
{
    double *copy, r, k;
    size_t lo;
    if (p->n_ttft == 0)
        return -1;
    copy = malloc(p->n_ttft * sizeof *copy);
    if (!copy)
        return -1;
    memcpy(copy, p->ttft_ms, p->n_ttft * sizeof *copy);
    qsort(copy, p->n_ttft, sizeof *copy, cmp_double);
    k = (double)(p->n_ttft - 1) * 0.5;
    lo = (size_t)k;
    r = copy[lo];
    if (lo + 1 < p->n_ttft)
        r += (copy[lo + 1] - copy[lo]) * (k - (double)lo);
    free(copy);
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
    fprintf(stderr, "\r%llu/%s done, %llu errors, %llu in flight%s, "
            "TTFT p50 %s, %.0f s\033[K",
            (unsigned long long)p->done, total,
            (unsigned long long)p->errors, (unsigned long long)p->in_flight,
            retries, ttft, (double)(now_ns - p->start_ns) / 1e9);
    fflush(stderr);
    p->drawn = true;
}

void progress_finish(struct progress *p, int64_t now_ns)
{
    if (p->enabled) { /* the final state, even for a run too short to draw */
        progress_draw(p, now_ns, true);
        fputc('\n', stderr);
    }
    free(p->ttft_ms);
    p->ttft_ms = NULL;
    p->n_ttft = p->cap = 0;
}
