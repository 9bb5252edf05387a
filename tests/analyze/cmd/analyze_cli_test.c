/* analyze_cli_test: the analyzer's command lines as data: a command and
 * its arguments, and the options they set or the exact error
 * (analyze/cmd/analyze_options.c over common/opt.c); every shared flag is
 * in the --help of a command that takes it. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze_options.h"
#include "cli_cases.h"
#include "commands.h"

/* The flags each command enables (as its cmd_*.c passes them). */
static const struct {
    const char *name;
    unsigned allowed, formats;
    int (*run)(int, char **);
} commands[] = {
    {"summary",
     OPT_BY | OPT_FORMAT | OPT_SLO | OPT_TOKENS | OPT_CLASSIFY | OPT_AS |
         OPT_DETAIL | OPT_TRANSIENT,
     1u << FMT_TABLE | 1u << FMT_JSON | 1u << FMT_CSV | 1u << FMT_MARKDOWN |
         1u << FMT_OPENMETRICS,
     cmd_summary},
    {"requests", OPT_FORMAT | OPT_TOKENS | OPT_CLASSIFY | OPT_ATTEMPTS,
     1u << FMT_JSON | 1u << FMT_CSV, cmd_requests},
    {"compare",
     OPT_FORMAT | OPT_SEED | OPT_TOKENS | OPT_CLASSIFY | OPT_FAIL_ON | OPT_BY,
     1u << FMT_TABLE | 1u << FMT_JSON | 1u << FMT_MARKDOWN, cmd_compare},
    {"trend", OPT_PERIOD | OPT_FORMAT | OPT_TOKENS | OPT_CLASSIFY | OPT_FAIL_ON,
     1u << FMT_TABLE | 1u << FMT_JSON | 1u << FMT_CSV | 1u << FMT_MARKDOWN,
     cmd_trend},
    {"plot",
     OPT_FORMAT | OPT_IMAGE_FORMAT | OPT_OUT | OPT_HTML | OPT_TOKENS |
         OPT_CLASSIFY | OPT_BY | OPT_MODE,
     0, cmd_plot},
    {"capacity", OPT_SLO | OPT_FORMAT | OPT_TOKENS | OPT_OUT | OPT_SEED,
     1u << FMT_TABLE | 1u << FMT_JSON, cmd_capacity},
    {"info", 0, 0, cmd_info},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static const struct cli_case cases[] = {
    {"summary t.ttrace", "traces=1 t0=t.ttrace format=0 tokens=0 seed=1"},
    {"summary a b - --format json", "traces=3 t2=- format=1"},
    {"summary --format=csv --by model,class --slo ttft=1s t",
     "format=2 by=model,class slo=ttft=1s"},
    {"summary --detail --width 100 --include-transient --keep-repeated t",
     "detail=1 width=100 transient=1 repeated=1"},
    {"summary --tokens usage --classify measured --as all t",
     "tokens=1 measured=1 as=all"},
    {"summary t -- --format", "traces=2 t1=--format format=0"},
    {"summary --help --bogus", "help=1"},
    {"summary -h", "help=1"},
    {"requests --all-attempts --format json t", "attempts=1 format=1"},
    {"requests --format --all-attempts t",
     "error: --format: '--all-attempts' is not json or csv"},
    {"compare a b --seed 7 --fail-on p99>10% --by model",
     "seed=7 fail_on=p99>10% by=model"},
    {"trend --by week a b", "period=week by=-"},
    {"plot -o d --html --format svg t", "out=d html=1 svg=1"},
    {"plot --plot=d --compare a b", "out=d compare=1 trend=0"},
    {"plot -od --trend --by day a", "out=d trend=1 by=day"},
    {"capacity --seed 3 -o d t", "seed=3 out=d"},
    {"info t", "traces=1"},
    {"summary", "error: no trace given"},
    {"summary --format png t",
     "error: --format: 'png' is not table, json, csv, markdown or openmetrics"},
    {"plot --format json t", "error: --format: 'json' is not png or svg"},
    {"summary --width 20 t",
     "error: --width: '20' is not a number of columns from 40 to 1000"},
    {"summary --tokens words t",
     "error: --tokens: 'words' is not auto, usage or chunks"},
    {"summary --classify guessed t",
     "error: --classify: 'guessed' is not declared or measured"},
    {"compare --seed x a b",
     "error: --seed: 'x' is not a whole number from 0 to "
     "18446744073709551615"},
    {"summary --fromat json t",
     "error: unknown option '--fromat' (did you mean --format?)"},
    {"summary --html t", "error: unknown option '--html'"},
    {"info --zzzzzz t", "error: unknown option '--zzzzzz'"},
    {"summary t --slo", "error: --slo needs a value"},
    {"summary --detail=1 t", "error: --detail takes no value"},
    {"requests --all-attempts=yes t", "error: --all-attempts takes no value"},
};

static void dump(const struct analyze_options *o, char *out, size_t n)
{
#define S(x) ((x) ? (x) : "-")
    snprintf(out, n,
             "traces=%zu t0=%s t1=%s t2=%s by=%s period=%s format=%d slo=%s "
             "tokens=%d measured=%d repeated=%d attempts=%d out=%s seed=%llu "
             "html=%d svg=%d as=%s detail=%d width=%d fail_on=%s transient=%d "
             "compare=%d trend=%d help=%d",
             o->n_traces, o->n_traces > 0 ? o->traces[0] : "-",
             o->n_traces > 1 ? o->traces[1] : "-",
             o->n_traces > 2 ? o->traces[2] : "-", S(o->by), S(o->period),
             (int)o->format, S(o->slo), (int)o->load.tokens,
             o->load.classify_measured, o->load.keep_repeated,
             o->load.with_superseded, S(o->out_dir),
             (unsigned long long)o->seed, o->html, o->svg, S(o->as), o->detail,
             o->width, S(o->fail_on), o->include_transient, o->compare,
             o->trend, o->help);
#undef S
}

/* analyze_options_read on one case (cli_cases.h): argv[1] names the
 * command, whose arguments follow it. */
static int run_case(struct cli_case_io *io)
{
    struct analyze_options o;
    size_t c = 0;
    int rc;
    while (c < N_COMMANDS && strcmp(commands[c].name, io->argv[1]) != 0)
        c++;
    if (c == N_COMMANDS) {
        snprintf(io->err, io->errlen, "no command '%s'", io->argv[1]);
        return 1;
    }
    rc = analyze_options_read(io->argc - 2, io->argv + 2, commands[c].allowed,
                              commands[c].formats, NULL, &o, io->err,
                              io->errlen);
    dump(&o, io->out, io->outlen);
    free(o.traces);
    return rc != 0;
}

/* The --help text of one command, as it prints it on stdout. */
static void help_of(int (*run)(int, char **), char *out, size_t n)
{
    char arg[] = "--help", *argv[] = {arg, NULL};
    FILE *tmp = tmpfile();
    int saved;
    size_t got;
    out[0] = '\0';
    if (!tmp)
        return;
    fflush(stdout);
    saved = dup(1);
    dup2(fileno(tmp), 1);
    run(1, argv);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    rewind(tmp);
    got = fread(out, 1, n - 1, tmp);
    out[got] = '\0';
    fclose(tmp);
}

int main(void)
{
    size_t n_specs;
    const struct opt_spec *specs = analyze_options_table(&n_specs);
    static char help[N_COMMANDS][16384];
    cli_cases_run("tokentrace-analyze", cases, sizeof cases / sizeof cases[0],
                  run_case, (struct cli_case_codes){-2, 0, 1});
    /* Each shared flag a command takes is in that command's --help. */
    for (size_t c = 0; c < N_COMMANDS; c++) {
        help_of(commands[c].run, help[c], sizeof help[c]);
        CHECK_MSG(strlen(help[c]) > 100, "%s --help is empty",
                  commands[c].name);
        for (size_t k = 0; k < n_specs; k++) {
            char flag[64];
            if (specs[k].mask && !(specs[k].mask & commands[c].allowed))
                continue;
            /* --keep-repeated is the loader's (docs/robustness.md), --plot
             * an old spelling of -o */
            if (!strcmp(specs[k].name, "keep-repeated") ||
                !strcmp(specs[k].name, "plot") ||
                !strcmp(specs[k].name, "help"))
                continue;
            if (specs[k].short_name)
                snprintf(flag, sizeof flag, "-%c ", specs[k].short_name);
            else
                snprintf(flag, sizeof flag, "--%s", specs[k].name);
            CHECK_MSG(strstr(help[c], flag) != NULL, "%s --help lacks %s",
                      commands[c].name, flag);
        }
    }
    return CHECK_DONE();
}
