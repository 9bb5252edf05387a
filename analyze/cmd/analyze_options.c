/* analyze_options: the flags shared by the analyzer's subcommands. */
#include "analyze_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "rng.h"
#include "suggest.h"

/* Returns the value of a flag given as "--flag value" or "--flag=value"
 * and advances *i; NULL (after an error message) when it is missing. */
static const char *flag_value(int argc, char **argv, int *i, const char *name)
{
    const char *eq = strchr(argv[*i], '=');
    if (eq)
        return eq + 1;
    if (*i + 1 >= argc) {
        log_error("%s needs a value (try --help)", name);
        return NULL;
    }
    return argv[++*i];
}

static bool flag_is(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

static int parse_format(const char *v, unsigned allowed_formats,
                        struct analyze_options *o, unsigned allowed)
{
    static const char *names[] = {"table", "json", "csv", "markdown",
                                  "openmetrics"};
    if ((allowed & OPT_IMAGE_FORMAT) &&
        (strcmp(v, "png") == 0 || strcmp(v, "svg") == 0)) {
        o->svg = strcmp(v, "svg") == 0;
        return 0;
    }
    for (int f = 0; f < (int)(sizeof names / sizeof names[0]); f++)
        if (strcmp(v, names[f]) == 0 && (allowed_formats & (1u << f))) {
            o->format = (enum out_format)f;
            return 0;
        }
    log_error(
        "--format: '%s' is not one of the formats of this command (try --help)",
        v);
    return 2;
}

/* The flags of the table above, with the bits that allow them. */
static const struct {
    const char *name;
    unsigned allowed; /* any of these bits; 0: always */
} known_flags[] = {
    {"--help", 0},
    {"--by", OPT_BY | OPT_PERIOD},
    {"--format", OPT_FORMAT},
    {"--slo", OPT_SLO},
    {"--tokens", OPT_TOKENS},
    {"--classify", OPT_CLASSIFY},
    {"--out", OPT_OUT},
    {"--plot", OPT_OUT},
    {"--seed", OPT_SEED},
    {"--html", OPT_HTML},
    {"--keep-repeated", 0},
    {"--as", OPT_AS},
    {"--detail", OPT_DETAIL},
    {"--width", OPT_DETAIL},
    {"--fail-on", OPT_FAIL_ON},
    {"--include-transient", OPT_TRANSIENT},
};
#define N_KNOWN_FLAGS (sizeof known_flags / sizeof known_flags[0])

/* Says that a is no flag of command, with the closest flag of the command
 * when it looks like a typo of it. */
static void unknown_flag(const char *a, unsigned allowed, const char *command)
{
    const char *cands[N_KNOWN_FLAGS], *near = NULL;
    const char *eq = strchr(a, '=');
    char word[SUGGEST_MAX_LEN + 1];
    size_t i;
    snprintf(word, sizeof word, "%.*s", eq ? (int)(eq - a) : (int)strlen(a), a);
    for (i = 0; i < N_KNOWN_FLAGS; i++)
        cands[i] = !known_flags[i].allowed || (known_flags[i].allowed & allowed)
                       ? known_flags[i].name
                       : NULL;
    if (a[1] == '-')
        near = suggest_closest(word, cands, N_KNOWN_FLAGS);
    if (near)
        log_error("%s: unknown option '%s': did you mean '%s'? (try "
                  "tokentrace-analyze %s --help)",
                  command, a, near, command);
    else
        log_error("%s: unknown option '%s' (try tokentrace-analyze %s --help)",
                  command, a, command);
}

int analyze_options_parse(int argc, char **argv, unsigned allowed,
                          unsigned allowed_formats, const char *command,
                          struct analyze_options *o)
{
    memset(o, 0, sizeof(*o));
    o->seed = 1;
    o->load.tokens = TOKENS_AUTO;
    o->traces = calloc((size_t)argc + 1, sizeof(char *));
    if (!o->traces)
        return 2;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            o->help = true;
            return 0;
        }
        if (a[0] != '-' || strcmp(a, "-") == 0) {
            o->traces[o->n_traces++] = argv[i];
            continue;
        }
        if ((allowed & (OPT_BY | OPT_PERIOD)) && flag_is(a, "--by")) {
            if (!(v = flag_value(argc, argv, &i, "--by")))
                return 2;
            if (allowed & OPT_PERIOD)
                o->period = v;
            else
                o->by = v;
        } else if ((allowed & OPT_FORMAT) && flag_is(a, "--format")) {
            if (!(v = flag_value(argc, argv, &i, "--format")) ||
                parse_format(v, allowed_formats, o, allowed))
                return 2;
        } else if ((allowed & OPT_SLO) && flag_is(a, "--slo")) {
            if (!(o->slo = flag_value(argc, argv, &i, "--slo")))
                return 2;
        } else if ((allowed & OPT_TOKENS) && flag_is(a, "--tokens")) {
            if (!(v = flag_value(argc, argv, &i, "--tokens")))
                return 2;
            if (strcmp(v, "auto") == 0)
                o->load.tokens = TOKENS_AUTO;
            else if (strcmp(v, "usage") == 0)
                o->load.tokens = TOKENS_USAGE;
            else if (strcmp(v, "chunks") == 0)
                o->load.tokens = TOKENS_CHUNKS;
            else {
                log_error("--tokens: '%s' is not auto, usage or chunks", v);
                return 2;
            }
        } else if ((allowed & OPT_CLASSIFY) && flag_is(a, "--classify")) {
            if (!(v = flag_value(argc, argv, &i, "--classify")))
                return 2;
            if (strcmp(v, "measured") == 0)
                o->load.classify_measured = true;
            else if (strcmp(v, "declared") != 0) {
                log_error("--classify: '%s' is not declared or measured", v);
                return 2;
            }
        } else if ((allowed & OPT_OUT) &&
                   (strcmp(a, "-o") == 0 || flag_is(a, "--out") ||
                    flag_is(a, "--plot"))) {
            if (!(o->out_dir = flag_value(argc, argv, &i, a)))
                return 2;
        } else if ((allowed & OPT_SEED) && flag_is(a, "--seed")) {
            if (!(v = flag_value(argc, argv, &i, "--seed")))
                return 2;
            if (rng_seed_parse(v, &o->seed)) {
                log_error("--seed: '%s' is not " RNG_SEED_WANT, v);
                return 2;
            }
        } else if ((allowed & OPT_AS) && flag_is(a, "--as")) {
            if (!(o->as = flag_value(argc, argv, &i, "--as")))
                return 2;
        } else if ((allowed & OPT_HTML) && strcmp(a, "--html") == 0) {
            o->html = true;
        } else if (strcmp(a, "--keep-repeated") == 0) {
            o->load.keep_repeated = true;
        } else if ((allowed & OPT_FAIL_ON) && flag_is(a, "--fail-on")) {
            if (!(o->fail_on = flag_value(argc, argv, &i, "--fail-on")))
                return 2;
        } else if ((allowed & OPT_TRANSIENT) &&
                   strcmp(a, "--include-transient") == 0) {
            o->include_transient = true;
        } else if ((allowed & OPT_DETAIL) && strcmp(a, "--detail") == 0) {
            o->detail = true;
        } else if ((allowed & OPT_DETAIL) && flag_is(a, "--width")) {
            char *end;
            long w;
            if (!(v = flag_value(argc, argv, &i, "--width")))
                return 2;
            w = strtol(v, &end, 10);
            if (end == v || *end || w < 40 || w > 1000) {
                log_error("--width: '%s' is not a number of columns from 40 "
                          "to 1000",
                          v);
                return 2;
            }
            o->width = (int)w;
        } else {
            unknown_flag(a, allowed, command);
            return 2;
        }
    }
    if (o->n_traces == 0) {
        log_error("%s: no trace given (try tokentrace-analyze %s --help)",
                  command, command);
        return 2;
    }
    return 0;
}

