/* shard_merge: the shards of one run found among the traces and merged
 * into one struct shard_set, checked and tabulated. */
#include "shard_merge.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "run_span.h"

/* Parses "I/N" (N > 1). Returns 0 or -1. */
static int parse_shard(const char *v, uint32_t *i, uint32_t *n)
{
    unsigned long a, b;
    char *end;
    if (!v)
        return -1;
    a = strtoul(v, &end, 10);
    if (end == v || *end != '/')
        return -1;
    v = end + 1;
    b = strtoul(v, &end, 10);
    if (end == v || *end || b < 2 || a >= b || b > 1000000)
        return -1;
    *i = (uint32_t)a;
    *n = (uint32_t)b;
    return 0;
}

/* Whether t's recording did not end whole: no footer (killed, or its
 * output cut), or stopped by a signal or a write error (a --duration
 * run also ends "interrupted", and is whole). */
static bool trace_cut(const struct trace_info *t)
{
    const char *r = t->footer_reason;
    if (!t->has_footer)
        return true;
    return t->interrupted && r &&
           (strcmp(r, "signal") == 0 || strcmp(r, "write_error") == 0);
}

/* How late the trace's process woke for --start-at, ns (0: not said). */
static int64_t start_late_ns(const struct trace_info *t)
{
    const char *v = trace_info_option(t, "start_late_us");
    char *end;
    long long us;
    if (!v)
        return 0;
    us = strtoll(v, &end, 10);
    return end != v && !*end && us >= 0 && us < 1000000000000LL
               ? (int64_t)us * 1000
               : 0;
}

static int cmp_rows(const void *pa, const void *pb)
{
    const struct shard_row *a = pa, *b = pb;
    int c = strcmp(trace_info_option(a->t, "run_id"),
                   trace_info_option(b->t, "run_id"));
    if (c)
        return c;
    if (a->index != b->index)
        return a->index < b->index ? -1 : 1;
    return a->t->index < b->t->index ? -1 : a->t->index > b->t->index;
}

/* The host's stated maximum error in ms, NAN when not bounded. */
static double host_maxerror_ms(const struct trace_info *t)
{
    const char *st = trace_info_option(t, "clock_sync");
    const char *me = trace_info_option(t, "clock_maxerror_us");
    char *end;
    double v;
    if (!st || strcmp(st, "synchronized") != 0 || !me)
        return NAN;
    v = strtod(me, &end);
    return end != me && !*end && v >= 0 ? v / 1000.0 : NAN;
}

/* Fills run r's hosts, wall span and its uncertainty from its rows. */
static int run_clock(struct shard_set *s, struct shard_run *r)
{
    struct run_span_run *spans = calloc(2 * r->n, sizeof(*spans));
    double top[2] = {0, 0};
    if (!spans)
        return -1;
    r->n_hosts = 0;
    r->wall_uncertainty_ms = 0;
    for (size_t k = 0; k < r->n; k++) {
        const struct trace_info *t = s->rows[r->first + k].t;
        bool seen = false;
        spans[k].start_ns = t->measured_start_ns;
        spans[k].end_ns = t->measured_end_ns;
        spans[k].mono_zero_ns = t->mono_zero_ns;
        spans[k].real_zero_ns = t->real_zero_ns;
        for (size_t j = 0; j < k && !seen; j++)
            seen = strcmp(s->rows[r->first + j].t->host
                              ? s->rows[r->first + j].t->host
                              : "",
                          t->host ? t->host : "") == 0;
        if (!seen)
            r->n_hosts++;
    }
    r->wall_s = run_span_wall_s(spans, r->n, spans + r->n);
    free(spans);
    if (r->n_hosts <= 1)
        return 0; /* one clock: the shards' spans line up exactly */
    for (size_t k = 0; k < r->n; k++) {
        const struct trace_info *t = s->rows[r->first + k].t;
        double e = host_maxerror_ms(t);
        if (isnan(e)) {
            const char *st = trace_info_option(t, "clock_sync");
            r->wall_uncertainty_ms = NAN;
            snprintf(r->why, sizeof(r->why), "the clock of host %.40s is %s",
                     t->host ? t->host : "?",
                     st ? st : "of unknown state (an older recorder)");
            return 0;
        }
        if (e > top[0]) {
            top[1] = top[0];
            top[0] = e;
        } else if (e > top[1]) {
            top[1] = e;
        }
    }
    r->wall_uncertainty_ms = top[0] + top[1];
    return 0;
}

/* Run r's shards as one run: the first two whose run_match disagree
 * (diff), and the spread of their real starts. */
