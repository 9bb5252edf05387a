/* cmd_compare: `tokentrace-analyze compare BASE NEW...`: per model x class,
 * what changed from BASE to each NEW and whether it is more than noise. */
#include <stdio.h>
#include <stdlib.h>

#include "analyze_options.h"
#include "commands.h"
#include "compare.h"
#include "log.h"

static void compare_help(void)
{
    printf(
        "usage: tokentrace-analyze compare BASE NEW... [--seed S]\n"
        "         [--format table|json|markdown] [--tokens auto|usage|chunks]\n"
        "         [--classify declared|measured]\n"
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
        "not independent. One verdict line per group sums it up.\n"
        "\n"
        "Each FILE argument is one side, even when it holds several "
        "concatenated\n"
        "traces (cat a.ttrace b.ttrace > week48.ttrace).\n"
        "\n"
        "exit codes: 0 compared (whatever the verdicts), 1 an input was "
        "damaged\n"
        "(compared up to the damage) or unreadable, 2 usage error\n"
        "examples:\n"
        "  tokentrace-analyze compare week47.ttrace week48.ttrace\n"
        "  tokentrace-analyze compare base.ttrace gw-a.ttrace gw-b.ttrace "
        "--format markdown\n",
        STATS_BOOTSTRAP_ITERATIONS, COMPARE_MIN_SAMPLES);
}

int cmd_compare(int argc, char **argv)
{
    struct analyze_options o;
    struct compare_side *sides = NULL;
    struct compare_result *res = NULL;
    size_t n_new = 0, n_sides = 0;
    int rc, wrc, st;
    rc = analyze_options_parse(
        argc, argv, OPT_FORMAT | OPT_SEED | OPT_TOKENS | OPT_CLASSIFY,
        1u << FMT_TABLE | 1u << FMT_JSON | 1u << FMT_MARKDOWN, "compare", &o);
    if (rc || o.help) {
        if (o.help)
            compare_help();
        free(o.traces);
        return rc;
    }
    if (o.n_traces < 2) {
        log_error("compare: needs BASE and at least one NEW trace (try "
                  "tokentrace-analyze compare --help)");
        free(o.traces);
        return 2;
    }
    sides = calloc(o.n_traces, sizeof(*sides));
    res = calloc(o.n_traces, sizeof(*res));
    if (!sides || !res)
        goto nomem;
    for (; n_sides < o.n_traces; n_sides++) {
        st = compare_side_load(&sides[n_sides], o.traces[n_sides], &o.load);
        if (st < 0) {
            n_sides++;
            goto nomem;
        }
        rc |= st;
    }
    for (; n_new + 1 < n_sides; n_new++)
        if (compare_run(&sides[0], &sides[n_new + 1], o.seed, &res[n_new]) !=
            0) {
            n_new++;
            goto nomem;
        }
    switch (o.format) {
    case FMT_JSON:
        wrc = compare_write_json(stdout, res, n_new, o.seed);
        break;
    case FMT_MARKDOWN:
        wrc = compare_write_markdown(stdout, res, n_new, o.seed);
        break;
    default:
        wrc = compare_write_table(stdout, res, n_new, o.seed);
        break;
    }
    if (fflush(stdout) != 0 || wrc) {
        log_error("compare: cannot write the output");
        rc = 1;
    }
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
