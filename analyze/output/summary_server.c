/* summary_server: the server's side of a run (--server-metrics) in
 * summary: a short block after the table (--detail: every quantity) and
 * per trace in JSON. docs/server-metrics.md, "Analysis". */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "json_writer.h"
#include "printable.h"
#include "server_report.h"
#include "summary_output.h"
#include "text_out.h"

/* The histogram quantities, in the order shown. */
static const enum server_quantity hists[] = {SQ_TTFT,   SQ_QUEUE, SQ_PREFILL,
                                             SQ_DECODE, SQ_E2E,   SQ_ITL};
static const char *const hist_titles[] = {"TTFT",   "queue", "prefill",
                                          "decode", "e2e",   "ITL"};
#define N_HISTS (sizeof hists / sizeof hists[0])

/* Counter quantities (and token histograms read by their sum). */
static const enum server_quantity counters[] = {
    SQ_REQUESTS, SQ_PROMPT_TOKENS, SQ_GEN_TOKENS, SQ_PROMPT_SECONDS,
    SQ_GEN_SECONDS};
#define N_COUNTERS (sizeof counters / sizeof counters[0])

static void put_ms(struct buf *b, double s)
{
    if (isnan(s)) {
        buf_puts(b, "-");
        return;
    }
    num_put(b, s * 1e3, s * 1e3 < 10 ? 2 : 1);
    buf_puts(b, " ms");
}

static void put_gauge(struct buf *b, const char *title,
                      const struct server_gauge *g, bool percent)
{
    double k = percent ? 100 : 1;
    buf_printf(b, "  %-11s", title);
    if (!g->n && g->nonfinite) {
        buf_printf(b, "not a number: NaN or Inf in all %zu samples\n",
                   g->nonfinite);
        return;
    }
    if (!g->n) {
        buf_puts(b, "not exposed\n");
        return;
    }
    buf_puts(b, "min ");
    num_put(b, g->min * k, percent ? 1 : 0);
    buf_puts(b, percent ? "%  median " : "  median ");
    num_put(b, g->median * k,
            percent ? 1 : (g->median == floor(g->median) ? 0 : 1));
    buf_puts(b, percent ? "%  max " : "  max ");
    num_put(b, g->max * k, percent ? 1 : 0);
    buf_printf(b, "%s  (%zu samples", percent ? "%" : "", g->n);
    if (g->nonfinite)
        buf_printf(b, "; %zu more NaN or Inf, left out", g->nonfinite);
    buf_puts(b, ")\n");
}

static void put_hist(struct buf *b, const char *title,
                     const struct server_delta *d, bool detail,
                     const struct stats_summary *client)
{
    buf_printf(b, "  %-11s", title);
    if (!d->present) {
        buf_puts(b, "not exposed\n");
        return;
    }
    if (d->reset) {
        buf_puts(b, "went down during the run (a restart?): no delta\n");
        return;
    }
    buf_printf(b, "n %.0f  mean ", d->count);
    put_ms(b, d->mean);
    buf_puts(b, "  p50 ~");
    put_ms(b, d->p50);
    buf_puts(b, "  p90 ~");
    put_ms(b, d->p90);
    buf_puts(b, "  p99 ~");
    put_ms(b, d->p99);
    if (client && client->n) {
        buf_puts(b, "  | client p50 ");
        put_ms(b, client->p50 / 1e3);
    }
    if (detail) {
        buf_puts(b, "  [");
        printable_put(b, d->family);
        buf_puts(b, "]");
    }
    buf_puts(b, "\n");
}

/* The client's distribution beside a server histogram, or NULL. */
static const struct stats_summary *client_of(const struct group_set *set,
                                             enum server_quantity q)
{
    switch (q) {
    case SQ_TTFT:
        return &set->overall.sum[M_TTFT];
    case SQ_E2E:
        return &set->overall.sum[M_LATENCY];
    case SQ_ITL:
        return &set->overall.sum[M_ITL];
    default:
        return NULL;
    }
}

