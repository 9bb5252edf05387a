/* load_info: the loader's own part of struct trace_info (load.h): the
 * record of a trace made from its header, and the traces already read.
 * Not for use outside analyze/load. */
#ifndef TT_ANALYZE_LOAD_INFO_H
#define TT_ANALYZE_LOAD_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "load.h"
#include "trace.h"

/* The traces read so far, by identity (trace id and both clock zeros: a
 * copy of the same trace has all three equal). Zero it to start. */
struct load_seen {
    struct load_seen_entry *v;
    size_t n, cap;
};
struct load_seen_entry {
    char *trace_id; /* owned */
    int64_t mono_zero_ns, real_zero_ns;
    char *file; /* where it was first read (owned) */
};

/* A copy of s, or NULL for NULL (or out of memory). */
char *load_info_dup(const char *s);

/* A new trace_info for the trace whose header is h, read from file; its
 * strings are owned copies, every time unset (-1). NULL when out of
 * memory. */
struct trace_info *load_info_from_header(const struct trace_header *h,
                                         const char *file);

/* Says what trace_reader_next's error st means for the trace t being
 * read (NULL: no header yet, so no trace), kept in t as its damage. */
void load_info_report_damage(struct trace_info *t, struct trace_reader *r,
                             int st);

/* Keeps footer f's facts in t (its strings copied): the trace has its
 * footer from then on. */
void load_info_note_footer(struct trace_info *t, const struct trace_footer *f);

/* Keeps a stage record in t: the begin record adds the stage, the end
 * record completes it. */
void load_info_note_stage(struct trace_info *t, const struct trace_stage *r);

/* Appends t to *infos (*n of them). Returns 0, or -1 when out of memory. */
int load_info_push(struct trace_info *t, struct trace_info ***infos, size_t *n);

/* Frees seen's entries and zeroes it. */
void load_info_seen_free(struct load_seen *seen);

/* True when h is a trace already read (a warning names both places); else
 * remembers it and returns false. A header without a trace id is never a
 * repeat (nothing to tell copies apart by). */
bool load_info_seen_before(struct load_seen *seen, const struct trace_header *h,
                           const char *file);

#endif
