/* summary_text: the human formats of summary: an aligned table readable at
 * 80 columns, and markdown that pastes into a bug report. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "error_json.h"
#include "printable.h"
#include "summary_output.h"
#include "text_out.h"

void summary_totals(const struct group_set *set, struct run_totals *t)
{
    const struct group *o = &set->overall;
    t->wall_s = group_set_wall_s(set);
    t->req_per_s = t->wall_s > 0 ? (double)o->ok / t->wall_s : NAN;
    t->output_tok_per_s =
        t->wall_s > 0 ? (double)o->output_tokens_total / t->wall_s : NAN;
    t->goodput_per_s =
        t->wall_s > 0 && set->slo.any ? (double)o->slo_met / t->wall_s : NAN;
}

int64_t summary_self_check_p99_ns(const struct trace_info *t)
{
    /* the larger of the two: the probe sees wake-ups from idle across
     * CPUs, the loop's own timer sees the loop blocked or the process
     * stopped (a stopped process delays the probe's writes too, so the
     * probe alone would call a frozen recorder punctual) */
    int64_t probe = t->wake_probe_samples > 0 ? t->wake_probe_p99_ns : -1;
    int64_t loop = t->loop_lag_samples > 0 ? t->loop_lag_p99_ns : -1;
    return probe > loop ? probe : loop;
}

bool summary_kernel_times(const struct trace_info *t)
{
    const char *ct = trace_info_option(t, "chunk_time");
    return ct && strcmp(ct, "kernel") == 0 && t->receive_lag_samples > 0;
}

bool summary_self_lag_too_high(const struct group_set *set,
                               const struct trace_info *t)
{
    /* the trace's own ITL: another trace's faster server does not make
     * this recorder's lateness matter more */
    double itl_p50 = group_set_trace_itl_p50(set, t->index);
    int64_t p99 = summary_self_check_p99_ns(t);
    if (summary_kernel_times(t)) /* its lateness is not in the times */
        return false;
    return p99 >= 0 && !isnan(itl_p50) && (double)p99 / 1e6 > 0.1 * itl_p50;
}

bool summary_reads_merged_at(const struct trace_info *t, double itl_p50)
{
    double lag_ms = (double)t->receive_lag_p99_ns / 1e6;
    /* the 1 ms floor: a server that packs events into one write has an
     * ITL p50 of 0 whatever the recorder did */
    return summary_kernel_times(t) && !isnan(itl_p50) && lag_ms >= 1.0 &&
           lag_ms > 0.5 * itl_p50;
}

bool summary_reads_merged(const struct group_set *set,
                          const struct trace_info *t)
{
    return summary_reads_merged_at(t, group_set_trace_itl_p50(set, t->index));
}

bool summary_self_check_blind(const struct trace_info *t)
{
    return summary_self_check_p99_ns(t) >= 0 && !summary_kernel_times(t) &&
           phase_runs_in_phase(&t->phase);
}

static void put_name(FILE *out, const char *s, bool md);

/* When the recorder kept its CPU awake not at all (docs/recording.md):
 * why, from the header (escaped: it names a cgroup file). */
static void keep_awake_line(FILE *out, const struct trace_info *t,
                            const char *prefix)
{
    const char *mode = trace_info_option(t, "keep_awake");
    const char *why = trace_info_option(t, "keep_awake_off");
    if (trace_info_option(t, "wake_probe"))
        fprintf(out,
                "%srecorder wake-up probe: off (one CPU allowed): the "
                "self-check cannot see wake-ups from idle and cannot be "
                "trusted\n",
                prefix);
    if (t->keep_awake_end && mode) /* auto: what it did during the run */
        fprintf(out,
                "%srecorder keep-awake: auto, %s at the start, %s at the end "
                "(%llu changes; the footer's keep_awake_log says why)\n",
                prefix, strcmp(mode, "spin") == 0 ? "spin" : "off",
                strcmp(t->keep_awake_end, "spin") == 0 ? "spin" : "off",
                (unsigned long long)t->keep_awake_changes);
    if (!mode || strcmp(mode, "off") != 0)
        return;
    fprintf(out, "%srecorder keep-awake: off", prefix);
    if (why) {
        fputs(": ", out);
        put_name(out, why, prefix[0] != '\0');
        fputs("; wake-ups from idle may add to every timestamp", out);
    } else {
        fputs(" (as asked on the command line)", out);
    }
    fputc('\n', out);
}

