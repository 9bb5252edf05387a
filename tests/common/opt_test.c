/* opt_test: the option engine (common/opt.c) on a table with one flag of
 * each kind: every form of every flag, and each error's exact text. */
#include <stdlib.h>
#include <string.h>

#include "cli_cases.h"
#include "opt.h"

struct sample {
    bool force, quiet, no_color, rate_given;
    const char *out;
    const char *fmt;
    uint64_t n;
    double rate, wait;
    int mode;
    bool user;
    int level;
    const char *tags[2];
    size_t n_tags;
    int even;
    const char *conf; /* --conf [FILE]: a value that may be left out */
    bool conf_given;
};

/* An even number (a CUSTOM flag; odd ones say why themselves). */
static int parse_even(const char *v, void *base, const struct opt_spec *spec,
                      char *err, size_t errlen)
{
    struct sample *s = base;
    char *end;
    long k = strtol(v, &end, 10);
    (void)spec;
    if (end == v || *end)
        return -1;
    if (k % 2) {
        snprintf(err, errlen, "--even: %ld is odd", k);
        return -1;
    }
    s->even = (int)k;
    return 0;
}

static const char *const modes[] = {"auto", "always", "never", NULL};
static const char *const whens[] = {"kernel", "user", NULL};
static const char *const fmts[] = {"a", "b", NULL};

#define AT(f) OPT_AT(struct sample, f)
static const struct opt_spec specs[] = {
    {.name = "force", .short_name = 'f', .kind = OPT_BOOL, .at = AT(force)},
    {.name = "quiet", .short_name = 'q', .kind = OPT_BOOL, .at = AT(quiet)},
    {.name = "no-color", .kind = OPT_BOOL, .at = AT(no_color)},
    {.name = "output",
     .short_name = 'o',
     .kind = OPT_STRING,
     .at = AT(out),
     .empty = "file name"},
    {.name = "fmt", .kind = OPT_STRING, .at = AT(fmt), .names = fmts},
    {.name = "requests",
     .short_name = 'n',
     .kind = OPT_U64,
     .at = AT(n),
     .min = 1,
     .max = 100,
     .want = "a count from 1 to 100"},
    {.name = "rate",
     .short_name = 'r',
     .kind = OPT_DOUBLE,
     .at = AT(rate),
     .lo = 0,
     .hi = 1e6,
     .lo_open = true,
     .want = "a rate above 0",
     .given = OPT_GIVEN(struct sample, rate_given)},
    {.name = "wait",
     .kind = OPT_DURATION,
     .at = AT(wait),
     .lo = 0.1,
     .hi = 60,
     .want = "a duration from 100ms to 1m"},
    {.name = "mode", .kind = OPT_ENUM, .at = AT(mode), .names = modes},
    {.name = "when",
     .kind = OPT_ENUM,
     .at = AT(user),
     .names = whens,
     .is_bool = true},
    {.name = "off", .kind = OPT_SET, .at = AT(level), .value = 7},
    {.name = "tag",
     .kind = OPT_LIST,
     .at = AT(tags),
     .count = AT(n_tags),
     .cap = 2,
     .noun = "tags",
     .empty = "tag"},
    {.name = "even",
     .kind = OPT_CUSTOM,
     .parse = parse_even,
     .want = "an even number"},
    {.name = "conf",
     .kind = OPT_STRING,
     .at = AT(conf),
     .empty = "file name",
     .given = OPT_GIVEN(struct sample, conf_given),
     .value_optional = true},
    {.name = "secret", .kind = OPT_U64, .at = AT(n), .mask = 2, .max = 9},
    {.name = "help", .short_name = 'h', .kind = OPT_STOP, .value = 5},
};
#define N_SPECS (sizeof specs / sizeof specs[0])

static const struct cli_case cases[] = {
    {"", "force=0 quiet=0 n=0"},
    {"--force -q", "force=1 quiet=1"},
    {"--force --no-force", "force=0"},
    {"-qf", "force=1 quiet=1"},
    {"--no-color", "no_color=1"},
    {"--no-color --color", "no_color=0"},
    {"-o x --output=y", "out=y"},
    {"-ox", "out=x"},
    {"-o ''", "error: -o: empty file name"},
    {"--fmt b", "fmt=b"},
    {"--fmt c", "error: --fmt: 'c' is not a or b"},
    {"-n 5", "n=5"},
    {"-n5", "n=5"},
    {"--requests=100", "n=100"},
    {"-n 0", "error: -n: '0' is not a count from 1 to 100"},
    {"-n -1", "error: -n: '-1' is not a count from 1 to 100"},
    {"-n 5x", "error: -n: '5x' is not a count from 1 to 100"},
    {"-r 2.5", "rate=2.5 rate_given=1"},
    {"-r 0", "error: -r: '0' is not a rate above 0"},
    {"-r inf", "error: -r: 'inf' is not a rate above 0"},
    {"--wait 500ms", "wait=0.5"},
    {"--wait=2", "wait=2"},
    {"--wait 50ms", "error: --wait: '50ms' is not a duration from 100ms to 1m"},
    {"--mode never", "mode=2"},
    {"--mode=sometimes",
     "error: --mode: 'sometimes' is not auto, always or never"},
    {"--when user", "user=1"},
    {"--when user --when kernel", "user=0"},
    {"--off", "level=7"},
    {"--tag a --tag=b", "n_tags=2 tag0=a tag1=b"},
    {"--tag a --tag b --tag c", "error: --tag: at most 2 tags"},
    {"--tag=", "error: --tag: empty tag"},
    {"--even 4", "even=4"},
    {"--even 3", "error: --even: 3 is odd"},
    {"--even x", "error: --even: 'x' is not an even number"},
    {"--secret 3", "error: unknown option '--secret'"},
    {"--frce", "error: unknown option '--frce' (did you mean --force?)"},
    {"--outptu=x", "error: unknown option '--outptu' (did you mean --output?)"},
    {"--xyzzy", "error: unknown option '--xyzzy'"},
    {"-Z", "error: unknown option '-Z'"},
    {"-qZ", "error: unknown option '-Z'"},
    {"--force=yes", "error: --force takes no value"},
    {"--no-force=1", "error: --no-force takes no value"},
    {"--no-rate", "error: unknown option '--no-rate' (did you mean --rate?)"},
    {"-n", "error: --requests needs a value"},
    {"--output", "error: --output needs a value"},
    {"extra", "error: unexpected argument 'extra'"},
    {"--", "error: unexpected argument '--'"},
    {"-", "error: unexpected argument '-'"},
    {"", "conf=(none) conf_given=0"},
    {"--conf", "conf=(none) conf_given=1"},
    {"--conf x", "conf=x conf_given=1"},
    {"--conf=x -q", "conf=x conf_given=1 quiet=1"},
    {"--conf -q", "conf=(none) conf_given=1 quiet=1"},
    {"--conf --force", "conf=(none) conf_given=1 force=1"},
    {"--conf -", "conf=- conf_given=1"},
    {"--conf ''", "error: --conf: empty file name"},
    {"--conf=", "error: --conf: empty file name"},
    {"--no-conf",
     "error: unknown option '--no-conf' (did you mean --no-color?)"},
};

