/* cmd_summary: `tokentrace-analyze summary TRACE...`: distributions per
 * group (model x class by default) in table, json, csv or markdown. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "analyze_options.h"
#include "commands.h"
#include "compare.h"
#include "log.h"
#include "stream_bursts.h"
#include "summary_output.h"
#include "text_out.h"

static void summary_help(void)
{
    printf(
        "usage: tokentrace-analyze summary TRACE... [--by model,class]\n"
        "         [--format table|json|csv|markdown|openmetrics]\n"
        "         [--slo ttft=500ms,tpot=50ms]\n"
        "         [--tokens auto|usage|chunks] [--classify declared|measured]\n"
        "         [--detail] [--width N] [--include-transient]\n"
        "\n"
        "The table (the default) is one header line, one row per group (n,\n"
        "failed %%, TTFT, TPOT, ITL, latency, per-request tok/s) and the\n"
        "findings: the fastest and slowest model per class, failures, what\n"
        "not to trust. --detail prints every metric of every group instead.\n"
        "A trace recorded with --server-metrics adds the server's own side\n"
        "after the table: running/waiting requests and KV-cache use (min,\n"
        "median, max), its TTFT, queue, prefill, decode, e2e histograms as\n"
        "deltas over the run (JSON: traces[].server_metrics;\n"
        "docs/server-metrics.md).\n"
        "\n"
        "Recomputes every metric from the raw bytes in the traces (see\n"
        "docs/metrics.md): TTFT, TTFT of the first answer token, server TTFT,\n"
        "TPOT, ITL, latency, stream end, tokens, per-request TPS, tokens per\n"
        "chunk and, for open-loop runs, send lag and times from the intended "
        "send.\n"
        "Percentiles are type 7 (numpy's default). Failed requests are "
        "counted\n"
        "by error kind and kept out of the timing distributions; warmup "
        "requests\n"
        "are excluded.\n"
        "\n"
        "  --by KEYS        group by model, class, trace, stage, turn (a "
        "session's\n"
        "                   turn index), label:KEY, header:NAME (a kept "
        "response\n"
        "                   header; comma list)\n"
        "  --format F       table (default), json (stable schema 1), csv, "
        "markdown,\n"
        "                   openmetrics (Prometheus text exposition, "
        "seconds;\n"
        "                   docs/automation.md)\n"
        "  --slo LIST       goodput: share and rate of requests meeting every "
        "SLO\n"
        "                   (ttft, tpot, itl, latency; a number with a unit "
        "ns, us,\n"
        "                   ms, s, m or h: ttft=500ms,tpot=50ms)\n"
        "  --tokens SRC     auto: server usage when reported, else chunks "
        "carrying\n"
        "                   text; usage; chunks\n"
        "  --classify HOW   declared (the workload's class) or measured (input "
        ">\n"
        "                   1024 tokens is long, output > 256 tokens is long)\n"
        "  --as TOOL        the same requests under another tool's "
        "definitions:\n"
        "                   vllm, sglang, aiperf, guidellm, llmperf, "
        "genai-bench;\n"
        "                   all: a reconciliation table, each number beside\n"
        "                   tokentrace's, the difference and why\n"
        "                   (docs/definitions.md; table, json or markdown)\n"
        "  --include-transient  with --by stage: keep the requests of each\n"
        "                   stage's ramp-up and drain (left out by default, "
        "as\n"
        "                   capacity does, and counted: docs/capacity.md)\n"
        "  --detail         the full block per group: p50 p90 p99 mean min max "
        "n\n"
        "                   of every metric, errors and goodput per group\n"
        "  --width N        lay the table out for N columns (default: the\n"
        "                   terminal's width, else $COLUMNS, else 80)\n"
        "\n"
        "Colour only on a terminal, never when NO_COLOR is set.\n"
        "\n"
        "TRACE may be '-' (stdin); concatenated traces are read as several.\n"
        "A trace read twice ('a a', 'cat a a') is counted once, with a "
        "warning;\n"
        "--keep-repeated counts every copy.\n"
        "Shards of one run (tokentrace-record --shard, --procs) are pooled;\n"
        "a block per run says which shards are missing, twice or cut, the\n"
        "start skew, the wall span with its clock uncertainty and a row per\n"
        "shard (requests, errors, send lag, loop lag, host); JSON: "
        "\"shards\".\n"
        "Shards whose settings differ (their run_match: seed, load, workload,\n"
        "models, API, N, shard count, start) are refused: exit 1 naming the\n"
        "field and the shards.\n"
        "  --merge-anyway   merge them all the same; every output says so\n"
        "Exit 1 also when a run is incomplete (a shard missing, twice or "
        "cut).\n"
        "examples:\n"
        "  tokentrace-analyze summary week48.ttrace\n"
        "  tokentrace-analyze summary a.ttrace b.ttrace --by model,label:week "
        "\\\n"
        "      --format markdown\n"
        "  tokentrace-analyze summary run.ttrace --format json |\n"
        "      jq '.overall.ttft_ms.p50'\n");
}

/* Warns once per group whose streams report no usage while each chunk
 * carries the text of several tokens: counts from chunks are then too low
 * (and TPOT too high); says so with an estimate from the text size,
 * labelled as one. */
