/* summary_findings: what a reader should notice in a summary, one line
 * each, below the compact table. */
#include "summary_findings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error_json.h"
#include "summary_output.h"

/* Per kind of finding, at most this many groups get a line of their own;
 * the rest are counted in one more line. */
#define FINDINGS_PER_KIND 5
#define KINDS_PER_LINE 4
/* The first failure's words in a finding are cut at this many bytes. */
#define FINDINGS_WORDS_MAX 60

const char *summary_self_check_words(const struct group_set *set)
{
    /* the worst trace's words: failed, then merged reads, then bursts,
     * then ok, then kernel times */
    static const char *const ranked[] = {"self-check failed", "reads merged",
                                         "self-check untrusted (bursts)",
                                         "self-check ok", "kernel times"};
    size_t best = sizeof ranked / sizeof ranked[0];
    for (size_t i = 0; i < set->n_traces; i++) {
        const struct trace_info *t = set->traces[i];
        size_t r;
        if (summary_self_lag_too_high(set, t))
            r = 0;
        else if (summary_reads_merged(set, t))
            r = 1;
        else if (summary_self_check_blind(t))
            r = 2;
        else if (summary_kernel_times(t))
            r = 4;
        else if (summary_self_check_p99_ns(t) >= 0)
            r = 3;
        else
            continue;
        if (r < best)
            best = r;
    }
    return best < sizeof ranked / sizeof ranked[0] ? ranked[best] : NULL;
}

struct findings {
    FILE *out;
    const struct summary_view *v;
    size_t n; /* lines written */
};

