/* log: diagnostics on stderr. */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>

#include "printable.h"

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

int log_quiet(void)
{
    return quiet;
}

static void vlog(const char *kind, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

/* Prints one diagnostic line on stderr. Messages quote names and texts
 * from traces and servers, so the whole line goes through printable: a
 * control character shows as \xNN and cannot move the cursor, clear the
 * screen or start a second line; invalid UTF-8 shows as U+FFFD. */
static void vlog(const char *kind, const char *fmt, va_list ap)
{
    char msg[4096], safe[4096 * 2];
    vsnprintf(msg, sizeof(msg), fmt, ap);
    printable_copy(safe, sizeof(safe), msg);
    fprintf(stderr, "%s: %s%s\n", program, kind, safe);
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
    if (quiet >= LOG_QUIET_ALL)
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
