/* plot_escape: the only way strings from traces (model, class and label
 * names, file names) reach a chart. They are untrusted: they go into .dat
 * files as sanitized double-quoted fields (gnuplot reads data strings as
 * text, never as code), into HTML escaped, and into gnuplot code only
 * through plot_gp_string's whitelist inside single quotes. */
#ifndef TT_PLOT_ESCAPE_H
#define TT_PLOT_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* Longest string, in bytes, written by plot_dat_string (longer ones are cut
 * at a UTF-8 boundary and end with "..."). */
#define PLOT_DAT_STRING_MAX 120

/* Writes s as one double-quoted .dat field: '"' becomes '\'', '\\' becomes
 * '/', '&' becomes '+' (gnuplot's SVG writer treats it specially), control
 * characters (newline, tab...) become spaces, invalid UTF-8 bytes become
 * '?'; NULL or "" is written as "(none)". Returns 0, -1 on a write error. */
int plot_dat_string(FILE *out, const char *s);

/* Same as plot_dat_string into a buffer (always NUL-terminated, quotes
 * included). Returns the length written. */
size_t plot_dat_string_buf(char *out, size_t size, const char *s);

/* Writes s as a gnuplot single-quoted string literal into out: only ASCII
 * letters and digits, valid UTF-8 non-ASCII characters, space and -_.:/+()
 * survive; anything else becomes '_'. Safe in gnuplot code because single-
 * quoted strings expand nothing (no backquotes, no escapes) and no quote
 * can survive the whitelist. Returns the length (cut to fit size). */
size_t plot_gp_string(char *out, size_t size, const char *s);

/* Writes n bytes of s HTML-escaped (& < > " ' and ':', so an URL in a
 * trace never shows as "http:" in the page), dropping control
 * characters other than newline and tab and replacing invalid UTF-8 by
 * U+FFFD. Returns 0, -1 on a write error. */
int plot_html_escape(FILE *out, const char *s, size_t n);

#endif
