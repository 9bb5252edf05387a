/* summary_shards: the per-shard block of summary (docs/scale-out.md): per
 * run, the set's completeness and wall span with its clock uncertainty,
 * then a row per shard, as text, markdown or a JSON member. */
#include <math.h>
#include <stdio.h>

#include "buf.h"
#include "json_writer.h"
#include "printable.h"
#include "summary_output.h"
#include "text_out.h"

/* "± 0 ms (one host)", "± 4.2 ms", "± unknown (why)". */
static void put_uncertainty(struct buf *b, const struct shard_run *r)
{
    if (r->n_hosts <= 1)
        buf_puts(b, " ± 0 ms (one host, one clock)");
    else if (isnan(r->wall_uncertainty_ms)) {
        buf_puts(b, " ± unknown (");
        printable_put(b, r->why);
        buf_puts(b, ")");
    } else
        buf_printf(b, " ± %.3g ms (the hosts' clock error bounds)",
                   r->wall_uncertainty_ms);
}

/* After the run's line: that it was merged though not one run, the field
 * and the two shards (--merge-anyway; without it summary refused). */
static void put_not_one_run(struct buf *b, const struct shard_set *s,
                            const struct shard_run *r, bool md)
{
    const struct shard_row *x, *y;
    if (!r->differs)
        return;
    x = &s->rows[r->diff_a];
    y = &s->rows[r->diff_b];
    buf_puts(b, md ? "\n\n**NOT ONE RUN, merged anyway** (--merge-anyway): "
                   : "\n  NOT ONE RUN, merged anyway (--merge-anyway): ");
    printable_put(b, r->diff.field);
    buf_printf(b, " differs: shard %u/%u has ", x->index, x->count);
    printable_put(b, r->diff.a);
    buf_printf(b, ", shard %u/%u has ", y->index, y->count);
    printable_put(b, r->diff.b);
}

/* A number cell: text_fmt_num, "-" for NaN. */
static void cell(struct buf *b, double x, int width, bool md)
{
    char n[16];
    text_fmt_num(n, sizeof(n), x);
    if (md)
        buf_printf(b, " %s |", n);
    else
        buf_printf(b, " %*s", width, n);
}

static void count_cell(struct buf *b, uint64_t n, int width, bool md)
{
    if (md)
        buf_printf(b, " %llu |", (unsigned long long)n);
    else
        buf_printf(b, " %*llu", width, (unsigned long long)n);
}

static void text_cell(struct buf *b, const char *s, int width, bool md)
{
    char safe[64];
    if (md) {
        buf_puts(b, " ");
        md_put(b, s, 40);
        buf_puts(b, " |");
        return;
    }
    printable_copy(safe,
                   sizeof(safe) < (size_t)width + 1 ? sizeof(safe)
                                                    : (size_t)width + 1,
                   s ? s : "-");
    buf_printf(b, " %-*s", width, safe);
}

int summary_write_shards(FILE *out, const struct shard_set *s, bool md)
{
    struct buf b;
    buf_init(&b, 0);
    for (size_t k = 0; k < s->n_runs; k++) {
        const struct shard_run *r = &s->runs[k];
        buf_puts(&b, md ? "\n**Shards** of run `" : "\nshards of run ");
        if (md)
            md_put(&b, r->run_id, 64);
        else
            printable_put(&b, r->run_id);
        buf_printf(&b, "%s: %zu of %u read", md ? "`" : "",
                   r->n - r->n_duplicate, r->count);
        if (r->n_missing)
            buf_printf(&b, " (%zu MISSING)", r->n_missing);
        if (r->n_duplicate)
            buf_printf(&b, " (%zu DUPLICATE)", r->n_duplicate);
        if (r->n_cut)
            buf_printf(&b, " (%zu CUT)", r->n_cut);
        buf_puts(&b, shard_run_complete(r) ? ", complete" : ", INCOMPLETE");
        buf_printf(&b, ", %zu host%s, ", r->n_hosts,
                   r->n_hosts == 1 ? "" : "s");
        if (!isnan(r->start_skew_ms))
            buf_printf(&b, "start skew %.3f ms, ", r->start_skew_ms);
        buf_puts(&b, "wall span ");
        if (isnan(r->wall_s))
            buf_puts(&b, "unknown");
        else
            buf_printf(&b, "%.3f s", r->wall_s);
        put_uncertainty(&b, r);
        put_not_one_run(&b, s, r, md);
        buf_puts(&b, md ? "\n\n| shard | host | trace | requests | errors | "
                          "send lag p50 ms | send lag p99 ms | loop lag p99 "
                          "ms |\n|---|---|---|---:|---:|---:|---:|---:|\n"
                        : "\n  shard     host             trace    requests "
                          "  errors  lag p50  lag p99  loop p99 (ms)\n");
        for (size_t j = 0; j < r->n; j++) {
            const struct shard_row *row = &s->rows[r->first + j];
            char name[32];
            snprintf(name, sizeof(name), "%u/%u%s", row->index, row->count,
                     row->duplicate ? "*" : "");
            buf_puts(&b, md ? "|" : " ");
            text_cell(&b, name, 9, md);
            text_cell(&b, row->t->host, 16, md);
            text_cell(&b, row->t->trace_id, 8, md);
            count_cell(&b, row->requests, 9, md);
            count_cell(&b, row->failed, 8, md);
            cell(&b, row->lag_p50_ms, 8, md);
            cell(&b, row->lag_p99_ms, 8, md);
            cell(&b, row->loop_lag_p99_ms, 9, md);
            buf_puts(&b, "\n");
        }
        if (r->n_missing) {
            buf_puts(&b, md ? "\nMissing shards:" : "  missing:");
            for (size_t j = 0; j < r->n_missing; j++)
                buf_printf(&b, "%s %u/%u", j ? "," : "", r->missing[j],
                           r->count);
            buf_puts(&b, "\n");
        }
        if (r->n_duplicate)
            buf_puts(&b, md ? "\n\\* a second trace of the same shard\n"
                            : "  * a second trace of the same shard\n");
        if (r->n_cut) {
            buf_puts(&b, md ? "\nCut shards (no footer, or stopped):"
                            : "  cut (no footer, or stopped):");
            for (size_t j = 0, n = 0; j < r->n; j++)
                if (s->rows[r->first + j].cut)
                    buf_printf(&b, "%s %u/%u", n++ ? "," : "",
                               s->rows[r->first + j].index, r->count);
            buf_puts(&b, "\n");
        }
    }
    if (b.len)
        fwrite(b.data, 1, b.len, out);
    buf_free(&b);
    return ferror(out) ? -1 : 0;
}