static void warn_packed(const struct group_set *set)
{
    char name[600];
    for (size_t i = 0; i < set->n_groups; i++) {
        const struct group *g = set->groups[i];
        double est;
        if (!g->packed_no_usage)
            continue;
        group_describe(g, name, sizeof(name));
        est = (double)g->packed_text_bytes / (double)g->packed_no_usage /
              METRICS_BYTES_PER_TOKEN_EST;
        log_warn("%s: %llu of %llu requests report no usage and their chunks "
                 "carry %d or more text bytes each (several tokens per "
                 "chunk?): output tokens and TPOT counted from chunks are "
                 "wrong; estimated from text size, about %.0f output tokens "
                 "per request (bytes / %d, an estimate); record with usage "
                 "(stream_options.include_usage) to measure them",
                 name, (unsigned long long)g->packed_no_usage,
                 (unsigned long long)g->ok, METRICS_PACKED_BYTES_PER_EVENT, est,
                 METRICS_BYTES_PER_TOKEN_EST);
    }
}

/* Usage above the token events by more than this share is packing:
 * several tokens per chunk (2 or more each, a 100% difference, for the
 * usual batching). Below it, the difference is tokens a server held back
 * and sent merged (llama.cpp's byte-fallback tokens of one multi-byte
 * character: 1-2% on non-ASCII text), which leaves TPOT and ITL right. */
#define SUMMARY_PACKING_SHARE 0.10

/* Warns once per group whose streams look held and released by something
 * between the server and the client (a gateway or proxy that buffers). */
static void warn_buffered(const struct group_set *set)
{
    char name[600];
    int64_t self_max = -1;
    /* the recorder's own stalls pile events up in the socket the same way */
    for (size_t i = 0; i < set->n_traces; i++)
        if (set->traces[i]->loop_lag_samples > 0 &&
            set->traces[i]->loop_lag_max_ns > self_max)
            self_max = set->traces[i]->loop_lag_max_ns;
    for (size_t i = 0; i < set->n_groups; i++) {
        const struct group *g = set->groups[i];
        if (!g->buffered)
            continue;
        group_describe(g, name, sizeof(name));
        log_warn("%s: %llu of %llu requests look buffered on the way: their "
                 "chunks, one token each, arrive in bursts (%.0f%% or more of "
                 "the gaps under %.1f ms) after holds of %lld ms or more; a "
                 "gateway or proxy holds the stream, so ITL and TPOT describe "
                 "it, not the server (requests: burst_share, buffered)%s",
                 name, (unsigned long long)g->buffered,
                 (unsigned long long)g->ok, 100 * STREAM_BUFFERED_SHARE,
                 (double)STREAM_BURST_GAP_NS / 1e6,
                 (long long)(STREAM_BUFFER_HOLD_NS / 1000000),
                 self_max >= STREAM_BUFFER_HOLD_NS
                     ? "; but the recorder itself woke up that late (see its "
                       "self-check), and its own stalls look the same"
                     : "");
    }
}

/* Once per group whose usage and token-event counts disagree: a warning
 * when it is packing, a note when it is only merged tokens. */
static void warn_disagreement(const struct group_set *set)
{
    char name[600];
    for (size_t i = 0; i < set->n_groups; i++) {
        const struct group *g = set->groups[i];
        double share;
        if (!g->usage_disagree)
            continue;
        group_describe(g, name, sizeof(name));
        share = g->disagree_events ? ((double)g->disagree_usage_tokens -
                                      (double)g->disagree_events) /
                                         (double)g->disagree_events
                                   : 1.0;
        if (share > SUMMARY_PACKING_SHARE)
            log_warn("%s: in %llu of %llu requests the server's usage counts "
                     "%+.0f%% tokens against the chunks carrying text: "
                     "several tokens per chunk (packing); TPOT uses the %s "
                     "count, and ITL is a gap between chunks",
                     name, (unsigned long long)g->usage_disagree,
                     (unsigned long long)g->ok, 100.0 * share,
                     group_token_source(g));
        else if (share < -SUMMARY_PACKING_SHARE)
            log_warn("%s: in %llu of %llu requests the server's usage counts "
                     "%+.0f%% tokens against the chunks carrying text: chunks "
                     "carry text that usage does not count (events that are "
                     "not tokens); TPOT uses the %s count",
                     name, (unsigned long long)g->usage_disagree,
                     (unsigned long long)g->ok, 100.0 * share,
                     group_token_source(g));
        else
            log_note("%s: in %llu of %llu requests the server's usage counts "
                     "%+.1f%% tokens against the chunks carrying text: tokens "
                     "held back and sent merged (a multi-byte character "
                     "split over byte tokens), not packing; TPOT uses the %s "
                     "count",
                     name, (unsigned long long)g->usage_disagree,
                     (unsigned long long)g->ok, 100.0 * share,
                     group_token_source(g));
    }
}

