/* analyze_options: the flags shared by the analyzer's subcommands, parsed
 * the same way everywhere ("--flag value" or "--flag=value"). */
#ifndef TT_ANALYZE_OPTIONS_H
#define TT_ANALYZE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "groups.h"
#include "opt.h"

enum out_format { FMT_TABLE, FMT_JSON, FMT_CSV, FMT_MARKDOWN, FMT_OPENMETRICS };

struct analyze_options {
    char **traces; /* positional arguments (borrowed from argv) */
    size_t n_traces;
    const char *by; /* --by */
    enum out_format format;
    const char *slo; /* --slo */
    struct load_options load;
    const char *out_dir;    /* -o / --plot */
    uint64_t seed;          /* --seed */
    bool html;              /* --html */
    bool svg;               /* --format svg (plot) */
    const char *period;     /* trend --by day|week */
    const char *as;         /* summary --as TOOL|all */
    bool detail;            /* summary --detail */
    const char *fail_on;    /* compare, trend --fail-on */
    int width;              /* summary --width (0: the terminal's), compare
                               and trend --width (0: 80) */
    bool wide;              /* compare, trend --wide: no width limit */
    bool include_transient; /* --include-transient (summary --by stage) */
    bool merge_anyway;      /* --merge-anyway: shards not one run */
    bool compare, trend;    /* plot --compare, --trend */
    unsigned formats;       /* the --format values allowed (1 << FMT_*) */
    bool help;
};

/* Flags a command accepts: a bit set of these. */
#define OPT_BY 0x1u
#define OPT_FORMAT 0x2u
#define OPT_SLO 0x4u
#define OPT_TOKENS 0x8u
#define OPT_CLASSIFY 0x10u
#define OPT_OUT 0x20u
#define OPT_SEED 0x40u
#define OPT_HTML 0x80u
#define OPT_IMAGE_FORMAT 0x100u /* --format png|svg instead of table... */
#define OPT_PERIOD 0x200u       /* --by day|week */
#define OPT_AS 0x400u           /* summary --as TOOL|all */
#define OPT_DETAIL 0x800u       /* --detail, --width N (summary) */
#define OPT_FAIL_ON 0x1000u     /* --fail-on RULES (compare, trend) */
#define OPT_TRANSIENT 0x2000u   /* --include-transient (summary, requests) */
#define OPT_ATTEMPTS 0x4000u    /* --all-attempts (requests) */
#define OPT_MODE 0x8000u        /* --compare, --trend (plot) */
#define OPT_WIDTH 0x10000u      /* --width N, --wide (compare, trend) */
#define OPT_MERGE 0x20000u      /* --merge-anyway (every pooling command) */

/* Parses argv (after the command name) with the option engine
 * (common/opt.h): the shared flags allowed, and own (NULL: none), a
 * command's table of its own. Returns 0 (o->help: --help was asked), or 2
 * after printing a one-line usage error. allowed_formats is a bit set of
 * 1 << FMT_*. o->traces is allocated (free it) in every case. */
int analyze_options_parse_with(int argc, char **argv, unsigned allowed,
                               unsigned allowed_formats,
                               const struct opt_table *own, const char *command,
                               struct analyze_options *o);

/* analyze_options_parse_with without a table of the command's own. */
int analyze_options_parse(int argc, char **argv, unsigned allowed,
                          unsigned allowed_formats, const char *command,
                          struct analyze_options *o);

/* The same parse, printing nothing: 0, or 2 with the reason in err. */
int analyze_options_read(int argc, char **argv, unsigned allowed,
                         unsigned allowed_formats, const struct opt_table *own,
                         struct analyze_options *o, char *err, size_t errlen);

/* Prints a usage error of command in the analyzer's one form
 * ("COMMAND: MSG (try tokentrace-analyze COMMAND --help)"); returns 2. */
int analyze_options_error(const char *command, const char *msg);

/* The shared flag table (for the test that holds it against --help). */
const struct opt_spec *analyze_options_table(size_t *n);

/* Builds and loads a group_set from the options (--by default
 * "model,class"). Grouped by stage, the stages' transient requests
 * (ramp-up, drain: analyze/load/stage_window.h) are marked first (the
 * inputs are read twice; from stdin they cannot be, which is warned) and
 * left out unless o->include_transient. Returns 0, 1 when an input was
 * damaged (still loaded), or 2 on a usage error (message printed). */
int analyze_load_groups(const struct analyze_options *o, const char *default_by,
                        struct group_set *set);

#endif
