/* summary_machine: the machine formats of summary: JSON (the stable
 * interface of SPEC 6, schema 1) and CSV (one row per group and metric),
 * each built whole and written whole (doc_out) or not at all. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "clock.h"
#include "doc_out.h"
#include "json_writer.h"
#include "summary_output.h"
#include "text_out.h"

static void json_stats(struct buf *b, const struct stats_summary *s)
{
    const char *names[] = {"p50",  "p90",    "p95", "p99", "p999",
                           "mean", "stddev", "min", "max"};
    const double vals[] = {s->p50,  s->p90,    s->p95, s->p99, s->p999,
                           s->mean, s->stddev, s->min, s->max};
    buf_printf(b, "{\"n\":%zu", s->n);
    for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
        buf_printf(b, ",\"%s\":", names[i]);
        json_put_double(b, s->n ? vals[i] : NAN);
    }
    buf_puts(b, "}");
}

static void json_slo(struct buf *b, const struct slo *slo)
{
    const char *names[] = {"ttft_ms", "tpot_ms", "itl_ms", "latency_ms"};
    const double vals[] = {slo->ttft_ms, slo->tpot_ms, slo->itl_ms,
                           slo->latency_ms};
    bool first = true;
    buf_puts(b, "{");
    for (size_t i = 0; i < 4; i++) {
        if (isnan(vals[i]))
            continue;
        buf_printf(b, "%s\"%s\":", first ? "" : ",", names[i]);
        json_put_double(b, vals[i]);
        first = false;
    }
    buf_puts(b, "}");
}

/* The keys every group and the overall object share. */
static void json_group_body(struct buf *b, const struct group_set *set,
                            const struct group *g, double wall_s)
{
    buf_printf(b,
               "\"requests\":%llu,\"ok\":%llu,\"failed\":%llu,"
               "\"interrupted\":%llu,\"warmup_excluded\":%llu,"
               "\"retried\":%llu,",
               (unsigned long long)g->requests, (unsigned long long)g->ok,
               (unsigned long long)group_failed(g),
               (unsigned long long)g->interrupted,
               (unsigned long long)g->warmup, (unsigned long long)g->retried);
    if (g->cached_derived) /* optional: only when some were */
        buf_printf(b, "\"cached_tokens_derived\":%llu,",
                   (unsigned long long)g->cached_derived);
    buf_puts(b, "\"errors\":{");
    for (size_t i = 0; i < g->n_errors; i++) {
        if (i)
            buf_puts(b, ",");
        json_put_cstr(b, g->errors[i].kind);
        buf_printf(b, ":%llu", (unsigned long long)g->errors[i].n);
    }
    /* what the first failure of each kind said (the server's words when
     * it said any): {"kind": {"message": "...", "server": true}} */
    buf_puts(b, "},\"error_messages\":{");
    for (size_t i = 0, first = 1; i < g->n_errors; i++) {
        if (!g->errors[i].message)
            continue;
        if (!first)
            buf_puts(b, ",");
        first = 0;
        json_put_cstr(b, g->errors[i].kind);
        buf_puts(b, ":{\"message\":");
        json_put_cstr(b, g->errors[i].message);
        buf_printf(b, ",\"server\":%s}",
                   g->errors[i].server ? "true" : "false");
    }
    /* how the requests ended, by category of finish_reason */
    buf_puts(b, "},\"finish\":{");
    for (int k = 0; k < FINISH_COUNT; k++)
        buf_printf(b, "%s\"%s\":%llu", k ? "," : "", finish_kind_names[k],
                   (unsigned long long)g->finish[k]);
    buf_printf(b, "},\"token_source\":\"%s\",\"usage_disagrees\":%llu",
               group_token_source(g), (unsigned long long)g->usage_disagree);
    /* Values a distribution refused at its cap: its n is smaller by that. */
    buf_puts(b, ",\"dropped_values\":{");
    for (int m = 0, first = 1; m < M_COUNT; m++) {
        if (!g->dropped[m])
            continue;
        buf_printf(b, "%s\"%s\":%llu", first ? "" : ",",
                   metric_defs[m].json_key, (unsigned long long)g->dropped[m]);
        first = 0;
    }
    buf_puts(b, "}");
    if (set->window) /* summary --by stage: the stages' ramp-up and drain */
        buf_printf(b, ",\"transient\":%llu,\"transient_included\":%s",
                   (unsigned long long)g->transient,
                   set->keep_transient ? "true" : "false");
    for (int m = 0; m < M_COUNT; m++) {
        if (metric_optional(m) && g->sum[m].n == 0)
            continue;
        buf_printf(b, ",\"%s\":", metric_defs[m].json_key);
        json_stats(b, &g->sum[m]);
    }
    buf_puts(b, ",\"goodput\":");
    if (!set->slo.any) {
        buf_puts(b, "null");
    } else {
        buf_puts(b, "{\"slo\":");
        json_slo(b, &set->slo);
        buf_printf(b,
                   ",\"met\":%llu,\"share\":", (unsigned long long)g->slo_met);
        json_put_double(b, group_finished(g)
                               ? (double)g->slo_met / (double)group_finished(g)
                               : NAN);
        buf_puts(b, ",\"per_s\":");
        json_put_double(b, wall_s > 0 ? (double)g->slo_met / wall_s : NAN);
        buf_puts(b, "}");
    }
}

