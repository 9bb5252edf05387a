/* capacity_output: the capacity table and its JSON document. Stage names
 * are the analyzer's own ("concurrency=4": a known mode and a number), so
 * nothing from a trace reaches the terminal unescaped. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "capacity.h"
#include "doc_out.h"
#include "json_writer.h"
#include "text_out.h"

/* "12.3" or "-" for NAN. */
static const char *num(char *out, size_t size, double x)
{
    text_fmt_num(out, size, x);
    return out;
}

/* The SLO in words: "ttft<=500ms tpot<=50ms". */
static void slo_words(const struct slo *slo, char *out, size_t size)
{
    static const char *const names[] = {"ttft", "tpot", "latency", "itl"};
    double v[4] = {slo->ttft_ms, slo->tpot_ms, slo->latency_ms, slo->itl_ms};
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < 4 && len < size; i++)
        if (!isnan(v[i]))
            len += (size_t)snprintf(out + len, size - len, "%s%s<=%gms",
                                    len ? " " : "", names[i], v[i]);
}

static const char *verdict(const struct cap_stage *st)
{
    if (!st->valid)
        return "INVALID";
    return st->pass ? "meets" : "BREAKS";
}

int cap_write_table(const struct cap_set *s, FILE *out)
{
    char slo[160], a[32], b[32], c[32], d[32], e[32], f[32], g[32], h[32];
    size_t i;
    slo_words(&s->opt.slo, slo, sizeof slo);
    fprintf(out,
            "capacity: SLO %s for %g%% of requests (failed ones count "
            "against), latencies from the intended send, %s\n\n",
            slo, s->opt.attain * 100,
            s->opt.include_transient ? "ramp-up and drain included"
                                     : "steady state only (ramp-up and "
                                       "drain left out)");
    fprintf(out, "%-18s %9s %9s %10s %10s %7s %9s %9s %9s %9s %9s  %s\n",
            "stage", "ok/req", "transient", "achieved/s", "goodput/s", "attain",
            "TTFT p50", "TTFT p99", "TPOT p99", "lat p99", "lag p99",
            "verdict");
    for (i = 0; i < s->n_stages; i++) {
        const struct cap_stage *st = &s->stages[i];
        char okreq[48];
        snprintf(okreq, sizeof okreq, "%llu/%llu", (unsigned long long)st->ok,
                 (unsigned long long)st->requests);
        fprintf(
            out, "%-18s %9s %9llu %10s %10s %6s%% %9s %9s %9s %9s %9s  %s%s\n",
            st->name, okreq, (unsigned long long)st->transient,
            num(a, sizeof a, st->achieved_rps),
            num(b, sizeof b, st->goodput_rps),
            num(c, sizeof c, st->attainment * 100),
            num(d, sizeof d, st->ttft.p50), num(e, sizeof e, st->ttft.p99),
            num(f, sizeof f, st->tpot.p99), num(g, sizeof g, st->latency.p99),
            num(h, sizeof h, st->client_lag_p99_ms), verdict(st),
            (int)i == s->knee ? "  <- knee" : "");
    }
    fprintf(out, "\n");
    if (s->knee >= 0) {
        const struct cap_stage *k = &s->stages[s->knee];
        fprintf(out, "knee: %s is the highest load meeting the SLO%s", k->name,
                s->all_pass ? " (no stage broke it: the server may take more)"
                            : "");
        if (!isnan(s->knee_lo))
            fprintf(out,
                    "; bootstrap 95%% interval of the knee: %g to %g %s, "
                    "attainment there %s%% [%s%%, %s%%]",
                    s->knee_lo, s->knee_hi, k->mode[0] ? k->mode : "load",
                    num(a, sizeof a, k->attainment * 100),
                    num(b, sizeof b, s->attain_lo * 100),
                    num(c, sizeof c, s->attain_hi * 100));
        fprintf(out, "\n");
    } else {
        size_t valid = 0;
        for (i = 0; i < s->n_stages; i++)
            valid += s->stages[i].valid && !isnan(s->stages[i].load);
        fprintf(out, "knee: none: %s\n",
                s->n_stages == 0 ? "the trace has no stages (record with "
                                   "--sweep)"
                : valid == 0     ? "no valid stage: the recorder limited "
                                   "every one (below)"
                                 : "the lightest valid stage already breaks "
                                   "the SLO");
    }
    for (i = 0; i < s->n_stages; i++)
        if (!s->stages[i].valid)
            fprintf(out, "invalid: %s: %s (left out of the knee)\n",
                    s->stages[i].name, s->stages[i].invalid_reason);
    for (i = 0; i < s->n_stages; i++) {
        const struct cap_stage *st = &s->stages[i];
        if (st->valid && st->kernel_times && !isnan(st->loop_lag_p99_ms) &&
            !isnan(st->itl_p50_ms) &&
            st->loop_lag_p99_ms > s->opt.loop_lag_share * st->itl_p50_ms)
            fprintf(out,
                    "note: %s: recorder event-loop lag p99 %.3g ms is above "
                    "%.0f%% of the ITL p50 %.3g ms, but the chunk times are "
                    "the kernel's receive times, which it does not move: "
                    "the stage stays valid (only reads merged would not)\n",
                    st->name, st->loop_lag_p99_ms, s->opt.loop_lag_share * 100,
                    st->itl_p50_ms);
    }
    if (s->mixed_modes)
        fprintf(out, "note: concurrency and rate stages are mixed; their "
                     "loads are not on one axis\n");
    return ferror(out) ? -1 : 0;
}