/* "differs": null, or {"field","shards":[I,J],"values":[A,B]}. */
static void json_differs(struct buf *b, const struct shard_set *s,
                         const struct shard_run *r)
{
    if (!r->differs) {
        buf_puts(b, "\"differs\":null");
        return;
    }
    buf_puts(b, "\"differs\":{\"field\":");
    json_put_cstr(b, r->diff.field);
    buf_printf(b, ",\"shards\":[%u,%u],\"values\":[", s->rows[r->diff_a].index,
               s->rows[r->diff_b].index);
    json_put_cstr(b, r->diff.a);
    buf_puts(b, ",");
    json_put_cstr(b, r->diff.b);
    buf_puts(b, "]}");
}

void summary_json_shards(struct buf *b, const struct shard_set *s)
{
    buf_puts(b, "[");
    for (size_t k = 0; k < s->n_runs; k++) {
        const struct shard_run *r = &s->runs[k];
        buf_puts(b, k ? ",{\"run_id\":" : "{\"run_id\":");
        json_put_cstr(b, r->run_id);
        buf_puts(b, ",\"run_id_from\":");
        json_put_cstr(b, r->run_id_from);
        buf_printf(b,
                   ",\"count\":%u,\"read\":%zu,\"complete\":%s,"
                   "\"one_run\":%s,\"merged_anyway\":%s,",
                   r->count, r->n - r->n_duplicate,
                   shard_run_complete(r) ? "true" : "false",
                   r->differs ? "false" : "true",
                   r->differs ? "true" : "false");
        json_differs(b, s, r);
        buf_puts(b, ",\"start_skew_ms\":");
        json_put_double(b, r->start_skew_ms);
        buf_puts(b, ",\"missing\":[");
        for (size_t j = 0; j < r->n_missing; j++)
            buf_printf(b, "%s%u", j ? "," : "", r->missing[j]);
        buf_puts(b, "],\"duplicate\":[");
        for (size_t j = 0, n = 0; j < r->n; j++)
            if (s->rows[r->first + j].duplicate)
                buf_printf(b, "%s%u", n++ ? "," : "",
                           s->rows[r->first + j].index);
        buf_puts(b, "],\"cut\":[");
        for (size_t j = 0, n = 0; j < r->n; j++)
            if (s->rows[r->first + j].cut)
                buf_printf(b, "%s%u", n++ ? "," : "",
                           s->rows[r->first + j].index);
        buf_printf(b, "],\"hosts\":%zu,\"wall_s\":", r->n_hosts);
        json_put_double(b, r->wall_s);
        buf_puts(b, ",\"wall_uncertainty_ms\":");
        json_put_double(b, r->wall_uncertainty_ms);
        buf_puts(b, ",\"shards\":[");
        for (size_t j = 0; j < r->n; j++) {
            const struct shard_row *row = &s->rows[r->first + j];
            buf_printf(b, "%s{\"index\":%u,\"count\":%u,\"trace\":%u,",
                       j ? "," : "", row->index, row->count, row->t->index);
            buf_puts(b, "\"trace_id\":");
            json_put_cstr(b, row->t->trace_id);
            buf_puts(b, ",\"host\":");
            json_put_cstr(b, row->t->host);
            buf_printf(b,
                       ",\"requests\":%llu,\"errors\":%llu,"
                       "\"duplicate\":%s,\"cut\":%s,\"send_lag_p50_ms\":",
                       (unsigned long long)row->requests,
                       (unsigned long long)row->failed,
                       row->duplicate ? "true" : "false",
                       row->cut ? "true" : "false");
            json_put_double(b, row->lag_p50_ms);
            buf_puts(b, ",\"send_lag_p99_ms\":");
            json_put_double(b, row->lag_p99_ms);
            buf_puts(b, ",\"loop_lag_p99_ms\":");
            json_put_double(b, row->loop_lag_p99_ms);
            buf_puts(b, "}");
        }
        buf_puts(b, "]}");
    }
    buf_puts(b, "]");
}