/* Writes {"n":N,"p50":…,"p99":…,"max":…} with the times in ms: the
 * recorder's loop lag, its wake-up probe, a proxy's time per chunk. */
static void json_lateness(struct buf *b, uint64_t n, int64_t p50_ns,
                          int64_t p99_ns, int64_t max_ns)
{
    buf_printf(b, "{\"n\":%llu,\"p50\":", (unsigned long long)n);
    json_put_double(b, (double)p50_ns / 1e6);
    buf_puts(b, ",\"p99\":");
    json_put_double(b, (double)p99_ns / 1e6);
    buf_puts(b, ",\"max\":");
    json_put_double(b, (double)max_ns / 1e6);
    buf_puts(b, "}");
}

/* One entry of "traces": the trace's identity, its recorder's self-checks
 * and where its chunk times come from. */
static void json_trace(struct buf *b, const struct group_set *set,
                       const struct trace_info *t)
{
    char when[40];
    buf_printf(b, "{\"index\":%u,\"file\":", t->index);
    json_put_cstr(b, t->file);
    buf_puts(b, ",\"trace_id\":");
    json_put_cstr(b, t->trace_id);
    buf_puts(b, ",\"api\":");
    json_put_cstr(b, t->api);
    buf_puts(b, ",\"endpoint\":");
    json_put_cstr(b, t->endpoint);
    buf_puts(b, ",\"started\":");
    json_put_cstr(b, t->real_zero_ns > 0
                         ? clock_format_utc(t->real_zero_ns, when, sizeof(when))
                         : NULL);
    buf_puts(b, ",\"models\":[");
    for (size_t i = 0; i < t->n_models; i++) {
        if (i)
            buf_puts(b, ",");
        json_put_cstr(b, t->models[i]);
    }
    buf_puts(b, "],\"labels\":{");
    for (size_t i = 0; i < t->n_labels; i++) {
        if (i)
            buf_puts(b, ",");
        json_put_cstr(b, t->labels[i].key);
        buf_puts(b, ":");
        json_put_cstr(b, t->labels[i].value);
    }
    buf_puts(b, "},\"recorder_loop_lag_ms\":");
    if (t->loop_lag_samples)
        json_lateness(b, t->loop_lag_samples, t->loop_lag_p50_ns,
                      t->loop_lag_p99_ns, t->loop_lag_max_ns);
    else
        buf_puts(b, "null");
    if (t->wake_probe_samples) {
        buf_puts(b, ",\"recorder_wake_probe_ms\":");
        json_lateness(b, t->wake_probe_samples, t->wake_probe_p50_ns,
                      t->wake_probe_p99_ns, t->wake_probe_max_ns);
    }
    if (trace_info_option(t, "chunk_time")) { /* optional: newer traces */
        buf_puts(b, ",\"chunk_time\":");
        json_put_cstr(b, summary_kernel_times(t) ? "kernel" : "user");
    }
    if (t->receive_lag_samples) {
        buf_puts(b, ",\"recorder_receive_lag_ms\":");
        json_lateness(b, t->receive_lag_samples, t->receive_lag_p50_ns,
                      t->receive_lag_p99_ns, t->receive_lag_max_ns);
        buf_printf(b, ",\"reads_merged\":%s",
                   summary_reads_merged(set, t) ? "true" : "false");
    }
    if (summary_self_check_blind(t)) /* optional: streams in phase */
        buf_printf(b,
                   ",\"self_check_in_phase\":{\"chunks\":%llu,"
                   "\"share\":%.4f}",
                   (unsigned long long)t->phase.in_phase,
                   phase_runs_share(&t->phase));
    if (t->proxy_chunks) { /* tokentrace-proxy traces only */
        buf_puts(b, ",\"proxy_added_latency_ms\":");
        json_lateness(b, t->proxy_chunks, t->proxy_p50_ns, t->proxy_p99_ns,
                      t->proxy_max_ns);
    }
    buf_printf(b, ",\"requests\":%llu,\"complete\":%s,\"damage\":",
               (unsigned long long)t->requests,
               t->has_footer && !t->damage ? "true" : "false");
    json_put_cstr(b, t->damage);
    if (t->server.n) { /* optional: only traces with scrapes */
        buf_puts(b, ",\"server_metrics\":");
        summary_json_server(b, t);
    }
    buf_puts(b, "}");
}

int summary_write_json(FILE *out, const struct group_set *set)
{
    return summary_write_json_with(out, set, NULL);
}

