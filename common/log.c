/* log: diagnostics on stderr. */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>

static const char *program = "tokentrace";
static int quiet;

void log_set_program(const char *name)
{
    program = name;
}

void log_set_quiet(int q)
{
    quiet = q;
}

static void vlog(const char *kind, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

/* Prints one diagnostic line on stderr. */
static void vlog(const char *kind, const char *fmt, va_list ap)
{
    fprintf(stderr, "%s: %s", program, kind);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void log_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog("error: ", fmt, ap);
    va_end(ap);
}

void log_warn(const char *fmt, ...)
{
    va_list ap;
    if (quiet)
        return;
    va_start(ap, fmt);
    vlog("warning: ", fmt, ap);
    va_end(ap);
}

void log_note(const char *fmt, ...)
{
    va_list ap;
    if (quiet)
        return;
    va_start(ap, fmt);
    vlog("", fmt, ap);
    va_end(ap);
}
