/* log: diagnostics on stderr, one line each, prefixed by the program name.
 * stdout carries data only. */
#ifndef TT_LOG_H
#define TT_LOG_H

/* Sets the program name used as prefix ("tokentrace-record"). Borrowed. */
void log_set_program(const char *name);

/* What log_set_quiet silences: LOG_QUIET_NOTES is a program's -q (no
 * notes; warnings still print: a -q run is not told less of what went
 * wrong), LOG_QUIET_ALL a pass whose warnings another pass says. */
enum { LOG_QUIET_NONE = 0, LOG_QUIET_NOTES = 1, LOG_QUIET_ALL = 2 };

/* Silences notes, or notes and warnings (errors always print). */
void log_set_quiet(int quiet);

/* The current setting of log_set_quiet (to restore it after a pass that
 * reads inputs a second time and must not repeat their warnings). */
int log_quiet(void);

/* Prints "<prog>: error: <msg>\n" on stderr. */
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "<prog>: warning: <msg>\n" on stderr unless LOG_QUIET_ALL. */
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "<prog>: <msg>\n" on stderr unless quiet. */
void log_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