/* Warns once per group of an --ignore-eos run whose requests stopped
 * before the max_tokens they asked for: the server ignored the flag. */
static void warn_ignore_eos(const struct group_set *set)
{
    char name[600];
    for (size_t i = 0; i < set->n_groups; i++) {
        const struct group *g = set->groups[i];
        if (!g->ignore_eos_early)
            continue;
        group_describe(g, name, sizeof(name));
        log_warn("%s: %llu of %llu requests of an --ignore-eos run ended "
                 "before their max_tokens (finish: stop %llu, length %llu): "
                 "the server did not honour ignore_eos, so output lengths "
                 "are not the ones asked for",
                 name, (unsigned long long)g->ignore_eos_early,
                 (unsigned long long)g->ignore_eos_ok,
                 (unsigned long long)g->finish[FINISH_STOP],
                 (unsigned long long)g->finish[FINISH_LENGTH]);
    }
}

/* Table and markdown end with a line per trace that was damaged or has no
 * footer, so a partial analysis cannot pass for a whole one (JSON carries
 * traces[].complete and .damage; CSV relies on the warning on stderr). */
static void integrity_lines(FILE *out, const struct group_set *set, bool md)
{
    struct buf b;
    buf_init(&b, 0);
    for (size_t i = 0; i < set->n_traces; i++) {
        const struct trace_info *t = set->traces[i];
        if (!t->damage && t->has_footer)
            continue;
        buf_puts(&b, b.len ? "" : "\n");
        if (t->damage) {
            buf_puts(
                &b, md ? "> **Warning:** damaged trace, analyzed up to the "
                         "damage: "
                       : "warning: damaged trace, analyzed up to the damage: ");
            if (md)
                md_put(&b, t->damage, 0);
            else
                buf_puts(&b, t->damage);
        } else {
            buf_puts(&b, md ? "> **Note:** " : "note: ");
            if (md)
                md_put(&b, t->file, 0);
            else
                buf_puts(&b, t->file);
            buf_printf(&b,
                       " (trace %u) has no footer: the recording did not end "
                       "cleanly; unfinished requests count as failed",
                       t->index);
        }
        buf_puts(&b, md ? "\n>\n" : "\n");
    }
    if (md && b.len > 3)
        b.len -= 2; /* no trailing ">" line */
    if (b.len)
        fwrite(b.data, 1, b.len, out);
    buf_free(&b);
}

/* Says how many requests of the stages' ramp-up and drain a --by stage
 * summary left out (or kept), so a smaller n is never silent: a line
 * under the table or markdown, a note on stderr for the other formats
 * (JSON has each group's "transient"). */
static void transient_line(FILE *out, const struct group_set *set,
                           enum out_format format)
{
    unsigned long long n = set->overall.transient;
    char text[400];
    if (!set->window || n == 0)
        return;
    snprintf(text, sizeof text,
             set->keep_transient
                 ? "%llu transient request%s (sent during a stage's ramp-up "
                   "or ended during its drain) are included "
                   "(--include-transient)"
                 : "%llu transient request%s (sent during a stage's ramp-up "
                   "or ended during its drain) are left out of the stage "
                   "groups and the overall numbers, as capacity leaves them "
                   "out; --include-transient keeps them",
             n, n == 1 ? "" : "s");
    if (format == FMT_TABLE)
        fprintf(out, "\nnote: %s\n", text);
    else if (format == FMT_MARKDOWN)
        fprintf(out, "\n> **Note:** %s\n", text);
    else
        log_note("%s", text);
}

/* The layout of the compact table: --width, else the terminal's width,
 * else $COLUMNS, else 80; colour on a terminal unless NO_COLOR is set
 * (https://no-color.org) or TERM is dumb. */