static void run_match_check(struct shard_set *s, struct shard_run *r)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    const struct shard_row *first = &s->rows[r->first];
    const char *m0 = trace_info_option(first->t, "run_match");
    r->run_id_from = trace_info_option(first->t, "run_id_from");
    for (size_t k = 0; k < r->n; k++) {
        const struct shard_row *row = &s->rows[r->first + k];
        if (row->real_start_ns < lo)
            lo = row->real_start_ns;
        if (row->real_start_ns > hi)
            hi = row->real_start_ns;
        if (k && !r->differs &&
            run_match_differs(m0, trace_info_option(row->t, "run_match"),
                              &r->diff)) {
            r->differs = true;
            r->diff_a = r->first;
            r->diff_b = r->first + k;
        }
    }
    r->start_skew_ms = r->n > 1 ? (double)(hi - lo) / 1e6 : NAN;
}

/* Closes run r (rows [first, first + n)): missing, duplicate and cut
 * shards, whether they are one run. */
static int close_run(struct shard_set *s, struct shard_run *r)
{
    bool *seen = calloc(r->count, sizeof(*seen));
    if (!seen)
        return -1;
    run_match_check(s, r);
    for (size_t k = 0; k < r->n; k++) {
        struct shard_row *row = &s->rows[r->first + k];
        r->n_cut += row->cut;
        if (row->count != r->count)
            r->count_differs = true;
        if (row->index >= r->count)
            continue;
        if (seen[row->index]) {
            row->duplicate = true;
            r->n_duplicate++;
        }
        seen[row->index] = true;
    }
    for (uint32_t i = 0; i < r->count; i++)
        if (!seen[i])
            r->n_missing++;
    r->missing =
        r->n_missing ? calloc(r->n_missing, sizeof(*r->missing)) : NULL;
    if (r->n_missing && !r->missing) {
        free(seen);
        return -1;
    }
    r->n_missing = 0;
    for (uint32_t i = 0; i < r->count; i++)
        if (!seen[i])
            r->missing[r->n_missing++] = i;
    free(seen);
    return run_clock(s, r);
}

int shard_set_build(const struct group_set *set, struct shard_set *out)
{
    memset(out, 0, sizeof(*out));
    for (size_t i = 0; i < set->n_traces; i++) {
        const struct trace_info *t = set->traces[i];
        const struct trace_itl *own = group_set_trace_own(set, t->index);
        struct shard_row *row, *p;
        uint32_t si, sn;
        if (parse_shard(trace_info_option(t, "shard"), &si, &sn) ||
            !trace_info_option(t, "run_id"))
            continue;
        p = realloc(out->rows, (out->n_rows + 1) * sizeof(*p));
        if (!p)
            goto oom;
        out->rows = p;
        row = &out->rows[out->n_rows++];
        memset(row, 0, sizeof(*row));
        row->t = t;
        row->index = si;
        row->count = sn;
        row->requests = own ? own->requests : 0;
        row->failed = own ? own->failed : 0;
        row->lag_p50_ms = own ? own->lag_p50 : NAN;
        row->lag_p99_ms = own ? own->lag_p99 : NAN;
        row->loop_lag_p99_ms =
            t->loop_lag_samples > 0 ? (double)t->loop_lag_p99_ns / 1e6 : NAN;
        row->cut = trace_cut(t);
        row->real_start_ns = t->real_zero_ns + start_late_ns(t);
    }
    if (!out->n_rows)
        return 0;
    qsort(out->rows, out->n_rows, sizeof(*out->rows), cmp_rows);
    for (size_t k = 0; k < out->n_rows; k++) {
        const char *id = trace_info_option(out->rows[k].t, "run_id");
        struct shard_run *r;
        if (k && out->runs &&
            strcmp(out->runs[out->n_runs - 1].run_id, id) == 0) {
            out->runs[out->n_runs - 1].n++;
            continue;
        }
        r = realloc(out->runs, (out->n_runs + 1) * sizeof(*r));
        if (!r)
            goto oom;
        out->runs = r;
        r = &out->runs[out->n_runs++];
        memset(r, 0, sizeof(*r));
        r->run_id = id;
        r->count = out->rows[k].count;
        r->first = k;
        r->n = 1;
    }
    for (size_t k = 0; k < out->n_runs; k++)
        if (close_run(out, &out->runs[k]))
            goto oom;
    return 0;
oom:
    shard_set_free(out);
    return -1;
}

bool shard_run_complete(const struct shard_run *r)
{
    return !r->n_missing && !r->n_duplicate && !r->n_cut && !r->count_differs;
}

bool shard_set_complete(const struct shard_set *s)
{
    for (size_t k = 0; k < s->n_runs; k++)
        if (!shard_run_complete(&s->runs[k]))
            return false;
    return true;
}

/* "0/2 (FILE)" of row i into out. */
static void row_name(const struct shard_set *s, size_t i, char *out,
                     size_t size)
{
    const struct shard_row *row = &s->rows[i];
    snprintf(out, size, "%u/%u (%.80s)", row->index, row->count,
             row->t->file ? row->t->file : "?");
}