/* Marks the stages' transient requests into set->window (a first read
 * of the inputs). Returns 0 (also when stdin made it impossible: warned,
 * nothing marked), 1 out of memory (said). */
static int analyze_mark_transient(const struct analyze_options *o,
                                  struct group_set *set)
{
    struct stage_window *w = calloc(1, sizeof *w);
    int rc;
    if (!w) {
        log_error("out of memory");
        return 1;
    }
    /* warnings (damage, repeated traces) are said by the second read, the
     * one that counts */
    int was_quiet = log_quiet();
    log_set_quiet(1);
    rc = stage_window_load(w, o->traces, o->n_traces, &o->load);
    log_set_quiet(was_quiet);
    if (rc == 2) {
        log_warn("stages read from stdin: their transient requests (ramp-up, "
                 "drain) cannot be told apart in one read, so they are in "
                 "the stage groups; give the trace as a file to leave them "
                 "out");
        free(w);
        return 0;
    }
    if (rc < 0) {
        stage_window_free(w);
        free(w);
        log_error("out of memory");
        return 1;
    }
    if (w->incomplete)
        log_warn("too many stage requests to mark them all: some transient "
                 "requests (ramp-up, drain) stay in the stage groups");
    set->window = w;
    set->keep_transient = o->include_transient;
    return 0;
}

int analyze_load_groups(const struct analyze_options *o, const char *default_by,
                        struct group_set *set)
{
    struct group_by by;
    struct slo slo;
    char err[256];
    if (group_by_parse(o->by ? o->by : default_by, &by, err, sizeof(err))) {
        log_error("%s", err);
        return 2;
    }
    by.measured_class = o->load.classify_measured;
    if (slo_parse(o->slo ? o->slo : "", &slo, err, sizeof(err))) {
        log_error("%s", err);
        for (size_t i = 0; i < GROUP_MAX_DIMS; i++)
            free(by.label_keys[i]);
        return 2;
    }
    group_set_init(set, &by, &slo);
    for (size_t i = 0; i < by.n; i++)
        if (by.dims[i] == DIM_STAGE) {
            int rc = analyze_mark_transient(o, set);
            if (rc)
                return rc;
            break;
        }
    return group_set_load(set, o->traces, o->n_traces, &o->load);
}
