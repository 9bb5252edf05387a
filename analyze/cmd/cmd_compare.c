/* cmd_compare: `tokentrace-analyze compare BASE NEW...`: per model x class,
 * what changed from BASE to each NEW and whether it is more than noise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_options.h"
#include "commands.h"
#include "compare.h"
#include "fail_on.h"
#include "log.h"
#include "printable.h"
#include "shard_gate.h"

static void compare_help(void)
{
    printf(
        "usage: tokentrace-analyze compare BASE NEW... [--by KEYS] [--seed S]\n"
        "         [--format table|json|markdown] [--width N | --wide]\n"
        "         [--tokens auto|usage|chunks]\n"
        "         [--classify declared|measured] [--fail-on "
        "ttft_p99=+10%%,...]\n"
        "         [--metric ttft_p95,itl_p99.9,...]\n"
        "\n"
        "For every model x class present in both BASE and a NEW: p50, p90 and\n"
        "p99 of TTFT, TPOT, ITL, latency and output tokens side by side, the\n"
        "difference new - base (absolute and %%), and a 95%% "
        "percentile-bootstrap\n"
        "confidence interval of the difference of medians (%u resamples with "
        "a\n"
        "PRNG seeded by --seed, default 1: the same traces and seed give the "
        "same\n"
        "intervals). A change is \"real\" when the interval excludes 0, "
        "\"noise\"\n"
        "when it holds 0, \"too few\" below %d requests on a side. Bootstrap\n"
        "samples are per request (TTFT, TPOT, latency, tokens); for ITL each\n"
        "request contributes its median gap, since gaps within one stream are\n"
        "not independent. One verdict line per group sums it up, and one\n"
        "line first sums up all groups. p99 gets its own interval and\n"
        "verdict too, \"too few\" below %zu requests a side (the p99 of\n"
        "fewer is their maximum).\n"
        "Below %d requests on a side there is no verdict: compare says so\n"
        "once, loudly (NO VERDICT), with the -n each side would need at its\n"
        "own success rate. When the sides differ in API kind, load\n"
        "(concurrency, rate, sweep) or workload it warns and compares all\n"
        "the same (JSON: too_few, setup).\n"
        "\n"
        "Each FILE argument is one side, even when it holds several "
        "concatenated\n"
        "traces (cat a.ttrace b.ttrace > week48.ttrace).\n"
        "\n"
        "  --by KEYS        the groups compared (default model,class): any\n"
        "                   of summary's keys; turn compares a session\n"
        "                   workload or a capture turn by turn (turn 1 with\n"
        "                   turn 1...): a captured trace against its replay\n"
        "                   (tokentrace-record -w CAPTURED.ttrace) says per\n"
        "                   turn which side was faster\n"
        "  --width N        where the text wraps (default 80; the rows of p50\n"
        "                   and p99 stay about 80 wide); from %d columns on,\n"
        "                   the full table\n"
        "  --wide           the full table (p50, p90, p99; about 140 columns)\n"
        "  --metric LIST    more verdicts per group, at any percentile:\n"
        "                   METRIC_pSTAT, comma list (ttft_p95,itl_p99.9,\n"
        "                   latency_p90); METRIC ttft, tpot, itl, latency,\n"
        "                   output_tokens; STAT above 0, below 100. Each\n"
        "                   gets a row under its metric: the difference,\n"
        "                   the %.0f%% bootstrap interval of the difference "
        "of\n"
        "                   that percentile, real / noise / \"too few\" below\n"
        "                   100 / (100 - STAT) values a side (p95: 20,\n"
        "                   p99.9: 1000), and the -n a verdict needs\n"
        "                   (JSON: percentiles, too_few_percentiles)\n"
        "  --fail-on RULES  exit 3 when a NEW's percentile rises beyond a "
        "limit\n"
        "                   over BASE in any group: METRIC_pSTAT=+N%% or\n"
        "                   +DURATION, comma list; METRIC ttft, tpot, itl,\n"
        "                   latency; STAT 50, 90, 99 (ttft_p99=+10%%,"
        "tpot_p50=+2ms)\n"
        "  --merge-anyway   pool, in a side, shards of one run id that are not "
        "one run\n"
        "                   (their run_match differs; else refused, exit 1);\n"
        "                   said on stderr and in the text\n"
        "\n"
        "exit codes: 0 compared (whatever the verdicts), 1 an input was "
        "damaged\n"
        "(compared up to the damage) or unreadable, or a side's shard run is "
        "cut,\n"
        "missing a shard or not one run, 2 usage error, 3 a --fail-on limit "
        "was\n"
        "crossed (each crossing on stderr)\n"
        "examples:\n"
        "  tokentrace-analyze compare week47.ttrace week48.ttrace\n"
        "  tokentrace-analyze compare base.ttrace gw-a.ttrace gw-b.ttrace \\\n"
        "      --format markdown\n"
        "  tokentrace-analyze compare captured.ttrace replayed.ttrace --by "
        "turn\n",
        STATS_BOOTSTRAP_ITERATIONS, COMPARE_MIN_SAMPLES,
        compare_min_samples(99), COMPARE_MIN_SAMPLES, COMPARE_WIDE_AT,
        COMPARE_LEVEL * 100);
}

/* The metric of compare a --fail-on rule names (a time), or -1. */
static int compare_metric_of(const char *name)
{
    int c = compare_metric_named(name);
    return c >= 0 && strcmp(compare_metrics[c].unit, "ms") == 0 ? c : -1;
}