/* " (FILE, trace N)" after a per-trace line's title when the summary
 * reads more than one trace; the file name escaped (markdown comes with a
 * blank line as its prefix). */
static void which_trace(FILE *out, const struct group_set *set,
                        const struct trace_info *t, const char *prefix)
{
    if (set->n_traces <= 1)
        return;
    fputs(" (", out);
    put_name(out, t->file ? t->file : "?", prefix[0] != '\0');
    fprintf(out, ", trace %u)", t->index);
}

/* Where trace t's chunk times come from, when its header says: the
 * kernel (with how late libcurl handed the chunks over, which is not in
 * the numbers) or the hand-over (with the recorder's reason, escaped). */
static void chunk_time_line(FILE *out, const struct group_set *set,
                            const struct trace_info *t, const char *prefix)
{
    const char *ct = trace_info_option(t, "chunk_time");
    const char *why = trace_info_option(t, "chunk_time_why");
    if (!ct)
        return;
    fprintf(out, "%srecorder chunk times", prefix);
    which_trace(out, set, t, prefix);
    if (!summary_kernel_times(t)) {
        fputs(": when libcurl handed the bytes over", out);
        if (why) {
            fputs(" (", out);
            put_name(out, why, prefix[0] != '\0');
            fputc(')', out);
        }
        fputs(strcmp(ct, "kernel") == 0 ? ": no chunk got a kernel time\n"
                                        : "\n",
              out);
        return;
    }
    fprintf(out,
            ": the kernel's receive times; libcurl handed the chunks over "
            "p50 %.3f ms, p99 %.3f ms, max %.3f ms later (%llu of %llu "
            "chunks), which is not in these numbers%s\n",
            (double)t->receive_lag_p50_ns / 1e6,
            (double)t->receive_lag_p99_ns / 1e6,
            (double)t->receive_lag_max_ns / 1e6,
            (unsigned long long)t->receive_lag_samples,
            (unsigned long long)t->chunks,
            summary_reads_merged(set, t)
                ? ": but over half the trace's ITL p50, so a read may take "
                  "two of a stream's events, and the earlier one carries the "
                  "later one's time"
                : "");
}

/* One line per trace on the recorder's own measurement error. */
static void self_check_lines(FILE *out, const struct group_set *set,
                             const char *prefix)
{
    for (size_t i = 0; i < set->n_traces; i++) {
        const struct trace_info *t = set->traces[i];
        chunk_time_line(out, set, t, prefix);
        if (t->loop_lag_samples == 0)
            continue;
        fprintf(out, "%srecorder self-check", prefix);
        which_trace(out, set, t, prefix);
        fprintf(out,
                ": event loop woke late by p50 "
                "%.3f ms, p99 %.3f ms, max %.3f ms (%llu wake-ups)",
                (double)t->loop_lag_p50_ns / 1e6,
                (double)t->loop_lag_p99_ns / 1e6,
                (double)t->loop_lag_max_ns / 1e6,
                (unsigned long long)t->loop_lag_samples);
        if (t->wake_probe_samples > 0)
            fprintf(out,
                    "; woken from another CPU late by p50 %.3f ms, p99 %.3f "
                    "ms, max %.3f ms (%llu probes)",
                    (double)t->wake_probe_p50_ns / 1e6,
                    (double)t->wake_probe_p99_ns / 1e6,
                    (double)t->wake_probe_max_ns / 1e6,
                    (unsigned long long)t->wake_probe_samples);
        fprintf(out, "%s\n",
                summary_self_lag_too_high(set, t)
                    ? ": over 10% of the trace's ITL p50, these numbers "
                      "describe the client"
                    : "");
        if (summary_self_check_blind(t))
            fprintf(out,
                    "%srecorder self-check: %.0f%% of chunks came with other "
                    "streams' within %.1f ms (streams in phase): it samples "
                    "between those runs and cannot be trusted for them\n",
                    prefix, 100 * phase_runs_share(&t->phase),
                    (double)PHASE_GAP_NS / 1e6);
        keep_awake_line(out, t, prefix);
    }
}

/* One line per tokentrace-proxy trace on the time its chunks spent inside
 * the proxy (docs/proxy.md). */
