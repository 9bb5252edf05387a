/* cmd_trend: `tokentrace-analyze trend TRACE...`: p50/p99 of TTFT, TPOT and
 * latency per ISO week (or day) x model x class across many traces. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_options.h"
#include "commands.h"
#include "fail_on.h"
#include "log.h"
#include "printable.h"
#include "shard_gate.h"
#include "trend.h"

static void trend_help(void)
{
    printf(
        "usage: tokentrace-analyze trend TRACE... [--by week|day]\n"
        "         [--format table|json|csv|markdown] [--tokens "
        "auto|usage|chunks]\n"
        "         [--classify declared|measured] [--width N | --wide]\n"
        "         [--merge-anyway]\n"
        "\n"
        "Merges the traces (listed by recording time) and puts every request "
        "in\n"
        "the period of its wall-clock start in UTC, real_zero + (start -\n"
        "mono_zero): the ISO 8601 week (\"2026-W48\", weeks start on Monday "
        "and\n"
        "belong to the year of their Thursday) or the day (\"2026-11-30\"). "
        "For\n"
        "each period x model x class: how many traces contributed, n "
        "(requests\n"
        "that succeeded; warmup excluded), failures, and p50/p99 of TTFT, "
        "TPOT\n"
        "and latency in ms. Rows are sorted by period, model, class.\n"
        "Traces of different API kinds (--api of the recording) are never\n"
        "merged: a chat and a completions run of one model are two rows, and\n"
        "the table shows an api column when there are several (JSON and CSV\n"
        "always carry api).\n"
        "The table starts with a one-line verdict (how many model x class\n"
        "rose or fell 10%% or more in TTFT p50 from their previous period)\n"
        "and fits 80 columns: a block per model x class, a row per period\n"
        "with TTFT p50/p99, TPOT p50 and latency p50, each with its change\n"
        "(chg) from the period before.\n"
        "\n"
        "  --by P           week (default) or day\n"
        "  --format F       table (default), json, csv (for charts), markdown\n"
        "  --fail-on RULES  exit 3 when the latest period of a model x class\n"
        "                   rises beyond a limit over the period before it:\n"
        "                   METRIC_pSTAT=+N%% or +DURATION, comma list; "
        "METRIC\n"
        "                   ttft, tpot, latency; STAT 50, 90, 99\n"
        "                   (ttft_p99=+10%%)\n"
        "  --width N        where the text wraps (default 80); from 120 on,\n"
        "                   the full table\n"
        "  --wide           the full table: a row per period x model x class\n"
        "                   with TPOT and latency p99 (about 120 columns)\n"
        "  --merge-anyway   pool shards of one run id that are not one run\n"
        "                   (their run_match differs; else refused, exit 1);\n"
        "                   said on stderr and in the text\n"
        "\n"
        "exit codes: 0 ok, 1 a trace was damaged (read up to the damage) or\n"
        "unreadable, or a shard run is cut, missing a shard or not one run,\n"
        "2 usage error, 3 a --fail-on limit was crossed (each crossing on\n"
        "stderr)\n"
        "examples:\n"
        "  tokentrace-analyze trend traces/*.ttrace\n"
        "  tokentrace-analyze trend traces/*.ttrace --by day --format csv > "
        "trend.csv\n");
}

/* The trend metric a --fail-on rule names, or -1. */
static int trend_metric_of(const char *name)
{
    size_t n = strlen(name);
    for (int m = 0; m < TR_COUNT; m++)
        if (strncmp(trend_metrics[m].key, name, n) == 0 &&
            strcmp(trend_metrics[m].key + n, "_ms") == 0)
            return m;
    return -1;
}

static double trend_percentile(const struct stats_summary *s, int stat)
{
    return stat == 50 ? s->p50 : stat == 90 ? s->p90 : s->p99;
}

/* The row before rows[i] (in period order) with the same model, class and
 * API kind, or NULL. */
static const struct trend_row *previous_row(const struct trend_set *set,
                                            size_t i)
{
    const struct trend_row *r = set->rows[i];
    while (i-- > 0) {
        const struct trend_row *p = set->rows[i];
        if (strcmp(p->model, r->model) == 0 &&
            strcmp(p->class_name, r->class_name) == 0 &&
            strcmp(p->api, r->api) == 0 && strcmp(p->period, "unknown") != 0)
            return p;
    }
    return NULL;
}

/* True when rows[i] is the last period of its model x class x API. */
static bool latest_row(const struct trend_set *set, size_t i)
{
    const struct trend_row *r = set->rows[i];
    for (size_t j = i + 1; j < set->n_rows; j++)
        if (strcmp(set->rows[j]->model, r->model) == 0 &&
            strcmp(set->rows[j]->class_name, r->class_name) == 0 &&
            strcmp(set->rows[j]->api, r->api) == 0)
            return false;
    return strcmp(r->period, "unknown") != 0;
}