/* compare's own flags. */
struct compare_cli {
    const char *metric; /* --metric LIST */
};
#define AT(f) OPT_AT(struct compare_cli, f)
static const struct opt_spec compare_opts[] = {
    {.name = "metric", .kind = OPT_STRING, .at = AT(metric)},
};
#undef AT

/* Parses --metric LIST (METRIC_pSTAT items, fail_on's parser) into x.
 * Returns 0, or -1 after saying which item is bad and what is valid. */
static int parse_metrics(const char *list, struct compare_pctl *x, size_t *n)
{
    const char *p = list;
    char why[200];
    *n = 0;
    while (p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char name[16];
        double q;
        int m;
        if (*n == COMPARE_MAX_PCTL) {
            log_error("compare --metric: at most %d items", COMPARE_MAX_PCTL);
            return -1;
        }
        if (metric_stat_parse(p, len, name, sizeof name, &q, why, sizeof why)) {
            log_error("compare --metric: %s; valid: METRIC_pSTAT, METRIC "
                      "ttft, tpot, itl, latency or output_tokens (ttft_p95, "
                      "itl_p99.9)",
                      why);
            return -1;
        }
        if ((m = compare_metric_named(name)) < 0) {
            log_error("compare --metric: '%.*s': '%s' is not a metric; valid: "
                      "ttft, tpot, itl, latency, output_tokens (ttft_p95, "
                      "itl_p99.9)",
                      (int)len, p, name);
            return -1;
        }
        x[*n].m = (enum compare_metric)m;
        x[*n].q = q;
        snprintf(x[*n].name, sizeof x[*n].name, "%s_p%g", name, q);
        (*n)++;
        p = comma ? comma + 1 : NULL;
    }
    return 0;
}

static double percentile_of(const struct stats_summary *s, int stat)
{
    return stat == 50 ? s->p50 : stat == 90 ? s->p90 : s->p99;
}

/* Says on stderr every group and rule whose NEW crosses the limit over
 * BASE; true when any does. */
static bool compare_regressions(const struct compare_result *res, size_t n_new,
                                const struct fail_on *fail)
{
    bool any = false;
    char raw[600], name[700], rule[64], file[300];
    for (size_t i = 0; i < n_new; i++)
        for (size_t p = 0; p < res[i].n_pairs; p++)
            for (size_t r = 0; r < fail->n; r++) {
                const struct fail_rule *fr = &fail->rules[r];
                const struct compare_cell *c =
                    &res[i].pairs[p].cell[compare_metric_of(fr->metric)];
                double b, n;
                if (!c->base || !c->new_)
                    continue;
                b = percentile_of(c->base, fr->stat);
                n = percentile_of(c->new_, fr->stat);
                if (!fail_rule_broken(fr, b, n))
                    continue;
                any = true;
                compare_group_name(&res[i].new_->set, res[i].pairs[p].new_, raw,
                                   sizeof raw);
                printable_copy(name, sizeof name, raw);
                fail_rule_text(fr, rule, sizeof rule);
                log_error(
                    "regression: %s: %s: %s p%d %.1f -> %.1f ms "
                    "(%+.1f%%), beyond --fail-on %s",
                    printable_copy(file, sizeof file, res[i].new_->file), name,
                    compare_metrics[compare_metric_of(fr->metric)].title,
                    fr->stat, b, n, b > 0 ? (n - b) / b * 100 : 0.0, rule);
            }
    return any;
}