size_t shard_set_refuse(const struct shard_set *s, bool anyway)
{
    size_t n = 0;
    for (size_t k = 0; k < s->n_runs; k++) {
        const struct shard_run *r = &s->runs[k];
        char a[112], b[112];
        if (!r->differs)
            continue;
        n++;
        if (anyway)
            continue;
        row_name(s, r->diff_a, a, sizeof a);
        row_name(s, r->diff_b, b, sizeof b);
        log_error("run %s: its shards are not one run: %s differs: shard %s "
                  "has %s, shard %s has %s; nothing merged (--merge-anyway "
                  "merges them all the same, and says so)",
                  r->run_id, r->diff.field, a, r->diff.a, b, r->diff.b);
    }
    return n;
}

/* The warnings of run r about what is not whole or not one run. */
static void warn_run(const struct shard_set *s, const struct shard_run *r)
{
    char a[112], b[112];
    for (size_t j = 0; j < r->n; j++) {
        const struct shard_row *row = &s->rows[r->first + j];
        if (row->cut)
            log_warn("run %s: shard %u/%u (%s) was cut: %s; the run is "
                     "incomplete",
                     r->run_id, row->index, row->count,
                     row->t->file ? row->t->file : "?",
                     !row->t->has_footer
                         ? "no footer (the recorder was killed or its "
                           "output cut)"
                         : "the recorder was stopped by a signal");
    }
    if (r->differs) {
        row_name(s, r->diff_a, a, sizeof a);
        row_name(s, r->diff_b, b, sizeof b);
        log_warn("run %s: merged anyway (--merge-anyway) though its shards "
                 "are not one run: %s differs: shard %s has %s, shard %s "
                 "has %s",
                 r->run_id, r->diff.field, a, r->diff.a, b, r->diff.b);
    }
    if (r->run_id_from && strcmp(r->run_id_from, "own") == 0)
        log_warn("run %s: recorded without --start-at or --run-id, so its "
                 "run id is this shard's own and no other shard joins it; "
                 "give every shard the same --start-at (or --run-id)",
                 r->run_id);
    else if (r->run_id_from && strcmp(r->run_id_from, "seed") == 0)
        log_warn("run %s: its run id comes from the seed alone (an older "
                 "recorder, no --start-at): shards started apart share it; "
                 "see the start skew",
                 r->run_id);
    if (r->start_skew_ms > 100)
        log_warn("run %s: its shards started %.3f ms apart (start skew): "
                 "their schedules do not line up, and the wall span and "
                 "rates include the gap",
                 r->run_id, r->start_skew_ms);
}

void shard_set_warn(const struct shard_set *s)
{
    char list[256];
    for (size_t k = 0; k < s->n_runs; k++) {
        const struct shard_run *r = &s->runs[k];
        size_t len = 0;
        if (r->n_missing) {
            list[0] = '\0';
            for (size_t j = 0; j < r->n_missing && len < sizeof(list) - 16; j++)
                len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%u",
                                        j ? ", " : "", r->missing[j]);
            if (len >= sizeof(list) - 16)
                snprintf(list + len, sizeof(list) - len, ", ...");
            log_warn("run %s: %zu of its %u shards missing (index %s): "
                     "analyzed without them, so the load and counts are "
                     "those of the shards read",
                     r->run_id, r->n_missing, r->count, list);
        }
        for (size_t j = 0; j < r->n; j++) {
            const struct shard_row *row = &s->rows[r->first + j];
            if (row->duplicate)
                log_warn("run %s: shard %u/%u read twice (%s, trace %s, "
                         "and an earlier trace of the same index): two "
                         "recordings of one shard; its requests count twice",
                         r->run_id, row->index, row->count,
                         row->t->file ? row->t->file : "?",
                         row->t->trace_id ? row->t->trace_id : "?");
        }
        warn_run(s, r);
        if (r->count_differs)
            log_warn("run %s: its shards disagree on the number of shards "
                     "(the first read says %u)",
                     r->run_id, r->count);
        if (isnan(r->wall_uncertainty_ms) && r->n_hosts > 1)
            log_warn("run %s: its wall span joins %zu hosts whose clocks "
                     "are not bounded (%s): the span and throughput may be "
                     "off by any amount; per-request metrics are not "
                     "affected",
                     r->run_id, r->n_hosts, r->why);
    }
}

void shard_set_free(struct shard_set *s)
{
    if (!s)
        return;
    for (size_t k = 0; k < s->n_runs; k++)
        free(s->runs[k].missing);
    free(s->runs);
    free(s->rows);
    memset(s, 0, sizeof(*s));
}
