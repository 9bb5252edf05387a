/* check_shards: check's verdict on the runs its shard traces belong to. */
#include "check_shards.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "groups.h"
#include "load_info.h"
#include "log.h"
#include "printable.h"
#include "shard_merge.h"

/* The value of option key in h, or NULL. */
static const char *header_option(const struct trace_header *h, const char *key)
{
    for (size_t i = 0; i < h->n_options; i++)
        if (strcmp(h->options[i].key, key) == 0)
            return h->options[i].value;
    return NULL;
}

void check_shards_header(struct check_shards *cs, const struct trace_header *h,
                         const char *file)
{
    struct trace_info *t;
    cs->last_is_shard = false;
    if (!header_option(h, "shard") || !header_option(h, "run_id"))
        return;
    if (cs->n == cs->cap) {
        size_t ncap = cs->cap ? cs->cap * 2 : 8;
        struct trace_info **p = realloc(cs->infos, ncap * sizeof(*p));
        if (!p) {
            cs->nomem = true;
            return;
        }
        cs->infos = p;
        cs->cap = ncap;
    }
    t = load_info_from_header(h, file);
    if (!t) {
        cs->nomem = true;
        return;
    }
    t->index = (unsigned)cs->n;
    cs->infos[cs->n++] = t;
    cs->last_is_shard = true;
}

void check_shards_footer(struct check_shards *cs, const struct trace_footer *f)
{
    struct trace_info *t;
    if (!cs->last_is_shard || !cs->n)
        return;
    t = cs->infos[cs->n - 1];
    t->has_footer = true;
    t->interrupted = f->interrupted;
    free(t->footer_reason);
    t->footer_reason = f->reason ? strdup(f->reason) : NULL;
}

/* Prints run r's verdict; returns 0 when it is OK. */
static int verdict(const struct shard_set *s, const struct shard_run *r)
{
    char id[80];
    printable_copy(id, sizeof id, r->run_id);
    if (r->differs) {
        printf("run %s: NOT ONE RUN: %s differs: shard %u/%u (%s) has %s, "
               "shard %u/%u (%s) has %s\n",
               id, r->diff.field, s->rows[r->diff_a].index,
               s->rows[r->diff_a].count, s->rows[r->diff_a].t->file, r->diff.a,
               s->rows[r->diff_b].index, s->rows[r->diff_b].count,
               s->rows[r->diff_b].t->file, r->diff.b);
        return 1;
    }
    if (shard_run_complete(r)) {
        printf("run %s: %zu of %u shards, one run: OK\n", id, r->n, r->count);
        return 0;
    }
    printf("run %s: INCOMPLETE: %zu of its %u shards read", id,
           r->n - r->n_duplicate, r->count);
    for (size_t j = 0; j < r->n_missing; j++)
        printf("%s%u/%u", j ? ", " : "; missing ", r->missing[j], r->count);
    for (size_t j = 0, n = 0; j < r->n; j++)
        if (s->rows[r->first + j].cut)
            printf("%s%u/%u", n++ ? ", " : "; cut (no footer, or stopped) ",
                   s->rows[r->first + j].index, r->count);
    if (r->n_duplicate)
        printf("; %zu read twice", r->n_duplicate);
    if (r->count_differs)
        printf("; the shards disagree on their number");
    printf("\n");
    return 1;
}

int check_shards_build(const struct check_shards *cs, struct shard_set *s)
{
    struct group_set set;
    struct group_by by;
    int rc;
    memset(&by, 0, sizeof by);
    group_set_init(&set, &by, NULL);
    set.traces = cs->infos; /* borrowed: no requests, only the headers */
    set.n_traces = cs->n;
    rc = shard_set_build(&set, s);
    set.traces = NULL;
    set.n_traces = 0;
    group_set_free(&set);
    return rc;
}

void check_shards_free(struct check_shards *cs)
{
    load_free_infos(cs->infos, cs->n); /* and the array */
    memset(cs, 0, sizeof *cs);
}

int check_shards_finish(struct check_shards *cs)
{
    struct shard_set s;
    int rc = 0;
    if (cs->nomem)
        log_error("out of memory: the runs of the shard traces are not "
                  "checked");
    if (cs->nomem || !cs->n) {
        bool nomem = cs->nomem;
        check_shards_free(cs);
        return nomem ? 1 : 0;
    }
    if (check_shards_build(cs, &s)) {
        log_error("out of memory: the runs of the shard traces are not "
                  "checked");
        rc = 1;
    } else {
        for (size_t k = 0; k < s.n_runs; k++)
            rc |= verdict(&s, &s.runs[k]);
        shard_set_free(&s);
    }
    check_shards_free(cs);
    return rc;
}
