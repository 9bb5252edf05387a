/* shard_gate: the shard check of the commands that pool traces. */
#include "shard_gate.h"

#include <string.h>

#include "buf.h"
#include "check_shards.h"
#include "json_writer.h"
#include "log.h"
#include "printable.h"
#include "shard_merge.h"
#include "trace.h"

/* Gathers the shard headers and footers of path into cs (a damaged
 * record ends what is read of it: the command's own read says so). */
static void gather(const char *path, struct check_shards *cs)
{
    struct trace_reader *r;
    struct trace_record rec;
    if (trace_reader_open(path, &r) != TRACE_OK)
        return; /* the command's own read says it cannot open it */
    for (;;) {
        int st = trace_reader_next(r, &rec);
        if (st > 0) {
            if (rec.kind == TRACE_HEADER)
                check_shards_header(cs, &rec.u.header, trace_reader_name(r));
            else if (rec.kind == TRACE_FOOTER)
                check_shards_footer(cs, &rec.u.footer);
            continue;
        }
        if (st == 0 || trace_reader_resync(r) != 1)
            break;
    }
    trace_reader_close(r);
}

/* The first problem of run r of s, one line, into g->what. */
static void describe(struct shard_gate *g, const struct shard_set *s,
                     const struct shard_run *r)
{
    char id[80], f[32], a[28], b[28];
    size_t len;
    printable_copy(id, sizeof id, r->run_id);
    if (r->differs) {
        printable_copy(a, sizeof a, r->diff.a); /* trace text: no raw */
        printable_copy(b, sizeof b, r->diff.b); /* control characters */
        printable_copy(f, sizeof f, r->diff.field);
        len = (size_t)snprintf(
            g->what, sizeof g->what,
            "run %s: NOT ONE RUN, merged anyway (--merge-anyway): %s "
            "differs: shard %u/%u has %s, shard %u/%u has %s",
            id, f, s->rows[r->diff_a].index, s->rows[r->diff_a].count, a,
            s->rows[r->diff_b].index, s->rows[r->diff_b].count, b);
        if (len >= sizeof g->what) /* cut: the stderr warning has it whole */
            g->what[sizeof g->what - 2] = '~';
        return;
    }
    len = (size_t)snprintf(g->what, sizeof g->what,
                           "run %s: INCOMPLETE: %zu of its %u shards read", id,
                           r->n - r->n_duplicate, r->count);
    for (size_t j = 0; j < r->n_missing && len < sizeof g->what - 24; j++)
        len +=
            (size_t)snprintf(g->what + len, sizeof g->what - len, "%s%u/%u",
                             j ? ", " : "; missing ", r->missing[j], r->count);
    for (size_t j = 0, k = 0; j < r->n && len < sizeof g->what - 24; j++)
        if (s->rows[r->first + j].cut)
            len += (size_t)snprintf(g->what + len, sizeof g->what - len,
                                    "%s%u/%u", k++ ? ", " : "; cut ",
                                    s->rows[r->first + j].index, r->count);
    if (r->n_duplicate && len < sizeof g->what - 24)
        snprintf(g->what + len, sizeof g->what - len, "; %zu read twice",
                 r->n_duplicate);
}

int shard_gate_check(char *const *paths, size_t n, bool anyway,
                     struct shard_gate *g)
{
    struct check_shards cs;
    struct shard_set s;
    memset(g, 0, sizeof *g);
    memset(&cs, 0, sizeof cs);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(paths[i], "-") == 0)
            g->stdin_unchecked = true;
        else
            gather(paths[i], &cs);
    }
    if (cs.nomem || check_shards_build(&cs, &s)) {
        log_error("out of memory: the shards among the traces are not "
                  "checked");
        check_shards_free(&cs);
        return 1;
    }
    g->n_runs = s.n_runs;
    g->n_not_one = shard_set_refuse(&s, anyway);
    g->merged_anyway = g->n_not_one && anyway;
    if (!g->n_not_one || anyway) {
        shard_set_warn(&s);
        for (size_t k = 0; k < s.n_runs; k++) {
            const struct shard_run *r = &s.runs[k];
            if (!shard_run_complete(r))
                g->n_incomplete++;
            if (!g->what[0] && (r->differs || !shard_run_complete(r)))
                describe(g, &s, r);
        }
    }
    shard_set_free(&s);
    check_shards_free(&cs);
    return g->n_not_one && !anyway ? 1 : 0;
}

int shard_gate_line(FILE *out, const struct shard_gate *g)
{
    if (!g->what[0])
        return 0;
    if (fprintf(out, "shards: %s%s\n", g->what,
                g->n_not_one + g->n_incomplete > 1 ? " (and more: see stderr)"
                                                   : "") < 0)
        return -1;
    return 0;
}

void shard_gate_add(struct shard_gate *into, const struct shard_gate *g)
{
    into->n_runs += g->n_runs;
    into->n_not_one += g->n_not_one;
    into->n_incomplete += g->n_incomplete;
    into->merged_anyway |= g->merged_anyway;
    into->stdin_unchecked |= g->stdin_unchecked;
    if (!into->what[0])
        memcpy(into->what, g->what, sizeof into->what);
}

const char *shard_gate_json(const struct shard_gate *g, char *out, size_t size)
{
    struct buf b;
    if (!g->n_runs || size < 2)
        return NULL;
    buf_init(&b, 0);
    buf_printf(&b,
               "{\"runs\":%zu,\"one_run\":%s,\"merged_anyway\":%s,"
               "\"complete\":%s,\"incomplete_runs\":%zu,\"problem\":",
               g->n_runs, g->n_not_one ? "false" : "true",
               g->merged_anyway ? "true" : "false",
               g->n_incomplete ? "false" : "true", g->n_incomplete);
    json_put_cstr(&b, g->what[0] ? g->what : NULL);
    buf_puts(&b, "}");
    if (!b.data || b.err || b.len >= size) { /* out of memory, or too long */
        buf_free(&b);
        return NULL;
    }
    memcpy(out, b.data, b.len + 1);
    buf_free(&b);
    return out;
}