static void proxy_lines(FILE *out, const struct group_set *set,
                        const char *prefix)
{
    for (size_t i = 0; i < set->n_traces; i++) {
        const struct trace_info *t = set->traces[i];
        if (t->proxy_chunks == 0)
            continue;
        fprintf(out, "%sproxy added latency", prefix);
        which_trace(out, set, t, prefix);
        fprintf(out,
                ": upstream receive to client socket per chunk p50 %.3f ms, "
                "p99 %.3f ms, max %.3f ms (%llu chunks)\n",
                (double)t->proxy_p50_ns / 1e6, (double)t->proxy_p99_ns / 1e6,
                (double)t->proxy_max_ns / 1e6,
                (unsigned long long)t->proxy_chunks);
    }
}

static void metric_title(char *out, size_t size, int m)
{
    if (metric_defs[m].unit[0])
        snprintf(out, size, "%s (%s)", metric_defs[m].title,
                 metric_defs[m].unit);
    else
        snprintf(out, size, "%s", metric_defs[m].title);
}

/* Writes s (a name from a trace) for the format: markdown-escaped, or
 * terminal-safe (control characters as \xNN) in the text table. */
static void put_name(FILE *out, const char *s, bool md)
{
    struct buf b;
    buf_init(&b, 0);
    if (md && s[strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_")] == '\0')
        buf_puts(&b, s); /* an error kind as the recorder names them */
    else if (md)
        md_put(&b, s, 0);
    else
        printable_put(&b, s);
    fwrite(b.data ? b.data : "", 1, b.len, out);
    buf_free(&b);
}

/* Longest message shown under the errors line (the server's are already
 * cut at 200 bytes). */
#define SUMMARY_MESSAGE_MAX 200

/* The errors line, then one line per kind with what its first failure
 * said: the server's own words when it said any ("http_500, the server
 * said: ..."), else the recorder's message. */
static void errors_line(FILE *out, const struct group *g, const char *prefix,
                        bool md)
{
    char msg[SUMMARY_MESSAGE_MAX + 8];
    if (!g->n_errors)
        return;
    fprintf(out, "%serrors:", prefix);
    for (size_t i = 0; i < g->n_errors; i++) {
        fputc(' ', out);
        put_name(out, g->errors[i].kind, md);
        fprintf(out, "=%llu", (unsigned long long)g->errors[i].n);
    }
    /* markdown: a line break each (two spaces), not one joined line */
    fputs(md ? "  \n" : "\n", out);
    for (size_t i = 0; i < g->n_errors; i++) {
        const struct error_count *e = &g->errors[i];
        if (!e->message)
            continue;
        fprintf(out, "%s%s", prefix, md ? "" : "  ");
        put_name(out, e->kind, md);
        fputs(e->server ? ", the server said: " : ": ", out);
        error_json_one_line(msg, sizeof msg, e->message, strlen(e->message),
                            SUMMARY_MESSAGE_MAX);
        put_name(out, msg, md);
        fputs(md ? "  \n" : "\n", out);
    }
}

/* "ended: stop=28 length=2 error=2": how the group's requests ended, by
 * category of finish_reason / stop_reason (the ones that occurred). */
static void finish_line(FILE *out, const struct group *g, const char *prefix,
                        bool md)
{
    bool any = false;
    for (int k = 0; k < FINISH_COUNT; k++)
        any = any || g->finish[k];
    if (!any)
        return;
    fprintf(out, "%sended:", prefix);
    for (int k = 0; k < FINISH_COUNT; k++)
        if (g->finish[k])
            fprintf(out, " %s=%llu", finish_kind_names[k],
                    (unsigned long long)g->finish[k]);
    fputs(md ? "  \n" : "\n", out);
}

static void goodput_line(FILE *out, const struct group_set *set,
                         const struct group *g, double wall_s,
                         const char *prefix)
{
    uint64_t n = group_finished(g);
    if (!set->slo.any || n == 0)
        return;
    fprintf(out, "%sgoodput: %llu of %llu %srequests meet the SLO (%.1f%%)",
            prefix, (unsigned long long)g->slo_met, (unsigned long long)n,
            g->interrupted ? "finished " : "",
            100.0 * (double)g->slo_met / (double)n);
    if (wall_s > 0)
        fprintf(out, ", %.2f req/s", (double)g->slo_met / wall_s);
    fprintf(out, "\n");
}

static void header_line(FILE *out, const struct group_set *set,
                        const struct run_totals *t)
{
    const struct group *o = &set->overall;
    fprintf(out, "%zu trace%s, %llu request%s (%llu ok, %llu failed",
            set->n_traces, set->n_traces == 1 ? "" : "s",
            (unsigned long long)o->requests, o->requests == 1 ? "" : "s",
            (unsigned long long)o->ok, (unsigned long long)group_failed(o));
    if (o->interrupted)
        fprintf(out, ", %llu interrupted", (unsigned long long)o->interrupted);
    if (o->warmup)
        fprintf(out, ", %llu warmup excluded", (unsigned long long)o->warmup);
    if (o->retried)
        fprintf(out, "; %llu retried attempt%s not counted",
                (unsigned long long)o->retried, o->retried == 1 ? "" : "s");
    fprintf(out, ")");
    if (!isnan(t->wall_s))
        fprintf(out, ", wall %.1f s, %.2f req/s (ok only), %.0f output tok/s",
                t->wall_s, t->req_per_s, t->output_tok_per_s);
    fprintf(out, "\n");
}

/* ", interrupted N" and ", retried attempts N" for those the group has,
 * else "". */
static const char *retried_note(const struct group *g, char *tmp, size_t size)
{
    int n = 0;
    tmp[0] = '\0';
    if (g->interrupted)
        n = snprintf(tmp, size, ", interrupted %llu",
                     (unsigned long long)g->interrupted);
    if (g->retried && n >= 0 && (size_t)n < size)
        snprintf(tmp + n, size - (size_t)n, ", retried attempts %llu",
                 (unsigned long long)g->retried);
    return tmp;
}

/* The width of the metric column: the longest title of a row g shows
 * (at least "metric" and the usual 19), so every row lines up. */
static int title_width(const struct group *g)
{
    char title[48];
    int w = 19;
    for (int m = 0; m < M_COUNT; m++) {
        if (g->sum[m].n == 0)
            continue;
        metric_title(title, sizeof(title), m);
        if ((int)strlen(title) > w)
            w = (int)strlen(title);
    }
    return w;
}

static void table_group(FILE *out, const struct group_set *set,
                        const struct group *g, const char *name, double wall_s)
{
    char title[48], c[7][24], note[96];
    int w = title_width(g);
    fputc('\n', out);
    put_name(out, name, false);
    /* a group with no ok request has no metric to show, nor a source */
    if (g->ok == 0) {
        fprintf(out, "   requests %llu, ok 0%s\n",
                (unsigned long long)g->requests,
                retried_note(g, note, sizeof(note)));
        finish_line(out, g, "  ", false);
        errors_line(out, g, "  ", false);
        goodput_line(out, set, g, wall_s, "  ");
        return;
    }
    fprintf(out, "   requests %llu, ok %llu%s, tokens from %s\n",
            (unsigned long long)g->requests, (unsigned long long)g->ok,
            retried_note(g, note, sizeof(note)), group_token_source(g));
    fprintf(out, "  %-*s %7s %7s %7s %7s %7s %7s %5s\n", w, "metric", "p50",
            "p90", "p99", "mean", "min", "max", "n");
    for (int m = 0; m < M_COUNT; m++) {
        const struct stats_summary *s = &g->sum[m];
        if (s->n == 0)
            continue;
        metric_title(title, sizeof(title), m);
        text_fmt_num(c[0], sizeof(c[0]), s->p50);
        text_fmt_num(c[1], sizeof(c[1]), s->p90);
        text_fmt_num(c[2], sizeof(c[2]), s->p99);
        text_fmt_num(c[3], sizeof(c[3]), s->mean);
        text_fmt_num(c[4], sizeof(c[4]), s->min);
        text_fmt_num(c[5], sizeof(c[5]), s->max);
        fprintf(out, "  %-*s %7s %7s %7s %7s %7s %7s %5zu\n", w, title, c[0],
                c[1], c[2], c[3], c[4], c[5], s->n);
    }
    finish_line(out, g, "  ", false);
    errors_line(out, g, "  ", false);
    goodput_line(out, set, g, wall_s, "  ");
}

int summary_write_table(FILE *out, const struct group_set *set)
{
    struct run_totals t;
    char name[600];
    summary_totals(set, &t);
    header_line(out, set, &t);
    self_check_lines(out, set, "");
    proxy_lines(out, set, "");
    for (size_t i = 0; i < set->n_groups; i++) {
        group_describe(set->groups[i], name, sizeof(name));
        table_group(out, set, set->groups[i], name, t.wall_s);
    }
    if (set->n_groups != 1)
        table_group(out, set, &set->overall, "overall", t.wall_s);
    return ferror(out) ? -1 : 0;
}

static void md_group(FILE *out, const struct group_set *set,
                     const struct group *g, const char *name, double wall_s)
{
    char title[48], c[8][24], note[96];
    fprintf(out, "\n### ");
    put_name(out, name, true);
    if (g->ok == 0) { /* nothing measured: no table, no token source */
        fprintf(out, "\n\nrequests %llu, ok 0%s\n\n",
                (unsigned long long)g->requests,
                retried_note(g, note, sizeof(note)));
        finish_line(out, g, "", true);
        errors_line(out, g, "", true);
        goodput_line(out, set, g, wall_s, "");
        return;
    }
    fprintf(out, "\n\nrequests %llu, ok %llu%s, tokens from %s\n\n",
            (unsigned long long)g->requests, (unsigned long long)g->ok,
            retried_note(g, note, sizeof(note)), group_token_source(g));
    fprintf(out, "| metric | p50 | p90 | p95 | p99 | mean | min | max | n |\n");
    fprintf(out, "|---|--:|--:|--:|--:|--:|--:|--:|--:|\n");
    for (int m = 0; m < M_COUNT; m++) {
        const struct stats_summary *s = &g->sum[m];
        if (s->n == 0)
            continue;
        metric_title(title, sizeof(title), m);
        text_fmt_num(c[0], sizeof(c[0]), s->p50);
        text_fmt_num(c[1], sizeof(c[1]), s->p90);
        text_fmt_num(c[2], sizeof(c[2]), s->p95);
        text_fmt_num(c[3], sizeof(c[3]), s->p99);
        text_fmt_num(c[4], sizeof(c[4]), s->mean);
        text_fmt_num(c[5], sizeof(c[5]), s->min);
        text_fmt_num(c[6], sizeof(c[6]), s->max);
        fprintf(out, "| %s | %s | %s | %s | %s | %s | %s | %s | %zu |\n", title,
                c[0], c[1], c[2], c[3], c[4], c[5], c[6], s->n);
    }
    fprintf(out, "\n");
    finish_line(out, g, "", true);
    errors_line(out, g, "", true);
    goodput_line(out, set, g, wall_s, "");
}

/* Markdown, under the header: what the sections are (the --by keys, as
 * the table's group column says), and once, when some were, how many
 * cached token counts were derived. */
static void md_groups_line(FILE *out, const struct group_set *set)
{
    char tmp[160];
    const struct group *o = &set->overall;
    fputs("\ngrouped by: ", out);
    for (size_t k = 0; k < set->by.n; k++) {
        fputs(k ? " / " : "", out);
        put_name(out, group_dim_name(set, k, tmp, sizeof tmp), true);
    }
    fputc('\n', out);
    if (o->cached_derived)
        fprintf(out,
                "\ncached tokens: derived in %llu of %zu: "
                "usage.prompt_tokens − timings.prompt_n, the server names no "
                "cached count\n",
                (unsigned long long)o->cached_derived,
                o->sum[M_CACHED_TOKENS].n);
}

int summary_write_markdown(FILE *out, const struct group_set *set)
{
    struct run_totals t;
    char name[600];
    summary_totals(set, &t);
    fprintf(out, "## tokentrace summary\n\n");
    header_line(out, set, &t);
    md_groups_line(out, set);
    self_check_lines(out, set, "\n");
    proxy_lines(out, set, "\n");
    for (size_t i = 0; i < set->n_groups; i++) {
        group_describe(set->groups[i], name, sizeof(name));
        md_group(out, set, set->groups[i], name, t.wall_s);
    }
    if (set->n_groups != 1)
        md_group(out, set, &set->overall, "overall", t.wall_s);
    return ferror(out) ? -1 : 0;
}
