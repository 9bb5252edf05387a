/* cmd_trend: `tokentrace-analyze trend TRACE...`: p50/p99 of TTFT, TPOT and
 * latency per ISO week (or day) x model x class across many traces. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_options.h"
#include "commands.h"
#include "log.h"
#include "trend.h"

static void trend_help(void)
{
    printf(
        "usage: tokentrace-analyze trend TRACE... [--by week|day]\n"
        "         [--format table|json|csv|markdown] [--tokens "
        "auto|usage|chunks]\n"
        "         [--classify declared|measured]\n"
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
        "\n"
        "  --by P           week (default) or day\n"
        "  --format F       table (default), json, csv (for charts), markdown\n"
        "\n"
        "exit codes: 0 ok, 1 a trace was damaged (read up to the damage) or\n"
        "unreadable, 2 usage error\n"
        "examples:\n"
        "  tokentrace-analyze trend traces/*.ttrace\n"
        "  tokentrace-analyze trend traces/*.ttrace --by day --format csv > "
        "trend.csv\n");
}

int cmd_trend(int argc, char **argv)
{
    struct analyze_options o;
    struct trend_set set;
    int rc, st, wrc;
    bool by_week = true;
    rc = analyze_options_parse(
        argc, argv, OPT_PERIOD | OPT_FORMAT | OPT_TOKENS | OPT_CLASSIFY,
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
        wrc = trend_write_json(stdout, &set);
        break;
    case FMT_CSV:
        wrc = trend_write_csv(stdout, &set);
        break;
    case FMT_MARKDOWN:
        wrc = trend_write_markdown(stdout, &set);
        break;
    default:
        wrc = trend_write_table(stdout, &set);
        break;
    }
    if (fflush(stdout) != 0 || wrc) {
        log_error("trend: cannot write the output");
        rc = 1;
    }
    trend_free(&set);
    free(o.traces);
    return rc;
}