static void dump(const struct sample *s, char *out, size_t n)
{
    snprintf(out, n,
             "force=%d quiet=%d no_color=%d out=%s fmt=%s n=%llu rate=%g "
             "rate_given=%d wait=%g mode=%d user=%d level=%d n_tags=%zu "
             "tag0=%s tag1=%s even=%d conf=%s conf_given=%d",
             s->force, s->quiet, s->no_color, s->out ? s->out : "-",
             s->fmt ? s->fmt : "-", (unsigned long long)s->n, s->rate,
             s->rate_given, s->wait, s->mode, s->user, s->level, s->n_tags,
             s->n_tags > 0 ? s->tags[0] : "-", s->n_tags > 1 ? s->tags[1] : "-",
             s->even, s->conf ? s->conf : "(none)", s->conf_given);
}

/* What opt_parse does with words: kept, after "--" too; --help stops. */
static void check_positional_and_stop(void)
{
    struct sample s;
    const char *pos[8];
    size_t n_pos = 0;
    char store[256], *argv[CLI_CASE_MAX_ARGS], err[256];
    struct opt_table t = {specs, N_SPECS, &s};
    struct opt_parser p = {.tables = &t,
                           .n_tables = 1,
                           .allowed = 2,
                           .pos = pos,
                           .n_pos = &n_pos,
                           .first = 1};
    int argc = cli_case_argv("t", "a -q - --secret 3 -- -f b", store,
                             sizeof store, argv);
    memset(&s, 0, sizeof s);
    CHECK(opt_parse(&p, argc, argv, err, sizeof err) == OPT_OK);
    CHECK(n_pos == 4 && !strcmp(pos[0], "a") && !strcmp(pos[1], "-") &&
          !strcmp(pos[2], "-f") && !strcmp(pos[3], "b"));
    CHECK(s.quiet && !s.force && s.n == 3);
    argc = cli_case_argv("t", "-q --help --bogus", store, sizeof store, argv);
    CHECK(opt_parse(&p, argc, argv, err, sizeof err) == 5);
}

static const char help[] =
    "Options:\n"
    "  -f, --force   -q, --quiet  --no-color --output --fmt --rate --wait\n"
    "  -o, --output FILE   -n, --requests N   -r, --rate R   -h, --help\n"
    "  --mode --when --off --tag --even --conf --secret --requests\n";

/* Two tables: each flag lands in its own struct; a typo of either is
 * suggested. */
static void check_two_tables(void)
{
    struct sample s;
    struct {
        bool deep;
    } more = {false};
    static const struct opt_spec more_specs[] = {
        {.name = "deep", .kind = OPT_BOOL, .at = 0},
    };
    struct opt_table t[2] = {{specs, N_SPECS, &s}, {more_specs, 1, &more}};
    struct opt_parser p = {.tables = t, .n_tables = 2, .first = 1};
    char store[256], *argv[CLI_CASE_MAX_ARGS], err[256];
    int argc = cli_case_argv("t", "-q --deep", store, sizeof store, argv);
    memset(&s, 0, sizeof s);
    CHECK(opt_parse(&p, argc, argv, err, sizeof err) == OPT_OK);
    CHECK(s.quiet && more.deep && !s.force);
    argc = cli_case_argv("t", "--deeep", store, sizeof store, argv);
    CHECK(opt_parse(&p, argc, argv, err, sizeof err) == OPT_ERROR &&
          !strcmp(err, "unknown option '--deeep' (did you mean --deep?)"));
}

/* opt_parse of the table on one case (cli_cases.h). */
static int run_case(struct cli_case_io *io)
{
    struct sample s;
    struct opt_table t = {specs, N_SPECS, &s};
    struct opt_parser p = {
        .tables = &t, .n_tables = 1, .allowed = 1, .first = 1};
    int rc;
    memset(&s, 0, sizeof s);
    rc = opt_parse(&p, io->argc, io->argv, io->err, io->errlen);
    dump(&s, io->out, io->outlen);
    return rc;
}

int main(void)
{
    check_two_tables();
    cli_help_matches("opt_test", specs, N_SPECS, help, NULL);
    cli_cases_run("t", cases, sizeof cases / sizeof cases[0], run_case,
                  (struct cli_case_codes){5, 0, OPT_ERROR});
    check_positional_and_stop();
    return CHECK_DONE();
}
