/* stage_window: the transient requests of every stage, read ahead. */
#include "stage_window.h"

#include <stdlib.h>
#include <string.h>

void stage_window_mark(struct stage_span *spans, size_t n, int64_t ramp_end_ns,
                       int64_t *from, int64_t *to)
{
    int64_t first_end = -1, last_send = -1, drain = -1;
    size_t i;
    for (i = 0; i < n; i++) {
        if (spans[i].end_ns >= 0 &&
            (first_end < 0 || spans[i].end_ns < first_end))
            first_end = spans[i].end_ns;
        if (spans[i].start_ns > last_send)
            last_send = spans[i].start_ns;
    }
    for (i = 0; i < n; i++)
        if (spans[i].end_ns > last_send &&
            (drain < 0 || spans[i].end_ns < drain))
            drain = spans[i].end_ns;
    /* with --ramp, the ramp is ramp-up too, however long it lasts */
    if (ramp_end_ns > first_end)
        first_end = ramp_end_ns;
    for (i = 0; i < n; i++)
        spans[i].transient = spans[i].start_ns < first_end ||
                             spans[i].end_ns < 0 || spans[i].end_ns > drain;
    *from = first_end;
    *to = drain;
}

/* request_sink: one row per measured request of a stage. */
static int collect(void *ctx, const struct request_metrics *m)
{
    struct stage_window *w = ctx;
    struct stage_window_row *r;
    if (m->warmup || m->superseded || m->stage == 0)
        return 0;
    if (w->n_rows == w->cap_rows) {
        size_t cap = w->cap_rows ? w->cap_rows * 2 : 1024;
        struct stage_window_row *p;
        if (cap > STAGE_WINDOW_MAX_ROWS)
            cap = STAGE_WINDOW_MAX_ROWS;
        p = w->n_rows < cap ? realloc(w->rows, cap * sizeof *p) : NULL;
        if (!p) {
            w->incomplete = true;
            return 0;
        }
        w->rows = p;
        w->cap_rows = cap;
    }
    r = &w->rows[w->n_rows++];
    r->trace = m->trace ? m->trace->index : 0;
    r->stage = m->stage;
    r->id = m->id;
    r->span.start_ns = m->start_ns;
    r->span.end_ns = m->end_ns;
    r->span.transient = false;
    return 0;
}

static int by_stage(const void *a, const void *b)
{
    const struct stage_window_row *x = a, *y = b;
    if (x->trace != y->trace)
        return x->trace < y->trace ? -1 : 1;
    return (x->stage > y->stage) - (x->stage < y->stage);
}

static int by_id(const void *a, const void *b)
{
    const struct stage_window_row *x = a, *y = b;
    if (x->trace != y->trace)
        return x->trace < y->trace ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

/* Marks the rows of each stage (rows sorted by trace and stage). */
static int mark_all(struct stage_window *w, struct trace_info **infos,
                    size_t n_infos)
{
    size_t i = 0;
    while (i < w->n_rows) {
        size_t j = i, k, n;
        const struct trace_info *t;
        const struct stage_info *si;
        struct stage_span *spans;
        int64_t ramp_end = -1, from, to;
        while (j < w->n_rows && w->rows[j].trace == w->rows[i].trace &&
               w->rows[j].stage == w->rows[i].stage)
            j++;
        n = j - i;
        t = w->rows[i].trace < n_infos ? infos[w->rows[i].trace] : NULL;
        si = trace_info_stage(t, w->rows[i].stage);
        if (si && si->ramp_ns > 0 && si->start_ns >= 0)
            ramp_end = si->start_ns + si->ramp_ns;
        spans = malloc(n * sizeof *spans);
        if (!spans)
            return -1;
        for (k = 0; k < n; k++)
            spans[k] = w->rows[i + k].span;
        stage_window_mark(spans, n, ramp_end, &from, &to);
        for (k = 0; k < n; k++) {
            w->rows[i + k].span.transient = spans[k].transient;
            w->transient += spans[k].transient;
        }
        free(spans);
        i = j;
    }
    return 0;
}

int stage_window_load(struct stage_window *w, char *const *paths,
                      size_t n_paths, const struct load_options *opt)
{
    struct trace_info **infos = NULL;
    size_t n_infos = 0;
    int rc;
    memset(w, 0, sizeof *w);
    for (size_t i = 0; i < n_paths; i++)
        if (strcmp(paths[i], "-") == 0)
            return 2;
    rc = load_trace_files(paths, n_paths, opt, collect, NULL, w, &infos,
                          &n_infos);
    if (w->n_rows > 1)
        qsort(w->rows, w->n_rows, sizeof *w->rows, by_stage);
    if (mark_all(w, infos, n_infos) != 0)
        rc = -1;
    load_free_infos(infos, n_infos);
    if (w->n_rows > 1)
        qsort(w->rows, w->n_rows, sizeof *w->rows, by_id);
    return rc;
}

bool stage_window_transient(const struct stage_window *w, unsigned trace,
                            uint32_t id)
{
    struct stage_window_row key;
    const struct stage_window_row *r;
    if (!w || w->n_rows == 0)
        return false;
    memset(&key, 0, sizeof key);
    key.trace = trace;
    key.id = id;
    r = bsearch(&key, w->rows, w->n_rows, sizeof *w->rows, by_id);
    return r && r->span.transient;
}

void stage_window_free(struct stage_window *w)
{
    if (!w)
        return;
    free(w->rows);
    memset(w, 0, sizeof *w);
}
