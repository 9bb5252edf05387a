/* analyze_main: tokentrace-analyze entry point and subcommand dispatch. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "log.h"
#include "suggest.h"
#include "version.h"

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *synopsis; /* "summary TRACE..." */
    const char *purpose;  /* one line */
};

static const struct command commands[] = {
    {"summary", cmd_summary, "summary TRACE...",
     "TTFT, TPOT, ITL, latency... per model x class"},
    {"requests", cmd_requests, "requests TRACE...",
     "one row per request, CSV or JSON Lines"},
    {"compare", cmd_compare, "compare BASE NEW...",
     "what changed, with bootstrap confidence intervals"},
    {"trend", cmd_trend, "trend TRACE...",
     "p50/p99 per ISO week (or day) x model x class"},
    {"capacity", cmd_capacity, "capacity TRACE... --slo L",
     "a sweep's stages against an SLO, the knee"},
    {"info", cmd_info, "info TRACE", "markdown block for a bug report"},
    {"dump", cmd_dump, "dump TRACE...", "every record as JSON Lines"},
    {"check", cmd_check, "check TRACE...", "integrity; exit 1 if damaged"},
    {"share", cmd_share, "share TRACE -o OUT",
     "a copy safe for a bug report: text filled"},
    {"plot", cmd_plot, "plot TRACE... -o DIR",
     "gnuplot charts (+ .gp, .dat), --html report"},
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: tokentrace-analyze COMMAND [ARGS]\n"
            "\n"
            "Offline analysis of tokentrace trace files (never touches the "
            "network).\n"
            "TRACE may be '-' for standard input; concatenated traces are "
            "read as several.\n"
            "A trace read twice ('a a', 'cat a a') is counted once, with a "
            "warning;\n"
            "--keep-repeated counts every copy.\n\ncommands:\n");
    /* one column, at least two spaces before the purpose: help2man makes
     * each line a term of the man page's list */
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        fprintf(out, "  %-25s  %s\n", commands[i].synopsis,
                commands[i].purpose);
    fprintf(out, "\nexit codes: 0 success, 1 failure or damaged trace, "
                 "2 usage error\n"
                 "\nexamples:\n"
                 "  tokentrace-analyze check week48.ttrace\n"
                 "  tokentrace-analyze dump week48.ttrace | jq "
                 "'select(.kind==\"result\")'\n");
}

/* Says that name is no command, with the closest one when it looks like a
 * typo of it. */
static void unknown_command(const char *name)
{
    const char *names[sizeof(commands) / sizeof(commands[0])];
    const char *near;
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        names[i] = commands[i].name;
    near = suggest_closest(name, names, sizeof(names) / sizeof(names[0]));
    if (near)
        log_error("unknown command '%s': did you mean '%s'? (try --help)", name,
                  near);
    else
        log_error("unknown command '%s' (try --help)", name);
}

int main(int argc, char **argv)
{
    log_set_program("tokentrace-analyze");
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        version_print(stdout, "tokentrace-analyze");
        return 0;
    }
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 2, argv + 2);
    unknown_command(argv[1]);
    return 2;
}
