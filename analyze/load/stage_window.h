/* stage_window: which requests of a sweep's stages are transient (sent
 * during ramp-up, or ended during drain), the one rule `capacity`,
 * `summary --by stage` and `requests` share (docs/capacity.md, "Steady
 * state"). A stage's window needs all of its requests, so a reader that
 * streams requests one at a time first reads its inputs once with
 * stage_window_load, then asks stage_window_transient per request.
 *
 * Ownership: a stage_window owns its rows; stage_window_free frees them. */
#ifndef TT_STAGE_WINDOW_H
#define TT_STAGE_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "load.h"

/* One request's span, marked by stage_window_mark. */
struct stage_span {
    int64_t start_ns, end_ns; /* end -1: never ended */
    bool transient;
};

/* Marks the spans[0..n) of one stage (any order): transient when sent
 * before the stage's first reply ended (ramp-up: the server was still
 * filling) or before ramp_end_ns (--ramp; -1 none), or ended after the
 * first reply that followed the stage's last send (drain), or never
 * ended. The steady window between those two moments goes to *from /
 * *to (-1 when there is none). Cannot fail. */
void stage_window_mark(struct stage_span *spans, size_t n, int64_t ramp_end_ns,
                       int64_t *from, int64_t *to);

/* Rows kept at most (one per request of a stage, 32 bytes). */
#define STAGE_WINDOW_MAX_ROWS ((size_t)50 * 1000 * 1000)

struct stage_window_row {
    uint32_t trace, stage, id;
    struct stage_span span;
};

struct stage_window {
    struct stage_window_row *rows; /* by trace and id once loaded */
    size_t n_rows, cap_rows;
    bool incomplete;    /* rows ran out (cap or memory): some not marked */
    uint64_t transient; /* requests marked transient */
};

/* Reads paths (as load_trace_files would, with opt) and marks the
 * transient requests of every stage. stdin ("-") cannot be read twice:
 * a path "-" makes it return 2 with nothing read. Returns 0, 1 when an
 * input was damaged (what came before is marked), 2 for stdin, or -1 out
 * of memory. Free with stage_window_free even on error. */
int stage_window_load(struct stage_window *w, char *const *paths,
                      size_t n_paths, const struct load_options *opt);

/* True when request id of trace index trace was marked transient.
 * Logarithmic time. */
bool stage_window_transient(const struct stage_window *w, unsigned trace,
                            uint32_t id);

/* Frees the rows. NULL-safe on a zeroed window. */
void stage_window_free(struct stage_window *w);

#endif