int summary_write_json_with(FILE *out, const struct group_set *set,
                            const char *extra)
{
    struct buf b;
    struct run_totals t;
    struct shard_set shards;
    char tmp[300];
    int rc;
    summary_totals(set, &t);
    doc_out_init(&b);
    buf_puts(&b, "{\"tool\":\"tokentrace\",\"schema\":1,\"traces\":[");
    for (size_t i = 0; i < set->n_traces; i++) {
        if (i)
            buf_puts(&b, ",");
        json_trace(&b, set, set->traces[i]);
    }
    buf_puts(&b, "],\"groups\":[");
    for (size_t i = 0; i < set->n_groups; i++) {
        const struct group *g = set->groups[i];
        buf_puts(&b, i ? ",{" : "{");
        for (size_t k = 0; k < g->n_keys; k++) {
            json_put_cstr(&b, group_dim_name(set, k, tmp, sizeof(tmp)));
            buf_puts(&b, ":");
            json_put_cstr(&b, g->keys[k]);
            buf_puts(&b, ",");
        }
        json_group_body(&b, set, g, t.wall_s);
        buf_puts(&b, "}");
    }
    buf_puts(&b, "],\"overall\":{");
    json_group_body(&b, set, &set->overall, t.wall_s);
    if (set->sessions.sessions) { /* session workloads only */
        buf_printf(&b, ",\"sessions\":{\"n\":%llu,\"complete\":%llu",
                   (unsigned long long)set->sessions.sessions,
                   (unsigned long long)set->sessions.complete);
        buf_puts(&b, ",\"total_wait_ms\":");
        json_stats(&b, &set->sessions.wait_ms);
        buf_puts(&b, ",\"turns\":");
        json_stats(&b, &set->sessions.turns);
        buf_puts(&b, "}");
    }
    buf_puts(&b, ",\"wall_s\":");
    json_put_double(&b, t.wall_s);
    buf_puts(&b, ",\"req_per_s\":");
    json_put_double(&b, t.req_per_s);
    buf_puts(&b, ",\"req_per_s_counts\":\"ok\""); /* failed ones not */
    buf_puts(&b, ",\"output_tok_per_s\":");
    json_put_double(&b, t.output_tok_per_s);
    buf_puts(&b, "}");
    if (shard_set_build(set, &shards) != 0)
        buf_set_error(&b, BUF_E_NOMEM); /* the shards would be missing */
    else if (shards.n_runs) {
        buf_puts(&b, ",\"shards\":"); /* only for shards: schema 1 grows */
        summary_json_shards(&b, &shards);
    }
    shard_set_free(&shards);
    if (extra)
        buf_puts(&b, extra);
    buf_puts(&b, "}\n");
    rc = doc_out_write(out, &b, "summary --format json");
    buf_free(&b);
    return rc;
}

/* ",x" in full precision (num_put_exact), "," for an undefined value. */
static void csv_num(struct buf *b, double x)
{
    buf_puts(b, ",");
    num_put_exact(b, x);
}

static void csv_group(struct buf *b, const struct group_set *set,
                      const struct group *g, bool overall)
{
    for (int m = 0; m < M_COUNT; m++) {
        const struct stats_summary *s = &g->sum[m];
        if (metric_optional(m) && s->n == 0)
            continue;
        for (size_t k = 0; k < set->by.n; k++) {
            /* csv_put_field: the one CSV rule (quoting, formula
             * neutralizing, UTF-8) */
            csv_put_field(b, overall ? "(all)" : g->keys[k]);
            buf_puts(b, ",");
        }
        buf_printf(b, "%llu,%llu,%llu,%s,%s,%s,%zu",
                   (unsigned long long)g->requests, (unsigned long long)g->ok,
                   (unsigned long long)group_failed(g), /* not interrupted */
                   group_token_source(g), metric_defs[m].json_key,
                   metric_defs[m].unit, s->n);
        csv_num(b, s->p50);
        csv_num(b, s->p90);
        csv_num(b, s->p95);
        csv_num(b, s->p99);
        csv_num(b, s->p999);
        csv_num(b, s->mean);
        csv_num(b, s->stddev);
        csv_num(b, s->min);
        csv_num(b, s->max);
        buf_printf(b, ",%llu\n", (unsigned long long)g->retried);
    }
}

int summary_write_csv(FILE *out, const struct group_set *set)
{
    char tmp[300];
    struct buf b;
    int rc;
    doc_out_init(&b);
    for (size_t k = 0; k < set->by.n; k++) {
        csv_put_field(&b, group_dim_name(set, k, tmp, sizeof(tmp)));
        buf_puts(&b, ",");
    }
    buf_puts(&b, "requests,ok,failed,token_source,metric,unit,n,p50,p90,p95,"
                 "p99,p999,mean,stddev,min,max,retried\n");
    for (size_t i = 0; i < set->n_groups; i++)
        csv_group(&b, set, set->groups[i], false);
    csv_group(&b, set, &set->overall, true);
    rc = doc_out_write(out, &b, "summary --format csv");
    buf_free(&b);
    return rc;
}