/* Says on stderr every model x class whose latest period crosses a rule's
 * limit over its previous period; true when any does. */
static bool trend_regressions(const struct trend_set *set,
                              const struct fail_on *fail)
{
    bool any = false;
    char model[300], cls[300], rule[64];
    for (size_t i = 0; i < set->n_rows; i++) {
        const struct trend_row *r = set->rows[i], *p;
        if (!latest_row(set, i) || !(p = previous_row(set, i)))
            continue;
        for (size_t k = 0; k < fail->n; k++) {
            const struct fail_rule *fr = &fail->rules[k];
            int m = trend_metric_of(fr->metric);
            double b = trend_percentile(&p->sum[m], fr->stat);
            double n = trend_percentile(&r->sum[m], fr->stat);
            if (!fail_rule_broken(fr, b, n))
                continue;
            any = true;
            fail_rule_text(fr, rule, sizeof rule);
            log_error("regression: %s / %s: %s p%d %.1f ms in %s -> %.1f ms "
                      "in %s (%+.1f%%), beyond --fail-on %s",
                      printable_copy(model, sizeof model, r->model),
                      printable_copy(cls, sizeof cls, r->class_name),
                      trend_metrics[m].title, fr->stat, b, p->period, n,
                      r->period, b > 0 ? (n - b) / b * 100 : 0.0, rule);
        }
    }
    return any;
}

int cmd_trend(int argc, char **argv)
{
    struct analyze_options o;
    struct trend_set set;
    int rc, st, wrc;
    bool by_week = true;
    struct fail_on fail = {0};
    struct shard_gate gate;
    char gate_json[512];
    char err[256];
    rc = analyze_options_parse(
        argc, argv,
        OPT_PERIOD | OPT_FORMAT | OPT_TOKENS | OPT_CLASSIFY | OPT_FAIL_ON |
            OPT_WIDTH | OPT_MERGE,
        1u << FMT_TABLE | 1u << FMT_JSON | 1u << FMT_CSV | 1u << FMT_MARKDOWN,
        "trend", &o);
    if (rc || o.help) {
        if (o.help)
            trend_help();
        free(o.traces);
        return rc;
    }
    if (o.period && strcmp(o.period, "day") == 0) {
        by_week = false;
    } else if (o.period && strcmp(o.period, "week") != 0) {
        log_error("trend: --by '%s' is not week or day", o.period);
        free(o.traces);
        return 2;
    }
    if (o.fail_on && fail_on_parse(o.fail_on, &fail, err, sizeof err)) {
        log_error("trend: %s", err);
        free(o.traces);
        return 2;
    }
    for (size_t r = 0; r < fail.n; r++)
        if (trend_metric_of(fail.rules[r].metric) < 0) {
            log_error("trend: --fail-on: '%s' is not ttft, tpot or latency",
                      fail.rules[r].metric);
            free(o.traces);
            return 2;
        }
    if (shard_gate_check(o.traces, o.n_traces, o.merge_anyway, &gate)) {
        free(o.traces); /* a run not one: said, nothing written */
        return 1;
    }
    trend_init(&set, by_week, o.load.classify_measured);
    st = trend_load(&set, o.traces, o.n_traces, &o.load);
    if (st < 0 || trend_finish(&set) != 0) {
        log_error("trend: out of memory");
        trend_free(&set);
        free(o.traces);
        return 1;
    }
    rc = st;
    switch (o.format) {
    case FMT_JSON:
        wrc = trend_write_json(
            stdout, &set, shard_gate_json(&gate, gate_json, sizeof gate_json));
        break;
    case FMT_CSV:
        wrc = trend_write_csv(stdout, &set);
        break;
    case FMT_MARKDOWN:
        wrc = trend_write_markdown(stdout, &set);
        break;
    default:
        wrc = trend_write_table(stdout, &set,
                                o.wide ? 0 : (o.width ? o.width : 80));
        break;
    }
    if ((o.format == FMT_TABLE || o.format == FMT_MARKDOWN) &&
        shard_gate_line(stdout, &gate))
        wrc = -1;
    if (wrc) {
        rc = 1; /* the writer said why */
    } else if (fflush(stdout) != 0) {
        log_error("trend: cannot write the output");
        rc = 1;
    }
    if (rc == 0 && fail.n && trend_regressions(&set, &fail))
        rc = FAIL_ON_EXIT;
    if (rc == 0 && gate.n_incomplete)
        rc = 1; /* a shard cut or missing: said on stderr */
    trend_free(&set);
    free(o.traces);
    return rc;
}