static void finding(struct findings *f, enum view_tone tone, struct buf *b)
{
    if (f->n++ == 0)
        fputc('\n', f->out);
    view_line(f->out, f->v, tone, b->data ? b->data : "");
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

/* Appends g's keys except key skip ("all" when none is left). */
static void put_keys(struct buf *b, const struct group *g, size_t skip)
{
    size_t before = b->len;
    for (size_t k = 0; k < g->n_keys; k++) {
        if (k == skip)
            continue;
        buf_puts(b, b->len > before ? " / " : "");
        view_put_name(b, g->keys[k]);
    }
    if (b->len == before)
        buf_puts(b, "all");
}

/* Starts a per-trace finding: "TITLE: ", then "FILE: " when the summary
 * reads more than one trace. */
static void put_title(struct buf *b, const struct group_set *set,
                      const struct trace_info *t, const char *title)
{
    buf_printf(b, "%s: ", title);
    if (set->n_traces > 1) {
        view_put_name(b, t->file);
        buf_puts(b, ": ");
    }
}

static void self_check(struct findings *f, const struct group_set *set,
                       struct buf *b)
{
    for (size_t i = 0; i < set->n_traces; i++) {
        const struct trace_info *t = set->traces[i];
        if (!summary_self_lag_too_high(set, t))
            continue;
        put_title(b, set, t, "self-check");
        buf_printf(b,
                   "the recorder woke up %.2f ms late (p99), over 10%% of the "
                   "ITL p50 (%.2f ms): these timings describe the client as "
                   "much as the server",
                   (double)summary_self_check_p99_ns(t) / 1e6,
                   set->overall.sum[M_ITL].p50);
        finding(f, VIEW_WARN, b);
    }
    for (size_t i = 0; i < set->n_traces; i++) {
        const struct trace_info *t = set->traces[i];
        if (summary_self_lag_too_high(set, t) || !summary_self_check_blind(t))
            continue;
        put_title(b, set, t, "self-check");
        buf_printf(b,
                   "%.0f%% of chunks came in runs of many streams (in phase, "
                   "as a batching server sends): the self-check samples "
                   "between them and under-estimates their error; it cannot "
                   "be trusted here",
                   100 * phase_runs_share(&t->phase));
        finding(f, VIEW_WARN, b);
    }
}

/* Kernel chunk times handed over so late that a read may take several of
 * a stream's events: the earlier ones carry the later one's time. */
static void reads_merged(struct findings *f, const struct group_set *set,
                         struct buf *b)
{
    for (size_t i = 0; i < set->n_traces; i++) {
        const struct trace_info *t = set->traces[i];
        if (!summary_reads_merged(set, t))
            continue;
        put_title(b, set, t, "self-check");
        buf_printf(b,
                   "libcurl handed chunks over %.2f ms after the kernel got "
                   "them (p99), over half the ITL p50 (%.2f ms): a read may "
                   "then take two of a stream's events, and the earlier one "
                   "carries the later one's time",
                   (double)t->receive_lag_p99_ns / 1e6,
                   group_set_trace_itl_p50(set, t->index));
        finding(f, VIEW_WARN, b);
    }
}

/* tokentrace-proxy traces: the proxy's own share of every chunk's
 * latency, so the numbers above can be trusted (or not). */
static void proxy_added(struct findings *f, const struct group_set *set,
                        struct buf *b)
{
    for (size_t i = 0; i < set->n_traces; i++) {
        const struct trace_info *t = set->traces[i];
        if (t->proxy_chunks == 0)
            continue;
        put_title(b, set, t, "proxy");
        buf_printf(b,
                   "time inside tokentrace-proxy per chunk p50 %.3f ms, p99 "
                   "%.3f ms, max %.3f ms (%llu chunks)",
                   (double)t->proxy_p50_ns / 1e6, (double)t->proxy_p99_ns / 1e6,
                   (double)t->proxy_max_ns / 1e6,
                   (unsigned long long)t->proxy_chunks);
        finding(f, VIEW_PLAIN, b);
    }
}

static size_t model_dim(const struct group_set *set)
{
    for (size_t d = 0; d < set->by.n; d++)
        if (set->by.dims[d] == DIM_MODEL)
            return d;
    return (size_t)-1;
}

/* A group with the dimension to leave out when comparing (the model's):
 * qsort's comparator sees both. */
struct ctx_entry {
    const struct group *g;
    size_t skip;
};

/* Orders groups by every key but the model's, so groups to compare are
 * neighbours. */
static int cmp_context(const void *a, const void *b)
{
    const struct ctx_entry *ea = a, *eb = b;
    const struct group *ga = ea->g, *gb = eb->g;
    for (size_t k = 0; k < ga->n_keys && k < gb->n_keys; k++) {
        int c;
        if (k == ea->skip)
            continue;
        if (ga->key_rank[k] != gb->key_rank[k])
            return ga->key_rank[k] < gb->key_rank[k] ? -1 : 1;
        c = strcmp(ga->keys[k], gb->keys[k]);
        if (c)
            return c;
    }
    return 0;
}

static double ratio(double slow, double fast)
{
    return fast > 0 ? slow / fast : NAN;
}

static bool within(double r)
{
    return isnan(r) || (r >= 0.95 && r <= 1.05);
}

/* " 1.14x" below 2, " 2.3x" below 10, " 12x" above; "-" for NaN. */
static void put_ratio(struct buf *b, double r, const char *what)
{
    if (isnan(r))
        buf_puts(b, " -");
    else
        buf_printf(b, " %.*fx", r < 1.995 ? 2 : r < 9.95 ? 1 : 0, r);
    buf_puts(b, what);
}

/* One line for the models of one context (e[0..n) sharing every key but
 * the model): the fastest and the slowest by latency p50, and the
 * slowest's p50 latency, TTFT and TPOT as multiples of the fastest's. */
static void compare_models(struct findings *f, const struct ctx_entry *e,
                           size_t n, size_t mdim, struct buf *b)
{
    const struct group *fast = NULL, *slow = NULL;
    size_t models = 0;
    double r[3];
    for (size_t i = 0; i < n; i++) {
        const struct group *g = e[i].g;
        double l = g->sum[M_LATENCY].p50;
        if (g->sum[M_LATENCY].n == 0)
            continue;
        models++;
        if (!fast || l < fast->sum[M_LATENCY].p50)
            fast = g;
        if (!slow || l >= slow->sum[M_LATENCY].p50)
            slow = g;
    }
    if (models < 2 || fast == slow)
        return;
    if (fast->n_keys > 1)
        put_keys(b, fast, mdim);
    else
        buf_puts(b, "models");
    buf_puts(b, ": ");
    r[0] = ratio(slow->sum[M_LATENCY].p50, fast->sum[M_LATENCY].p50);
    r[1] = ratio(slow->sum[M_TTFT].p50, fast->sum[M_TTFT].p50);
    r[2] = ratio(slow->sum[M_TPOT].p50, fast->sum[M_TPOT].p50);
    if (within(r[0]) && within(r[1]) && within(r[2])) {
        if (models > 2) {
            buf_printf(b, "the %zu models", models);
        } else {
            view_put_name(b, fast->keys[mdim]);
            buf_puts(b, " and ");
            view_put_name(b, slow->keys[mdim]);
        }
        buf_puts(b, " within 5% on latency, TTFT and TPOT (p50)");
    } else {
        buf_puts(b, "fastest ");
        view_put_name(b, fast->keys[mdim]);
        buf_puts(b, "; ");
        view_put_name(b, slow->keys[mdim]);
        put_ratio(b, r[0], " latency,");
        put_ratio(b, r[1], " TTFT,");
        put_ratio(b, r[2], " TPOT");
    }
    finding(f, VIEW_PLAIN, b);
}

static void models(struct findings *f, const struct group_set *set,
                   struct buf *b)
{
    size_t mdim = model_dim(set), start = 0;
    struct ctx_entry *g;
    if (mdim == (size_t)-1 || set->n_groups < 2)
        return;
    g = malloc(set->n_groups * sizeof *g);
    if (!g)
        return;
    for (size_t i = 0; i < set->n_groups; i++)
        g[i] = (struct ctx_entry){set->groups[i], mdim};
    qsort(g, set->n_groups, sizeof *g, cmp_context);
    for (size_t i = 1; i <= set->n_groups; i++)
        if (i == set->n_groups || cmp_context(&g[start], &g[i]) != 0) {
            compare_models(f, g + start, i - start, mdim, b);
            start = i;
        }
    free(g);
}

/* Appends what the first failure of g's most frequent kind with words
 * said: whole when it fits what is left of two lines of width columns
 * (the finding wraps onto a second, indented by 2; 60 bytes at least),
 * else cut at a word with an ellipsis (--detail shows each kind's in
 * full). */
static void put_first_words(struct buf *b, const struct group *g, int width)
{
    char msg[1024];
    size_t used = b->len + 24 + 2; /* "; the server said: ", the indent */
    size_t max = width > 0 && 2 * (size_t)width > used + FINDINGS_WORDS_MAX
                     ? 2 * (size_t)width - used
                     : FINDINGS_WORDS_MAX;
    if (max > sizeof msg - 8)
        max = sizeof msg - 8;
    for (size_t k = 0; k < g->n_errors; k++) {
        const struct error_count *e = &g->errors[k];
        size_t whole;
        if (!e->message)
            continue;
        error_json_one_line(msg, sizeof msg, e->message, strlen(e->message),
                            sizeof msg - 1);
        whole = strlen(msg);
        if (whole > max) { /* cut: --detail has it whole */
            /* at a word, not mid-word (a word longer than half: there) */
            char *sp = msg[max] == ' ' ? msg + max : NULL;
            for (size_t j = max; !sp && j > max / 2; j--)
                if (msg[j - 1] == ' ')
                    sp = msg + j - 1;
            if (!sp) /* on a UTF-8 boundary */
                error_json_one_line(msg, sizeof msg, e->message,
                                    strlen(e->message), max);
            else
                *sp = '\0';
            memcpy(msg + strlen(msg), "\u2026", sizeof "\u2026");
        }
        buf_puts(b, "; ");
        if (g->n_errors > 1) {
            view_put_name(b, e->kind);
            buf_puts(b, ", ");
        }
        buf_puts(b, e->server ? "the server said: " : "the recorder: ");
        view_put_name(b, msg);
        return;
    }
}

static void failures(struct findings *f, const struct group_set *set,
                     struct buf *b)
{
    size_t shown = 0, more = 0;
    for (size_t i = 0; i < set->n_groups; i++) {
        const struct group *g = set->groups[i];
        if (!g->n_errors)
            continue;
        if (shown++ >= FINDINGS_PER_KIND) {
            more++;
            continue;
        }
        buf_puts(b, "failed: ");
        put_keys(b, g, (size_t)-1);
        buf_printf(b, ": %llu of %llu:", (unsigned long long)group_failed(g),
                   (unsigned long long)g->requests);
        for (size_t k = 0; k < g->n_errors && k < KINDS_PER_LINE; k++) {
            buf_puts(b, " ");
            view_put_name(b, g->errors[k].kind);
            buf_printf(b, "=%llu", (unsigned long long)g->errors[k].n);
        }
        if (g->n_errors > KINDS_PER_LINE)
            buf_printf(b, " and %zu more kinds", g->n_errors - KINDS_PER_LINE);
        put_first_words(b, g, f->v->width);
        finding(f, VIEW_BAD, b);
    }
    if (more) {
        buf_printf(b, "failed: %zu more groups with failures (--detail)", more);
        finding(f, VIEW_BAD, b);
    }
}

static void goodput(struct findings *f, const struct group_set *set,
                    struct buf *b)
{
    const struct group *o = &set->overall;
    uint64_t n = group_finished(o);
    struct run_totals t;
    if (!set->slo.any || n == 0)
        return;
    summary_totals(set, &t);
    buf_printf(b, "goodput: %llu of %llu %srequests meet the SLO (%.1f%%)",
               (unsigned long long)o->slo_met, (unsigned long long)n,
               o->interrupted ? "finished " : "",
               100.0 * (double)o->slo_met / (double)n);
    if (!isnan(t.goodput_per_s))
        buf_printf(b, ", %.2f req/s", t.goodput_per_s);
    finding(f, VIEW_PLAIN, b);
}

static bool any_dropped(const struct group *g)
{
    for (int m = 0; m < M_COUNT; m++)
        if (g->dropped[m])
            return true;
    return false;
}

/* The numbers of a group that are not what they seem, one line per group
 * and cause (the warnings on stderr say more). */
static void distrust(struct findings *f, const struct group_set *set,
                     struct buf *b)
{
    size_t shown = 0, more = 0;
    for (size_t i = 0; i < set->n_groups; i++) {
        const struct group *g = set->groups[i];
        for (int cause = 0; cause < 3; cause++) {
            if ((cause == 0 && !g->packed_no_usage) ||
                (cause == 1 && !g->usage_disagree) ||
                (cause == 2 && !any_dropped(g)))
                continue;
            if (shown++ >= FINDINGS_PER_KIND) {
                more++;
                continue;
            }
            buf_puts(b, "warning: ");
            put_keys(b, g, (size_t)-1);
            if (cause == 0)
                buf_printf(b,
                           ": %llu of %llu requests without usage carry "
                           "several tokens per chunk: output tokens and TPOT "
                           "from chunks are wrong",
                           (unsigned long long)g->packed_no_usage,
                           (unsigned long long)g->ok);
            else if (cause == 1)
                buf_printf(b,
                           ": usage and text chunks disagree in %llu of %llu "
                           "requests; TPOT uses %s counts",
                           (unsigned long long)g->usage_disagree,
                           (unsigned long long)g->ok, group_token_source(g));
            else
                buf_puts(b, ": values beyond a distribution's cap were left "
                            "out (see stderr)");
            finding(f, VIEW_WARN, b);
        }
    }
    if (more) {
        buf_printf(b, "warning: %zu more (--detail, stderr)", more);
        finding(f, VIEW_WARN, b);
    }
}

void summary_findings(FILE *out, const struct group_set *set,
                      const struct summary_view *v)
{
    struct findings f = {out, v, 0};
    struct buf b;
    buf_init(&b, 0);
    self_check(&f, set, &b);
    reads_merged(&f, set, &b);
    proxy_added(&f, set, &b);
    models(&f, set, &b);
    goodput(&f, set, &b);
    failures(&f, set, &b);
    distrust(&f, set, &b);
    buf_free(&b);
}
