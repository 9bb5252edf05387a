/* cli_cases.h: the data-driven command-line tests' helpers: a case is a
 * line of arguments and what it must give ("error: EXACT TEXT", or the
 * fields "k=v k=v" the parsed config must show), the loop that runs a
 * program's cases, and the check that a --help text and an option table
 * name the same flags. */
#ifndef TT_TEST_CLI_CASES_H
#define TT_TEST_CLI_CASES_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "opt.h"

struct cli_case {
    const char *args; /* words split at spaces; '...' quotes one word */
    const char *want; /* "error: TEXT", or "k=v ..." fields of the dump */
};

#define CLI_CASE_MAX_ARGS 64

/* Splits line into argv[1..] (argv[0] = prog) in store. Returns argc. */
static inline int cli_case_argv(const char *prog, const char *line, char *store,
                                size_t storelen, char **argv)
{
    int argc = 0;
    size_t used = 0;
    argv[argc++] = (char *)prog;
    while (*line) {
        bool quoted;
        while (*line == ' ')
            line++;
        if (!*line)
            break;
        quoted = *line == '\'';
        if (quoted)
            line++;
        argv[argc++] = store + used;
        while (*line && (quoted ? *line != '\'' : *line != ' ') &&
               used + 1 < storelen)
            store[used++] = *line++;
        if (quoted && *line == '\'')
            line++;
        store[used++] = '\0';
        if (argc == CLI_CASE_MAX_ARGS - 1)
            break;
    }
    argv[argc] = NULL;
    return argc;
}

/* True when every space-separated "k=v" of want is a whole word of dump;
 * the first missing one goes to missing. */
static inline bool cli_case_fields(const char *dump, const char *want,
                                   char *missing, size_t n)
{
    char word[256], padded[8192];
    if (snprintf(padded, sizeof padded, " %.8000s ", dump) < 0)
        return false;
    while (*want) {
        size_t len = strcspn(want, " ");
        if (len) {
            snprintf(word, sizeof word, " %.*s ", (int)len, want);
            if (!strstr(padded, word)) {
                snprintf(missing, n, "%.*s", (int)len, want);
                return false;
            }
        }
        want += len;
        while (*want == ' ')
            want++;
    }
    return true;
}

/* Checks one case: err/rc against an "error: " want, or the dump. */
static inline void cli_case_check(const struct cli_case *c, bool failed,
                                  const char *err, const char *dump)
{
    char missing[256];
    if (strncmp(c->want, "error: ", 7) == 0) {
        CHECK_MSG(failed && strcmp(err, c->want + 7) == 0,
                  "'%s': want error '%s', got %s'%s'", c->args, c->want + 7,
                  failed ? "" : "success ", failed ? err : dump);
        return;
    }
    CHECK_MSG(!failed, "'%s': unexpected error '%s'", c->args, err);
    if (!failed)
        CHECK_MSG(cli_case_fields(dump, c->want, missing, sizeof missing),
                  "'%s': no '%s' in '%s'", c->args, missing, dump);
}

/* One case as a program's parser sees it: its argv in, its error and the
 * fields it read out. */
struct cli_case_io {
    int argc;
    char **argv;
    char *err, *out;
    size_t errlen, outlen;
};

/* Runs a program's parser on io (writing io->err and io->out); returns the
 * parser's result. */
typedef int (*cli_case_run_fn)(struct cli_case_io *io);

/* The parser results that mean --help, --version (0: none) and a refused
 * line. */
struct cli_case_codes {
    int help, version, usage;
};

/* Runs every case of cases (n of them) as prog's command line through run
 * and checks what it gave against the case's want: the fields, "help" or
 * "version", or the error. */
static inline void cli_cases_run(const char *prog, const struct cli_case *cases,
                                 size_t n, cli_case_run_fn run,
                                 struct cli_case_codes codes)
{
    for (size_t i = 0; i < n; i++) {
        char store[1024], *argv[CLI_CASE_MAX_ARGS], err[512], out[4096];
        int argc =
            cli_case_argv(prog, cases[i].args, store, sizeof store, argv);
        struct cli_case_io io = {argc, argv, err, out, sizeof err, sizeof out};
        int rc;
        err[0] = out[0] = '\0';
        rc = run(&io);
        if (rc == codes.help || (codes.version && rc == codes.version))
            snprintf(out, sizeof out, rc == codes.help ? "help" : "version");
        cli_case_check(&cases[i], rc == codes.usage, err, out);
    }
}

/* True when name is one of the NULL-ended list (NULL: none). */
static inline bool cli_case_listed(const char *const *list, const char *name)
{
    for (; list && *list; list++)
        if (strcmp(*list, name) == 0)
            return true;
    return false;
}

/* The help text names every flag of the table (as "--name", and "-x,"
 * for a short alias), and every line of it that starts a flag
 * ("  --name" or "  -x, --name") names one of the table or of others (a
 * NULL-ended list of flags read before the table, NULL: none). */
static inline void cli_help_matches(const char *what,
                                    const struct opt_spec *specs, size_t n,
                                    const char *help, const char *const *others)
{
    char flag[80];
    const char *line;
    for (size_t i = 0; i < n; i++) {
        snprintf(flag, sizeof flag, "--%s", specs[i].name);
        CHECK_MSG(strstr(help, flag) != NULL, "%s --help lacks %s", what, flag);
        if (specs[i].short_name) {
            snprintf(flag, sizeof flag, "-%c, --%s", specs[i].short_name,
                     specs[i].name);
            CHECK_MSG(strstr(help, flag) != NULL, "%s --help lacks %s", what,
                      flag);
        }
    }
    for (line = help; line && *line; line = strchr(line, '\n')) {
        const char *p;
        size_t len;
        char name[80];
        if (*line == '\n')
            line++;
        p = line;
        if (strncmp(p, "  -", 3) != 0)
            continue;
        p += 2;
        if (p[1] != '-' && p[2] == ',' && p[3] == ' ')
            p += 4;
        if (strncmp(p, "--", 2) != 0)
            continue;
        p += 2;
        len = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789-");
        snprintf(name, sizeof name, "%.*s", (int)len, p);
        CHECK_MSG(opt_find(specs, n, name) != NULL ||
                      cli_case_listed(others, name),
                  "%s --help names --%s, which is no flag", what, name);
    }
}

#endif
