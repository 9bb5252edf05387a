/* group_view: how groups are ordered, named and counted for the writers:
 * the canonical class order, sorting, a group's name and key names, its
 * token source, failed and finished counts, the measured wall time. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "group_view.h"
#include "groups.h"
#include "run_span.h"

int group_class_rank(const char *name)
{
    static const char *const canonical[] = {"short-short", "short-long",
                                            "long-short"};
    for (int i = 0; i < 3; i++)
        if (strcmp(name, canonical[i]) == 0)
            return i;
    return 3;
}

int class_name_cmp(const char *a, const char *b)
{
    int ra = group_class_rank(a), rb = group_class_rank(b);
    if (ra != rb)
        return ra < rb ? -1 : 1;
    return strcmp(a, b);
}

/* Orders groups of one set (same dims) key by key: rank, then bytes. */
static int cmp_groups(const void *a, const void *b)
{
    const struct group *ga = *(struct group *const *)a;
    const struct group *gb = *(struct group *const *)b;
    for (size_t i = 0; i < ga->n_keys && i < gb->n_keys; i++) {
        int c;
        if (ga->key_rank[i] != gb->key_rank[i])
            return ga->key_rank[i] < gb->key_rank[i] ? -1 : 1;
        c = strcmp(ga->keys[i], gb->keys[i]);
        if (c)
            return c;
    }
    return 0;
}

void group_set_sort(struct group_set *set)
{
    if (set->n_groups < 2) /* qsort's base must not be NULL, even for 0 */
        return;
    qsort(set->groups, set->n_groups, sizeof(*set->groups), cmp_groups);
    /* The index holds positions in set->groups: point it at the new ones,
     * or every later lookup (group_set_find, compare's pairing of the
     * sides) finds another group. */
    for (size_t i = 0; i < set->n_groups; i++) {
        const struct group *g = set->groups[i];
        char joined[GROUP_MAX_DIMS * 540];
        size_t len;
        bool whole = true;
        for (size_t k = 0; k < g->n_keys; k++)
            whole = whole && g->keys[k];
        if (!whole)
            continue;
        len = group_index_key((const char *const *)g->keys, g->n_keys, joined,
                              sizeof(joined));
        group_index_set(&set->index,
                        group_index_hash(GROUP_INDEX_HASH_INIT, joined, len),
                        NULL, joined, i);
    }
}

void group_describe(const struct group *g, char *out, size_t size)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < g->n_keys && len < size; i++) {
        int n =
            snprintf(out + len, size - len, "%s%s", i ? " / " : "", g->keys[i]);
        if (n < 0)
            break;
        len += (size_t)n;
    }
}

const char *group_dim_name(const struct group_set *set, size_t i, char *tmp,
                           size_t tmp_size)
{
    switch (set->by.dims[i]) {
    case DIM_MODEL:
        return "model";
    case DIM_CLASS:
        return "class";
    case DIM_TRACE:
        return "trace";
    case DIM_STAGE:
        return "stage";
    case DIM_TURN:
        return "turn";
    case DIM_LABEL:
        snprintf(tmp, tmp_size, "label:%s", set->by.label_keys[i]);
        return tmp;
    case DIM_HEADER:
        snprintf(tmp, tmp_size, "header:%s", set->by.label_keys[i]);
        return tmp;
    }
    return "";
}

const char *group_token_source(const struct group *g)
{
    if (g->src_usage && g->src_chunks)
        return "mixed";
    return g->src_chunks ? "chunks" : "usage";
}

uint64_t group_failed(const struct group *g)
{
    return g->requests - g->ok - g->interrupted;
}

uint64_t group_finished(const struct group *g)
{
    return g->requests - g->interrupted;
}

double group_set_wall_s(const struct group_set *set)
{
    struct run_span_run *runs, *scratch;
    double wall;
    if (set->n_traces == 0)
        return NAN;
    runs = calloc(2 * set->n_traces, sizeof(*runs));
    if (!runs)
        return NAN;
    scratch = runs + set->n_traces;
    for (size_t i = 0; i < set->n_traces; i++) {
        const struct trace_info *t = set->traces[i];
        runs[i].start_ns = t->measured_start_ns;
        runs[i].end_ns = t->measured_end_ns;
        runs[i].mono_zero_ns = t->mono_zero_ns;
        runs[i].real_zero_ns = t->real_zero_ns;
    }
    wall = run_span_wall_s(runs, set->n_traces, scratch);
    free(runs);
    return wall;
}
