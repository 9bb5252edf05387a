/* text_out: escaping and number text shared by the analyzer's CSV, JSON
 * Lines and markdown writers. Strings come from traces written by strangers:
 * every writer here keeps them from breaking (or injecting into) the format. */
#ifndef TT_TEXT_OUT_H
#define TT_TEXT_OUT_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/* Appends x with at most `decimals` decimals, trailing zeros dropped
 * ("12.5", "100", "0.000123"); nothing at all for NaN or infinity. */
void num_put(struct buf *b, double x, int decimals);

/* Writes a finite x as the shortest of %.15g, %.16g and %.17g that reads
 * back as exactly x (machine formats keep full precision: a reader's
 * numpy gets the same double); nothing for NaN or infinity. */
void num_put_exact(struct buf *b, double x);

/* Writes x into out as table text of at most 9 characters: "-" for NaN,
 * 2 decimals below 100, 1 below 100000, none above. */
void text_fmt_num(char *out, size_t size, double x);

/* Appends s as one RFC 4180 CSV field: quoted (quotes doubled) when it holds
 * a comma, quote, CR or LF. Other control characters (ESC, BEL and the rest
 * of C0, DEL, C1) become spaces, so a field cannot drive a terminal, and
 * invalid UTF-8 bytes become U+FFFD, as in every other output. A field that
 * a spreadsheet would run as a formula (first character = + - @ TAB CR) gets
 * a leading apostrophe. NULL appends an empty field. This is the only CSV
 * field writer of the analyzer. */
void csv_put_field(struct buf *b, const char *s);

/* Appends s (NULL: "-") as markdown inline text that cannot break out of a
 * table cell or start markup: \ ` * _ [ ] < > | ~ & # ! are backslash-escaped,
 * control characters (C0 with newlines, DEL, C1) become spaces, invalid UTF-8
 * bytes become U+FFFD, and text beyond max_bytes (0: no limit) is cut with
 * "...". */
void md_put(struct buf *b, const char *s, size_t max_bytes);

/* Appends text wrapped at width (0: never) at its spaces (its leading
 * spaces kept), continuation lines indented by indent spaces, and a
 * newline. Widths count bytes: meant for the analyzer's own words. */
void text_wrap_put(struct buf *b, const char *text, int width, int indent);

/* Signed number text of a difference ("+45.2", "-0.031"). */
void text_fmt_signed(char *out, size_t size, double x);

/* A change in % ("+38%", "+2.5%", "-0.032%": a fall below 0.1 % keeps
 * its sign and two digits, never "+0.0%"; "-" for NaN). */
void text_fmt_pct(char *out, size_t size, double pct);

#endif
