/* analyze_options: the flags shared by the analyzer's subcommands, as one
 * table for common/opt (each command enables its bits). */
#include "analyze_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "rng.h"

static const char *const format_names[] = {"table", "json", "csv", "markdown",
                                           "openmetrics"};

/* --format F: one of the formats o->formats allows. */
static int parse_format(const char *v, void *base, const struct opt_spec *spec,
                        char *err, size_t errlen)
{
    struct analyze_options *o = base;
    const char *allowed[sizeof format_names / sizeof format_names[0]];
    size_t n = 0, used = 0;
    (void)spec;
    for (size_t f = 0; f < sizeof format_names / sizeof format_names[0]; f++) {
        if (!(o->formats & (1u << f)))
            continue;
        if (strcmp(v, format_names[f]) == 0) {
            o->format = (enum out_format)f;
            return 0;
        }
        allowed[n++] = format_names[f];
    }
    used = (size_t)snprintf(err, errlen, "--format: '%s' is not ", v);
    for (size_t k = 0; k < n && used < errlen; k++)
        used += (size_t)snprintf(err + used, errlen - used, "%s%s",
                                 k == 0       ? ""
                                 : k == n - 1 ? " or "
                                              : ", ",
                                 allowed[k]);
    return -1;
}

static int parse_seed(const char *v, void *base, const struct opt_spec *spec,
                      char *err, size_t errlen)
{
    (void)spec, (void)err, (void)errlen;
    return rng_seed_parse(v, &((struct analyze_options *)base)->seed);
}

static const char *const token_names[] = {"auto", "usage", "chunks", NULL};
static const char *const classify_names[] = {"declared", "measured", NULL};
static const char *const image_names[] = {"png", "svg", NULL};

#define AT(f) OPT_AT(struct analyze_options, f)
/* Where two entries share a name, the first one a command enables wins
 * (trend's --by is its period). */
static const struct opt_spec shared_opts[] = {
    {.name = "help", .short_name = 'h', .kind = OPT_STOP, .value = 1},
    {.name = "by", .kind = OPT_STRING, .at = AT(period), .mask = OPT_PERIOD},
    {.name = "by", .kind = OPT_STRING, .at = AT(by), .mask = OPT_BY},
    {.name = "format",
     .kind = OPT_ENUM,
     .at = AT(svg),
     .names = image_names,
     .is_bool = true,
     .mask = OPT_IMAGE_FORMAT},
    {.name = "format",
     .kind = OPT_CUSTOM,
     .parse = parse_format,
     .mask = OPT_FORMAT},
    {.name = "slo", .kind = OPT_STRING, .at = AT(slo), .mask = OPT_SLO},
    {.name = "tokens",
     .kind = OPT_ENUM,
     .at = AT(load.tokens),
     .names = token_names,
     .mask = OPT_TOKENS},
    {.name = "classify",
     .kind = OPT_ENUM,
     .at = AT(load.classify_measured),
     .names = classify_names,
     .is_bool = true,
     .mask = OPT_CLASSIFY},
    {.name = "out",
     .short_name = 'o',
     .kind = OPT_STRING,
     .at = AT(out_dir),
     .mask = OPT_OUT},
    {.name = "plot", .kind = OPT_STRING, .at = AT(out_dir), .mask = OPT_OUT},
    {.name = "seed",
     .kind = OPT_CUSTOM,
     .parse = parse_seed,
     .want = RNG_SEED_WANT,
     .mask = OPT_SEED},
    {.name = "html", .kind = OPT_BOOL, .at = AT(html), .mask = OPT_HTML},
    {.name = "keep-repeated", .kind = OPT_BOOL, .at = AT(load.keep_repeated)},
    {.name = "as", .kind = OPT_STRING, .at = AT(as), .mask = OPT_AS},
    {.name = "detail", .kind = OPT_BOOL, .at = AT(detail), .mask = OPT_DETAIL},
    {.name = "width",
     .kind = OPT_U64,
     .at = AT(width),
     .size = sizeof(int),
     .min = 40,
     .max = 1000,
     .want = "a number of columns from 40 to 1000",
     .mask = OPT_DETAIL | OPT_WIDTH},
    {.name = "wide", .kind = OPT_BOOL, .at = AT(wide), .mask = OPT_WIDTH},
    {.name = "fail-on",
     .kind = OPT_STRING,
     .at = AT(fail_on),
     .mask = OPT_FAIL_ON},
    {.name = "include-transient",
     .kind = OPT_BOOL,
     .at = AT(include_transient),
     .mask = OPT_TRANSIENT},
    {.name = "merge-anyway",
     .kind = OPT_BOOL,
     .at = AT(merge_anyway),
     .mask = OPT_MERGE},
    {.name = "all-attempts",
     .kind = OPT_BOOL,
     .at = AT(load.with_superseded),
     .mask = OPT_ATTEMPTS},
    {.name = "compare", .kind = OPT_BOOL, .at = AT(compare), .mask = OPT_MODE},
    {.name = "trend", .kind = OPT_BOOL, .at = AT(trend), .mask = OPT_MODE},
};

const struct opt_spec *analyze_options_table(size_t *n)
{
    *n = sizeof shared_opts / sizeof shared_opts[0];
    return shared_opts;
}

int analyze_options_error(const char *command, const char *msg)
{
    log_error("%s: %s (try tokentrace-analyze %s --help)", command, msg,
              command);
    return 2;
}

int analyze_options_read(int argc, char **argv, unsigned allowed,
                         unsigned allowed_formats, const struct opt_table *own,
                         struct analyze_options *o, char *err, size_t errlen)
{
    struct opt_table t[2];
    struct opt_parser p = {.tables = t,
                           .n_tables = 1,
                           .allowed = allowed,
                           .n_pos = &o->n_traces,
                           .first = 0};
    int rc;
    memset(o, 0, sizeof(*o));
    o->seed = 1;
    o->load.tokens = TOKENS_AUTO;
    o->formats = allowed_formats;
    o->traces = calloc((size_t)argc + 1, sizeof(char *));
    if (!o->traces) {
        snprintf(err, errlen, "out of memory");
        return 2;
    }
    t[0] = (struct opt_table){shared_opts,
                              sizeof shared_opts / sizeof shared_opts[0], o};
    if (own)
        t[p.n_tables++] = *own;
    p.pos = (const char **)o->traces;
    rc = opt_parse(&p, argc, argv, err, errlen);
    if (rc == 1) {
        o->help = true;
        return 0;
    }
    if (rc != OPT_OK)
        return 2;
    if (o->n_traces == 0) {
        snprintf(err, errlen, "no trace given");
        return 2;
    }
    return 0;
}

int analyze_options_parse_with(int argc, char **argv, unsigned allowed,
                               unsigned allowed_formats,
                               const struct opt_table *own, const char *command,
                               struct analyze_options *o)
{
    char err[768];
    if (analyze_options_read(argc, argv, allowed, allowed_formats, own, o, err,
                             sizeof err))
        return analyze_options_error(command, err);
    return 0;
}

int analyze_options_parse(int argc, char **argv, unsigned allowed,
                          unsigned allowed_formats, const char *command,
                          struct analyze_options *o)
{
    return analyze_options_parse_with(argc, argv, allowed, allowed_formats,
                                      NULL, command, o);
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
    log_set_quiet(LOG_QUIET_ALL);
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