int cmd_compare(int argc, char **argv)
{
    struct analyze_options o;
    struct compare_side *sides = NULL;
    struct compare_result *res = NULL;
    size_t n_new = 0, n_sides = 0;
    int rc, wrc, st;
    struct fail_on fail = {0};
    struct compare_cli cli = {0};
    struct opt_table own = {compare_opts,
                            sizeof compare_opts / sizeof compare_opts[0], &cli};
    struct compare_pctl pctl[COMPARE_MAX_PCTL];
    size_t n_pctl = 0;
    struct shard_gate gate, first = {0};
    char gate_json[512];
    char err[256];
    rc = analyze_options_parse_with(
        argc, argv,
        OPT_FORMAT | OPT_SEED | OPT_TOKENS | OPT_CLASSIFY | OPT_FAIL_ON |
            OPT_BY | OPT_WIDTH | OPT_MERGE,
        1u << FMT_TABLE | 1u << FMT_JSON | 1u << FMT_MARKDOWN, &own, "compare",
        &o);
    if (rc || o.help) {
        if (o.help)
            compare_help();
        free(o.traces);
        return rc;
    }
    if (o.fail_on && fail_on_parse(o.fail_on, &fail, err, sizeof err)) {
        log_error("compare: %s", err);
        free(o.traces);
        return 2;
    }
    if (cli.metric && parse_metrics(cli.metric, pctl, &n_pctl)) {
        free(o.traces);
        return 2;
    }
    for (size_t r = 0; r < fail.n; r++)
        if (compare_metric_of(fail.rules[r].metric) < 0) {
            log_error("compare: --fail-on: '%s' is not ttft, tpot, itl or "
                      "latency",
                      fail.rules[r].metric);
            free(o.traces);
            return 2;
        }
    if (o.n_traces < 2) {
        log_error("compare: needs BASE and at least one NEW trace (try "
                  "tokentrace-analyze compare --help)");
        free(o.traces);
        return 2;
    }
    for (size_t i = 0; i < o.n_traces; i++) { /* each side is one pool */
        if (shard_gate_check(&o.traces[i], 1, o.merge_anyway, &gate)) {
            free(o.traces); /* a run not one: said, nothing written */
            return 1;
        }
        shard_gate_add(&first, &gate); /* the sides' checks together */
    }
    sides = calloc(o.n_traces, sizeof(*sides));
    res = calloc(o.n_traces, sizeof(*res));
    if (!sides || !res)
        goto nomem;
    for (; n_sides < o.n_traces; n_sides++) {
        st = compare_side_load_by(&sides[n_sides], o.traces[n_sides], &o.load,
                                  o.by, err, sizeof err);
        if (st == -2) {
            log_error("compare --by: %s", err);
            rc = 2;
            n_sides++;
            goto done;
        }
        if (st < 0) {
            n_sides++;
            goto nomem;
        }
        rc |= st;
    }
    for (; n_new + 1 < n_sides; n_new++)
        if (compare_run(&sides[0], &sides[n_new + 1], o.seed, &res[n_new]) ||
            compare_pctl_run(&res[n_new], pctl, n_pctl, o.seed)) {
            n_new++;
            goto nomem;
        }
    for (size_t i = 0; i < n_new; i++)
        compare_warn(&res[i]);
    switch (o.format) {
    case FMT_JSON:
        wrc = compare_write_json(
            stdout, res, n_new, o.seed,
            shard_gate_json(&first, gate_json, sizeof gate_json));
        break;
    case FMT_MARKDOWN:
        wrc = compare_write_markdown(stdout, res, n_new, o.seed);
        break;
    default:
        wrc = compare_write_table(stdout, res, n_new, o.seed,
                                  o.wide ? 0 : (o.width ? o.width : 80));
        break;
    }
    if (o.format != FMT_JSON && shard_gate_line(stdout, &first))
        wrc = -1;
    if (wrc) {
        rc = 1; /* the writer said why */
    } else if (fflush(stdout) != 0) {
        log_error("compare: cannot write the output");
        rc = 1;
    }
    if (rc == 0 && fail.n && compare_regressions(res, n_new, &fail))
        rc = FAIL_ON_EXIT;
    if (rc == 0 && first.n_incomplete)
        rc = 1; /* a shard cut or missing: said on stderr */
    goto done;
nomem:
    log_error("compare: out of memory");
    rc = 1;
done:
    for (size_t i = 0; res && i < n_new; i++)
        compare_result_free(&res[i]);
    for (size_t i = 0; sides && i < n_sides; i++)
        compare_side_free(&sides[i]);
    free(res);
    free(sides);
    free(o.traces);
    return rc;
}