static void put_counters(struct buf *b, const struct server_report *r,
                         const struct group_set *set, size_t n_traces)
{
    const struct server_delta *d = r->delta;
    buf_printf(b, "  %-11s", "requests");
    if (d[SQ_REQUESTS].present && !d[SQ_REQUESTS].reset)
        buf_printf(b, "server finished %.0f", d[SQ_REQUESTS].value);
    else if (d[SQ_E2E].present && !d[SQ_E2E].reset)
        buf_printf(b, "server finished %.0f (e2e count)", d[SQ_E2E].count);
    else
        buf_puts(b, "server: not exposed");
    /* the server counts every request, a stage's ramp-up and drain too:
     * so does the client side here, whatever the tables left out */
    buf_printf(
        b, ", client measured %llu%s",
        (unsigned long long)(set->overall.requests + set->left_out_requests),
        n_traces > 1 ? " (all traces)" : "");
    if (set->left_out_requests)
        buf_printf(b,
                   " (%llu of them ramp-up or drain, left out of the "
                   "tables above)",
                   (unsigned long long)set->left_out_requests);
    buf_puts(b, "\n");
    if (d[SQ_PROMPT_TOKENS].present || d[SQ_GEN_TOKENS].present) {
        buf_printf(b, "  %-11s", "tokens");
        if (d[SQ_PROMPT_TOKENS].present && !d[SQ_PROMPT_TOKENS].reset)
            buf_printf(b, "prompt %.0f", d[SQ_PROMPT_TOKENS].value);
        if (d[SQ_GEN_TOKENS].present && !d[SQ_GEN_TOKENS].reset)
            buf_printf(b, "%sgenerated %.0f",
                       d[SQ_PROMPT_TOKENS].present ? ", " : "",
                       d[SQ_GEN_TOKENS].value);
        buf_printf(b, " | client output %llu%s\n",
                   (unsigned long long)(set->overall.output_tokens_total +
                                        set->left_out_output_tokens),
                   set->left_out_requests ? " (every request, as the "
                                            "server counts)"
                                          : "");
    }
    if (d[SQ_PROMPT_SECONDS].present && d[SQ_PROMPT_TOKENS].present &&
        d[SQ_PROMPT_SECONDS].value > 0) {
        buf_printf(b, "  %-11s%.0f tok/s of prompt time", "prefill",
                   d[SQ_PROMPT_TOKENS].value / d[SQ_PROMPT_SECONDS].value);
        buf_puts(b, "\n");
    }
    if (d[SQ_GEN_SECONDS].present && d[SQ_GEN_TOKENS].present &&
        d[SQ_GEN_TOKENS].value > 0) {
        buf_printf(b, "  %-11s", "decode");
        put_ms(b, d[SQ_GEN_SECONDS].value / d[SQ_GEN_TOKENS].value);
        buf_puts(b, " per generated token\n");
    }
}

static void text_block(struct buf *b, const struct group_set *set,
                       const struct trace_info *t,
                       const struct server_series *se, bool detail)
{
    struct server_report r;
    server_report_make(se, t->measured_start_ns, t->measured_end_ns, &r);
    buf_puts(b, "\nserver ");
    printable_put(b, se->server[0] ? se->server : "(unknown)");
    buf_puts(b, " at ");
    printable_put(b, se->url);
    buf_printf(b, ": %zu scrapes", se->n);
    if (se->failed) {
        buf_printf(b, ", %llu failed (", (unsigned long long)se->failed);
        printable_put(b, se->first_error);
        buf_puts(b, ")");
    }
    if (set->n_traces > 1) {
        buf_puts(b, "; ");
        printable_put(b, t->file);
    }
    buf_puts(b, "\n");
    if (!r.used) {
        buf_puts(b, "  no successful scrape: nothing to report\n");
        return;
    }
    if (!r.bracketed_from || !r.bracketed_to)
        buf_printf(b,
                   "  (no scrape %s%s%s the measured requests: deltas "
                   "cover less, or more, than them)\n",
                   r.bracketed_from ? "" : "before",
                   !r.bracketed_from && !r.bracketed_to ? " or " : "",
                   r.bracketed_to ? "" : "after");
    put_gauge(b, "running", &r.gauge[SQ_RUNNING], false);
    put_gauge(b, "waiting", &r.gauge[SQ_WAITING], false);
    put_gauge(b, "KV cache", &r.gauge[SQ_KV_USAGE], true);
    put_counters(b, &r, set, set->n_traces);
    for (size_t i = 0; i < N_HISTS; i++) {
        if (!detail && !r.delta[hists[i]].present)
            continue;
        put_hist(b, hist_titles[i], &r.delta[hists[i]], detail,
                 client_of(set, hists[i]));
    }
    if (se->truncated) /* never silent: what is "not exposed" may be cut */
        buf_printf(b,
                   "  cut        %llu scrapes passed the recorder's cap of "
                   "kept lines: each was cut before the family that passed "
                   "it, so the families after it are missing from those "
                   "scrapes (\"not exposed\" may mean cut) and none is "
                   "summed partial\n",
                   (unsigned long long)se->truncated);
}

