/* plot_run: runs gnuplot (and fc-list) as separate processes: fork and
 * exec of a program found on PATH with a fixed argument vector, never a
 * shell, so nothing in a file name or a trace is ever interpreted. */
#ifndef TT_PLOT_RUN_H
#define TT_PLOT_RUN_H

#include <stdbool.h>
#include <stddef.h>

/* Finds an executable called name in the directories of $PATH (or
 * /usr/bin:/bin when PATH is unset). Returns 0 with its path in out, or -1
 * when there is none. */
int plot_find_program(const char *name, char *out, size_t size);

struct plot_job {
    char script[4096]; /* path of the .gp file */
    const char *fmt;   /* "png" or "svg": passed as -e "fmt='svg'" */
    int status;        /* filled in: exit code, or -1 when it could not run
                          or was killed */
};

/* Runs `gnuplot [-e fmt='X'] SCRIPT` for every job, at most `parallel` at
 * a time, with stdin from /dev/null and stderr inherited. Returns the
 * number of jobs whose gnuplot did not exit 0. */
size_t plot_run_jobs(const char *gnuplot, struct plot_job *jobs, size_t n,
                     unsigned parallel);

/* The font families for chart text, comma-separated: one with CJK glyphs
 * when fontconfig knows one (fonts-noto-cjk: "Noto Sans CJK SC"), else
 * "Sans", then an emoji family when one is installed
 * (fonts-noto-color-emoji: "Noto Color Emoji"). Only names from a fixed
 * list. Static. */
const char *plot_font_detect(void);

#endif