static struct summary_view summary_view_for(const struct analyze_options *o)
{
    struct summary_view v = {80, false};
    const char *cols = getenv("COLUMNS"), *nc = getenv("NO_COLOR");
    const char *term = getenv("TERM");
    bool tty = isatty(STDOUT_FILENO) == 1;
    struct winsize ws;
    if (o->width)
        v.width = o->width;
    else if (tty && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
             ws.ws_col >= 40)
        v.width = ws.ws_col;
    else if (cols) {
        char *end;
        long w = strtol(cols, &end, 10);
        if (end != cols && !*end && w >= 40 && w <= 1000)
            v.width = (int)w;
    }
    v.color = tty && !(nc && nc[0]) && !(term && strcmp(term, "dumb") == 0);
    return v;
}

int cmd_summary(int argc, char **argv)
{
    struct analyze_options o;
    struct group_set set;
    struct shard_set shards;
    int rc, wrc;
    unsigned formats = 1u << FMT_TABLE | 1u << FMT_JSON | 1u << FMT_CSV |
                       1u << FMT_MARKDOWN | 1u << FMT_OPENMETRICS;
    rc = analyze_options_parse(argc, argv,
                               OPT_BY | OPT_FORMAT | OPT_SLO | OPT_TOKENS |
                                   OPT_CLASSIFY | OPT_AS | OPT_DETAIL |
                                   OPT_TRANSIENT | OPT_MERGE,
                               formats, "summary", &o);
    if (rc || o.help) {
        if (o.help)
            summary_help();
        free(o.traces);
        return rc;
    }
    if (o.as) { /* its own output path: other tools' definitions */
        rc = cmd_summary_as(&o);
        free(o.traces);
        return rc;
    }
    rc = analyze_load_groups(&o, "model,class", &set);
    if (rc == 2) { /* a bad flag value: the set was never made */
        free(o.traces);
        return 2;
    }
    if (rc && set.n_traces == 0) {
        /* no input read at all: the error said why; an empty table under
         * it would read as a trace of nothing (issue 32) */
        group_set_free(&set);
        free(o.traces);
        return rc;
    }
    group_set_summarize(&set);
    if (shard_set_build(&set, &shards)) {
        log_error("out of memory");
        group_set_free(&set);
        free(o.traces);
        return 1;
    }
    if (shard_set_refuse(&shards, o.merge_anyway) && !o.merge_anyway) {
        shard_set_free(&shards);
        group_set_free(&set);
        free(o.traces);
        return 1;
    }
    warn_disagreement(&set);
    warn_packed(&set);
    warn_ignore_eos(&set);
    warn_buffered(&set);
    for (size_t i = 0; i < set.n_traces; i++)
        if (summary_self_lag_too_high(&set, set.traces[i]))
            log_warn("%s: the recorder's own event loop woke up to %.3f ms "
                     "late (p99), over 10%% of its own ITL p50: these timings "
                     "describe the client as much as the server",
                     set.traces[i]->file,
                     (double)summary_self_check_p99_ns(set.traces[i]) / 1e6);
    switch (o.format) {
    case FMT_JSON: {
        struct buf ab; /* A against B (issue 32), "ab" at the end */
        buf_init(&ab, 0);
        if (compare_models_put(&ab, &set, 0, AB_JSON) || buf_error(&ab))
            wrc = 1;
        else
            wrc = summary_write_json_with(stdout, &set, ab.data);
        buf_free(&ab);
        break;
    }
    case FMT_CSV:
        wrc = summary_write_csv(stdout, &set);
        break;
    case FMT_MARKDOWN:
        wrc = summary_write_markdown(stdout, &set);
        break;
    case FMT_OPENMETRICS:
        wrc = summary_write_openmetrics(stdout, &set);
        break;
    default:
        if (o.detail) {
            wrc = summary_write_table(stdout, &set);
        } else {
            struct summary_view view = summary_view_for(&o);
            wrc = summary_write_compact(stdout, &set, &view);
        }
        break;
    }
    if ((o.format == FMT_TABLE || o.format == FMT_MARKDOWN) &&
        compare_models_write(stdout, &set, summary_view_for(&o).width,
                             o.format == FMT_MARKDOWN))
        wrc = 1; /* A against B with intervals (issue 32) */
    if (o.format == FMT_TABLE && summary_write_server(stdout, &set, o.detail))
        wrc = 1;
    if ((o.format == FMT_TABLE || o.format == FMT_MARKDOWN) &&
        summary_write_shards(stdout, &shards, o.format == FMT_MARKDOWN))
        wrc = -1;
    if (o.format == FMT_TABLE || o.format == FMT_MARKDOWN)
        integrity_lines(stdout, &set, o.format == FMT_MARKDOWN);
    shard_set_warn(&shards);
    if (!shard_set_complete(&shards)) /* a dead shard is no success */
        wrc = 1;
    shard_set_free(&shards);
    transient_line(stdout, &set, o.format);
    if (fflush(stdout) != 0 || wrc)
        rc = 1;
    group_set_free(&set);
    free(o.traces);
    return rc;
}