int summary_write_server(FILE *out, const struct group_set *set, bool detail)
{
    struct buf b;
    buf_init(&b, 0);
    for (size_t i = 0; i < set->n_traces; i++) {
        const struct trace_info *t = set->traces[i];
        for (size_t k = 0; k < t->server.n; k++)
            text_block(&b, set, t, &t->server.series[k], detail);
    }
    if (b.len)
        fwrite(b.data, 1, b.len, out);
    buf_free(&b);
    return ferror(out) ? -1 : 0;
}

static void json_gauge(struct buf *b, const char *key,
                       const struct server_gauge *g)
{
    buf_printf(b, ",\"%s\":", key);
    if (!g->n && !g->nonfinite) {
        buf_puts(b, "null");
        return;
    }
    buf_printf(b, "{\"n\":%zu,", g->n);
    if (g->nonfinite) /* optional: samples left out as NaN / Inf */
        buf_printf(b, "\"nonfinite\":%zu,", g->nonfinite);
    buf_puts(b, "\"min\":");
    json_put_double(b, g->min);
    buf_puts(b, ",\"median\":");
    json_put_double(b, g->median);
    buf_puts(b, ",\"max\":");
    json_put_double(b, g->max);
    buf_puts(b, "}");
}

static void json_hist(struct buf *b, const char *key,
                      const struct server_delta *d)
{
    buf_printf(b, ",\"%s\":", key);
    if (!d->present) {
        buf_puts(b, "null");
        return;
    }
    buf_puts(b, "{\"family\":");
    json_put_cstr(b, d->family);
    buf_printf(b, ",\"reset\":%s", d->reset ? "true" : "false");
    if (!d->reset) {
        const char *names[] = {"mean_ms", "p50_ms", "p90_ms", "p99_ms"};
        const double v[] = {d->mean, d->p50, d->p90, d->p99};
        buf_puts(b, ",\"count\":");
        json_put_double(b, d->count);
        buf_puts(b, ",\"sum_s\":");
        json_put_double(b, d->sum);
        for (size_t i = 0; i < 4; i++) {
            buf_printf(b, ",\"%s\":", names[i]);
            json_put_double(b, v[i] * 1e3);
        }
    }
    buf_puts(b, "}");
}

void summary_json_server(struct buf *b, const struct trace_info *t)
{
    buf_puts(b, "[");
    for (size_t k = 0; k < t->server.n; k++) {
        const struct server_series *se = &t->server.series[k];
        struct server_report r;
        server_report_make(se, t->measured_start_ns, t->measured_end_ns, &r);
        buf_puts(b, k ? ",{\"url\":" : "{\"url\":");
        json_put_cstr(b, se->url);
        buf_puts(b, ",\"server\":");
        json_put_cstr(b, se->server[0] ? se->server : NULL);
        buf_printf(b,
                   ",\"scrapes\":%zu,\"failed\":%llu,\"first_error\":", se->n,
                   (unsigned long long)se->failed);
        json_put_cstr(b, se->first_error[0] ? se->first_error : NULL);
        buf_printf(b,
                   ",\"truncated\":%llu,\"samples_used\":%zu,"
                   "\"window\":{\"from_ns\":%lld,\"to_ns\":%lld,"
                   "\"bracketed\":%s}",
                   (unsigned long long)se->truncated, r.used,
                   (long long)r.from_ns, (long long)r.to_ns,
                   r.bracketed_from && r.bracketed_to ? "true" : "false");
        json_gauge(b, "running", &r.gauge[SQ_RUNNING]);
        json_gauge(b, "waiting", &r.gauge[SQ_WAITING]);
        json_gauge(b, "kv_cache_usage", &r.gauge[SQ_KV_USAGE]);
        for (size_t i = 0; i < N_HISTS; i++) {
            char key[40];
            snprintf(key, sizeof key, "%s", server_quantity_name(hists[i]));
            json_hist(b, key, &r.delta[hists[i]]);
        }
        for (size_t i = 0; i < N_COUNTERS; i++) {
            const struct server_delta *d = &r.delta[counters[i]];
            buf_printf(b, ",\"%s\":", server_quantity_name(counters[i]));
            if (d->present && !d->reset)
                json_put_double(b, d->value);
            else
                buf_puts(b, "null");
        }
        buf_puts(b, "}");
    }
    buf_puts(b, "]");
}
