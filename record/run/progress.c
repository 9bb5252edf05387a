/* progress: the recorder's live status line, fed the run's facts. */
#include "progress.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "quantile.h"
#include "run_outcome.h"
#include "run_pacer.h"
#include "transfer.h"

#define PROGRESS_INTERVAL_NS 250000000LL

void progress_init(struct progress *p, bool enabled, uint64_t total,
                   int64_t start_ns)
{
    memset(p, 0, sizeof *p);
    p->enabled = enabled;
    p->total = total;
    p->start_ns = start_ns;
    p->last_draw_ns = start_ns - PROGRESS_INTERVAL_NS;
    p->planned = UINT64_MAX;
    p->plan_end_ns = -1;
}

void progress_set_plan(struct progress *p, uint64_t planned,
                       int64_t plan_end_ns)
{
    p->planned = planned;
    p->plan_end_ns = plan_end_ns;
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

int progress_set_models(struct progress *p, const char *const *names, size_t n)
{
    if (n < 2)
        return 0;
    p->model_names = calloc(n, sizeof *p->model_names);
    p->model_n = calloc(n, sizeof *p->model_n);
    p->model_hist = calloc(n * PROGRESS_TTFT_BUCKETS, sizeof *p->model_hist);
    p->n_models = n;
    for (size_t i = 0; p->model_names && i < n; i++) {
        p->model_names[i] = strdup(names[i] ? names[i] : "");
        if (!p->model_names[i])
            break;
        for (char *c = p->model_names[i]; *c; c++) /* terminal-safe */
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = '?';
    }
    if (p->model_names && p->model_n && p->model_hist && p->model_names[n - 1])
        return 0;
    progress_free(p);
    p->n_models = n; /* the line says its p50 is of all of them */
    return -1;
}

void progress_add_model_ttft(struct progress *p, size_t model, int64_t ttft_ns)
{
    progress_add_ttft(p, ttft_ns);
    if (!p->model_hist || model >= p->n_models)
        return;
    p->model_hist[model * PROGRESS_TTFT_BUCKETS +
                  ttft_bucket((double)ttft_ns / 1e6)]++;
    p->model_n[model]++;
}

void progress_free(struct progress *p)
{
    for (size_t i = 0; p->model_names && i < p->n_models; i++)
        free(p->model_names[i]);
    free(p->model_names);
    free(p->model_n);
    free(p->model_hist);
    p->model_names = NULL;
    p->model_n = p->model_hist = NULL;
    p->n_models = 0;
}

/* quantile_at's reader over one histogram: the value (ms) of the sample
 * of 0-based rank `rank` in sorted order. */
static double ttft_at_rank(const void *ctx, size_t rank)
{
    const uint64_t *hist = ctx;
    uint64_t seen = 0;
    for (size_t i = 0; i < PROGRESS_TTFT_BUCKETS; i++) {
        seen += hist[i];
        if (seen > rank)
            return ttft_bucket_ms(i);
    }
    return ttft_bucket_ms(PROGRESS_TTFT_BUCKETS - 1);
}

double progress_ttft_p50(const struct progress *p)
{
    if (p->n_ttft == 0)
        return -1;
    return quantile_at((size_t)p->n_ttft, 50, ttft_at_rank, p->ttft_hist);
}

double progress_model_ttft_p50(const struct progress *p, size_t model)
{
    if (!p->model_hist || model >= p->n_models || p->model_n[model] == 0)
        return -1;
    return quantile_at((size_t)p->model_n[model], 50, ttft_at_rank,
                       p->model_hist + model * PROGRESS_TTFT_BUCKETS);
}

/* Appends field to out (length *len) after ", " when it fits in width
 * characters; the first field is cut to fit. Returns false once a field
 * did not fit: the ones after it are dropped too. */
static bool add_field(char *out, size_t cap, size_t *len, size_t width,
                      const char *field)
{
    size_t sep = *len ? 2 : 0, n = strlen(field);
    if (*len == 0 && n > width)
        n = width; /* even the first does not fit: cut it */
    if (*len + sep + n > width || *len + sep + n >= cap)
        return false;
    if (sep)
        memcpy(out + *len, ", ", 2);
    memcpy(out + *len + sep, field, n);
    *len += sep + n;
    out[*len] = '\0';
    return true;
}

/* A duration for a person: "42 s", "3m05s", "2h07m". */
static void fmt_duration(char *out, size_t cap, double s)
{
    long long t = s > 0 ? (long long)(s + 0.5) : 0;
    if (s < 99.5)
        snprintf(out, cap, "%.0f s", s > 0 ? s : 0);
    else if (t < 3600)
        snprintf(out, cap, "%lldm%02llds", t / 60, t % 60);
    else
        snprintf(out, cap, "%lldh%02lldm", t / 3600, t % 3600 / 60);
}

/* The seconds left, or -1 when nothing tells: the schedule's end when it
 * has one (open loop, --duration), else the requests left at the rate
 * seen so far. */
static double eta_s(const struct progress *p, int64_t now_ns, double rate)
{
    double left = -1;
    if (p->total != UINT64_MAX && p->done < p->total && rate > 0)
        left = (double)(p->total - p->done) / rate;
    if (p->plan_end_ns >= 0) {
        double to_end = (double)(p->plan_end_ns - now_ns) / 1e9;
        if (to_end < 0)
            to_end = 0;
        if (left < 0 || to_end < left || p->total == UINT64_MAX)
            left = to_end;
    }
    return left;
}

/* "TTFT p50 90 ms", or per model "TTFT p50 a 90 ms, b 400 ms" with as
 * many models as fit in room characters (the first always) and ", +N
 * more" for the ones cut. */
static void ttft_field(const struct progress *p, size_t room, char *f,
                       size_t cap)
{
    size_t len;
    double p50;
    if (p->n_models < 2 || !p->model_hist) {
        p50 = progress_ttft_p50(p);
        if (p50 < 0)
            snprintf(f, cap, "TTFT p50%s -",
                     p->n_models < 2 ? "" : " all models");
        else
            snprintf(f, cap, "TTFT p50%s %.0f ms",
                     p->n_models < 2 ? "" : " all models", p50);
        return;
    }
    len = (size_t)snprintf(f, cap, "TTFT p50");
    for (size_t i = 0; i < p->n_models; i++) {
        char piece[160], more[40];
        size_t rest = p->n_models - i - 1, n;
        p50 = progress_model_ttft_p50(p, i);
        if (p50 < 0)
            n = (size_t)snprintf(piece, sizeof piece, "%s%.100s -",
                                 i ? ", " : " ", p->model_names[i]);
        else
            n = (size_t)snprintf(piece, sizeof piece, "%s%.100s %.0f ms",
                                 i ? ", " : " ", p->model_names[i], p50);
        more[0] = '\0';
        if (rest)
            snprintf(more, sizeof more, ", +%zu more", rest);
        if (i > 0 && len + n + strlen(more) > room) {
            snprintf(f + len, cap - len, ", +%zu more", rest + 1);
            return;
        }
        if (len + n >= cap)
            return;
        memcpy(f + len, piece, n + 1);
        len += n;
    }
}

size_t progress_format(const struct progress *p, int64_t now_ns, int columns,
                       char *out, size_t cap)
{
    char f[256], t[32];
    size_t len = 0, width = columns > 1 ? (size_t)columns - 1 : 1;
    double elapsed = (double)(now_ns - p->start_ns) / 1e9, rate, left;
    if (cap == 0)
        return 0;
    out[0] = '\0';
    if (p->total != UINT64_MAX)
        snprintf(f, sizeof f, "%llu/%llu done", (unsigned long long)p->done,
                 (unsigned long long)p->total);
    else if (p->planned != UINT64_MAX)
        snprintf(f, sizeof f, "%llu/~%llu done", (unsigned long long)p->done,
                 (unsigned long long)p->planned);
    else
        snprintf(f, sizeof f, "%llu done", (unsigned long long)p->done);
    if (!add_field(out, cap, &len, width, f))
        return len;
    snprintf(f, sizeof f, "%llu errors", (unsigned long long)p->errors);
    if (!add_field(out, cap, &len, width, f))
        return len;
    snprintf(f, sizeof f, "%llu in flight", (unsigned long long)p->in_flight);
    if (!add_field(out, cap, &len, width, f))
        return len;
    if (p->stalled) {
        snprintf(f, sizeof f, "%llu stalled >=%lld s",
                 (unsigned long long)p->stalled,
                 (long long)(PROGRESS_STALL_NS / 1000000000LL));
        if (!add_field(out, cap, &len, width, f))
            return len;
    }
    if (p->retries) {
        snprintf(f, sizeof f, "%llu retries (%llu waiting)",
                 (unsigned long long)p->retries,
                 (unsigned long long)p->waiting);
        if (!add_field(out, cap, &len, width, f))
            return len;
    }
    /* per model: as many as fit (the first one always: a field that does
     * not fit is dropped, with the ones after it) */
    ttft_field(p, width > len + 2 ? width - len - 2 : 0, f, sizeof f);
    if (!add_field(out, cap, &len, width, f))
        return len;
    snprintf(f, sizeof f, "%.0f s", elapsed);
    if (!add_field(out, cap, &len, width, f))
        return len;
    if (p->done == 0 || !(elapsed > 0))
        return len; /* no rate yet, and no ETA from it */
    rate = (double)p->done / elapsed;
    snprintf(f, sizeof f, "%.*f req/s", rate < 10 ? 1 : 0, rate);
    if (!add_field(out, cap, &len, width, f) || p->finished)
        return len;
    left = eta_s(p, now_ns, rate);
    if (left >= 0) {
        fmt_duration(t, sizeof t, left);
        snprintf(f, sizeof f, "ETA %s", t);
        add_field(out, cap, &len, width, f);
    }
    return len;
}

int progress_columns(void)
{
    struct winsize ws;
    const char *env = getenv("COLUMNS");
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    if (env && *env) {
        char *end;
        long v = strtol(env, &end, 10);
        if (*end == '\0' && v > 0 && v < 100000)
            return (int)v;
    }
    return 80;
}

void progress_draw(struct progress *p, int64_t now_ns, bool force)
{
    char line[512];
    if (!p->enabled)
        return;
    if (!force && now_ns - p->last_draw_ns < PROGRESS_INTERVAL_NS)
        return;
    p->last_draw_ns = now_ns;
    progress_format(p, now_ns, progress_columns(), line, sizeof line);
    /* "\033[K": the rest of a longer previous line is cleared */
    fprintf(stderr, "\r%s\033[K", line);
    fflush(stderr);
    p->drawn = true;
}

void progress_finish(struct progress *p, int64_t now_ns)
{
    if (p->enabled) { /* the final state, even for a run too short to draw */
        p->finished = true;
        progress_draw(p, now_ns, true);
        fputc('\n', stderr);
    }
}

void progress_take_ttft(struct progress *p, struct transfer *t)
{
    if (t->rx.stream.first_token_ns < 0 || t->first_token_counted)
        return;
    t->first_token_counted = true;
    progress_add_model_ttft(p, t->model,
                            t->rx.stream.first_token_ns - t->start_ns);
}

void progress_update(struct progress *p, struct transfer *inflight,
                     uint64_t n_inflight, uint64_t waiting,
                     const struct run_outcome *out, int64_t now_ns)
{
    struct transfer *t;
    p->stalled = 0;
    for (t = inflight; t; t = t->next) {
        progress_take_ttft(p, t);
        if (run_timer_idle(t, now_ns, PROGRESS_STALL_NS))
            p->stalled++;
    }
    p->done = out->ok + out->failed;
    p->errors = out->failed;
    p->retries = out->retried;
    p->in_flight = n_inflight;
    p->waiting = waiting;
}
