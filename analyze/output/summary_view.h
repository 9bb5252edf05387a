/* summary_view: how the compact summary is laid out for the reader's
 * terminal (its width, whether it takes colour), and the line writer the
 * compact header and findings share. */
#ifndef TT_SUMMARY_VIEW_H
#define TT_SUMMARY_VIEW_H

#include <stdbool.h>
#include <stdio.h>

#include "buf.h"

struct summary_view {
    int width;  /* columns the lines should fit in (80 when unknown) */
    bool color; /* ANSI colour (only on a terminal, never with NO_COLOR) */
};

/* Colours a line may start with; VIEW_PLAIN for none. */
enum view_tone { VIEW_PLAIN, VIEW_BOLD, VIEW_WARN, VIEW_BAD, VIEW_DIM };

/* The escape sequence that starts tone (and "" for VIEW_PLAIN or when the
 * view has no colour), and the one that ends it. */
const char *view_on(const struct summary_view *v, enum view_tone tone);
const char *view_off(const struct summary_view *v, enum view_tone tone);

/* Display columns of the UTF-8 text s (one per code point; escaped trace
 * text holds no control characters). */
int view_cols(const char *s, size_t len);

/* Writes text (one logical line, no newline in it) to out, broken at
 * spaces so no line is wider than the view; continuation lines start with
 * two spaces. The text up to and including its first ": " (or the whole
 * first line when there is none) is written in tone. */
void view_line(FILE *out, const struct summary_view *v, enum view_tone tone,
               const char *text);

/* Appends s (a name from a trace) terminal-safe (printable_put). */
void view_put_name(struct buf *b, const char *s);

#endif