static void put_summary(struct buf *b, const char *key,
                        const struct stats_summary *x)
{
    buf_printf(b, ",\"%s\":{\"n\":%zu,\"p50\":", key, x->n);
    json_put_double(b, x->p50);
    buf_puts(b, ",\"p90\":");
    json_put_double(b, x->p90);
    buf_puts(b, ",\"p99\":");
    json_put_double(b, x->p99);
    buf_puts(b, ",\"max\":");
    json_put_double(b, x->max);
    buf_puts(b, "}");
}

/* "key":x with a leading comma. */
static void put_num(struct buf *b, const char *key, double x)
{
    buf_printf(b, ",\"%s\":", key);
    json_put_double(b, x);
}

static void put_stage(struct buf *b, const struct cap_stage *st)
{
    buf_printf(b, "{\"trace\":%u,\"stage\":%u,\"name\":", st->trace, st->id);
    json_put_cstr(b, st->name);
    buf_puts(b, ",\"mode\":");
    json_put_cstr(b, st->mode[0] ? st->mode : NULL);
    put_num(b, "load", st->load);
    buf_printf(b,
               ",\"requests\":%llu,\"ok\":%llu,\"failed\":%llu,"
               "\"transient\":%llu,\"steady\":%llu,\"met\":%llu",
               (unsigned long long)st->requests, (unsigned long long)st->ok,
               (unsigned long long)st->failed,
               (unsigned long long)st->transient,
               (unsigned long long)st->steady, (unsigned long long)st->met);
    put_num(b, "window_s", st->window_s);
    put_num(b, "achieved_rps", st->achieved_rps);
    put_num(b, "goodput_rps", st->goodput_rps);
    put_num(b, "attainment", st->attainment);
    put_summary(b, "ttft_ms", &st->ttft);
    put_summary(b, "tpot_ms", &st->tpot);
    put_summary(b, "latency_ms", &st->latency);
    put_num(b, "itl_p50_ms", st->itl_p50_ms);
    buf_puts(b, ",\"recorder\":{\"send_lag_p99_ms\":");
    json_put_double(b, st->client_lag_p99_ms);
    put_num(b, "loop_lag_p99_ms", st->loop_lag_p99_ms);
    put_num(b, "cpu_share", st->cpu_share);
    buf_printf(b, ",\"kernel_times\":%s", st->kernel_times ? "true" : "false");
    buf_printf(b, "},\"pass\":%s,\"valid\":%s,\"invalid_reason\":",
               st->pass ? "true" : "false", st->valid ? "true" : "false");
    json_put_cstr(b, st->valid ? NULL : st->invalid_reason);
    buf_puts(b, "}");
}

int cap_write_json(const struct cap_set *s, FILE *out, const char *shard_check)
{
    struct buf b;
    size_t i;
    int rc;
    doc_out_init(&b);
    buf_puts(&b, "{\"tool\":\"tokentrace\",\"schema\":1,\"command\":"
                 "\"capacity\",\"traces\":[");
    for (i = 0; i < s->n_traces; i++) {
        buf_puts(&b, i ? "," : "");
        json_put_cstr(&b, s->traces[i]->file);
    }
    buf_puts(&b, "],\"slo\":{\"ttft_ms\":");
    json_put_double(&b, s->opt.slo.ttft_ms);
    put_num(&b, "tpot_ms", s->opt.slo.tpot_ms);
    put_num(&b, "latency_ms", s->opt.slo.latency_ms);
    put_num(&b, "itl_ms", s->opt.slo.itl_ms);
    buf_puts(&b, "}");
    put_num(&b, "attain", s->opt.attain);
    buf_printf(&b, ",\"include_transient\":%s,\"stages\":[",
               s->opt.include_transient ? "true" : "false");
    for (i = 0; i < s->n_stages; i++) {
        buf_puts(&b, i ? "," : "");
        put_stage(&b, &s->stages[i]);
    }
    buf_puts(&b, "],\"knee\":");
    if (s->knee >= 0) {
        const struct cap_stage *k = &s->stages[s->knee];
        buf_printf(&b, "{\"stage\":%u,\"name\":", k->id);
        json_put_cstr(&b, k->name);
        buf_puts(&b, ",\"mode\":");
        json_put_cstr(&b, k->mode[0] ? k->mode : NULL);
        put_num(&b, "load", k->load);
        buf_puts(&b, ",\"load_ci95\":[");
        json_put_double(&b, s->knee_lo);
        buf_puts(&b, ",");
        json_put_double(&b, s->knee_hi);
        buf_puts(&b, "]");
        put_num(&b, "attainment", k->attainment);
        buf_puts(&b, ",\"attainment_ci95\":[");
        json_put_double(&b, s->attain_lo);
        buf_puts(&b, ",");
        json_put_double(&b, s->attain_hi);
        buf_puts(&b, "]}");
    } else {
        buf_puts(&b, "null");
    }
    buf_printf(&b, ",\"all_pass\":%s,\"mixed_modes\":%s",
               s->all_pass ? "true" : "false",
               s->mixed_modes ? "true" : "false");
    if (shard_check)
        buf_printf(&b, ",\"shard_check\":%s", shard_check);
    buf_puts(&b, "}\n");
    rc = doc_out_write(out, &b, "capacity --format json");
    buf_free(&b);
    return rc;
}
