/* summary_compact: the default summary, read at a glance: one header line,
 * one row per group with the numbers people ask for first, then the
 * findings (summary_findings.c). The full per-group block is
 * summary_write_table (--detail). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "summary_findings.h"
#include "summary_output.h"
#include "summary_view.h"
#include "text_out.h"

#define CELL 5 /* a number cell: "9.00", "13.4", "9512", "120k" */

enum row_kind {
    ROW_GROUP,    /* a group's numbers */
    ROW_HEADING,  /* the first key of the groups below it, no numbers */
    ROW_ANSWER,   /* TTFT of the first answer token, when it differs */
    ROW_INTENDED, /* times from the intended send (open loop) */
};

struct row {
    enum row_kind kind;
    const struct group *g;
    struct buf name; /* escaped, indented */
};

/* A column of the table: one statistic of one metric; the columns of one
 * metric share a title above them. */
struct column {
    const char *title; /* over the metric's first column, NULL: same */
    const char *label; /* the second header line: "p50" */
    bool p99;          /* the p99, else the p50 */
    int metric;        /* enum metric_id */
    int intended;      /* the metric a ROW_INTENDED row shows (-1: none) */
    bool answer;       /* a ROW_ANSWER row shows M_TTFT_CONTENT here */
    int w;             /* the cell's width; 0: CELL */
};

static const struct column base_cols[] = {
    {"TTFT ms", "p50", false, M_TTFT, M_RESPONSE_TTFT, true, 0},
    {NULL, "p99", true, M_TTFT, M_RESPONSE_TTFT, true, 0},
    {"TPOT ms", "p50", false, M_TPOT, -1, false, 0},
    {NULL, "p99", true, M_TPOT, -1, false, 0},
    {"ITL ms", "p99", true, M_ITL, -1, false, 0},
    {"latency ms", "p50", false, M_LATENCY, M_RESPONSE_LATENCY, false, 0},
    {NULL, "p99", true, M_LATENCY, M_RESPONSE_LATENCY, false, 0},
    {"tok/s", "p50", false, M_TPS, -1, false, 0},
};
/* Shown too when the terminal has room: the median tokens in and out,
 * and the input tokens the server found cached when any request said. */
static const struct column col_in = {"tokens p50", "in",  false, M_INPUT_TOKENS,
                                     -1,           false, 0};
static const struct column col_out = {NULL, "out", false, M_OUTPUT_TOKENS,
                                      -1,   false, 0};
static const struct column col_cached = {NULL, "cached", false, M_CACHED_TOKENS,
                                         -1,   false,    6};
#define N_BASE (sizeof base_cols / sizeof base_cols[0])
#define N_WIDE 3
#define GAP 2 /* spaces before a metric's first column, 1 between stats */

/* x in at most CELL characters: 2 decimals below 10, 1 below 100, none
 * below 100000, else thousands with "k"; "-" for NaN. */
static void cell_num(char *out, size_t size, double x)
{
    double a = fabs(x);
    if (isnan(x))
        snprintf(out, size, "-");
    else if (a < 9.995)
        snprintf(out, size, "%.2f", x);
    else if (a < 99.95)
        snprintf(out, size, "%.1f", x);
    else if (a < 99999.5)
        snprintf(out, size, "%.0f", x);
    else
        snprintf(out, size, "%.0fk", x / 1000);
}

static double stat_of(const struct stats_summary *s, bool p99)
{
    return p99 ? s->p99 : s->p50;
}

static void header(FILE *out, const struct group_set *set,
                   const struct summary_view *v)
{
    const struct group *o = &set->overall;
    struct run_totals t;
    struct buf b;
    summary_totals(set, &t);
    buf_init(&b, 0);
    buf_printf(&b, "%zu trace%s, %llu request%s, %llu failed", set->n_traces,
               set->n_traces == 1 ? "" : "s", (unsigned long long)o->requests,
               o->requests == 1 ? "" : "s",
               (unsigned long long)group_failed(o));
    if (o->interrupted)
        buf_printf(&b, ", %llu interrupted",
                   (unsigned long long)o->interrupted);
    if (o->warmup)
        buf_printf(&b, ", %llu warmup left out", (unsigned long long)o->warmup);
    if (o->retried)
        buf_printf(&b, ", %llu retried attempt%s not counted",
                   (unsigned long long)o->retried, o->retried == 1 ? "" : "s");
    if (!isnan(t.wall_s))
        buf_printf(&b, ", %.1f s, %.2f req/s, %.0f tok/s", t.wall_s,
                   t.req_per_s, t.output_tok_per_s);
    if (summary_self_check_words(set))
        buf_printf(&b, ", %s", summary_self_check_words(set));
    view_line(out, v, VIEW_BOLD, b.data);
    buf_free(&b);
}

/* Text of a number cell of row r in column c; "" when the row shows
 * nothing there. */
static void cell_text(char *out, size_t size, const struct row *r,
                      const struct column *c)
{
    int m = c->metric;
    out[0] = '\0';
    if (r->kind == ROW_HEADING || (r->kind == ROW_ANSWER && !c->answer) ||
        (r->kind == ROW_INTENDED && c->intended < 0))
        return;
    if (r->kind == ROW_ANSWER)
        m = M_TTFT_CONTENT;
    else if (r->kind == ROW_INTENDED)
        m = c->intended;
    cell_num(out, size, stat_of(&r->g->sum[m], c->p99));
}

/* True when a row of kind for g would only repeat the cells of g's own
 * row (TTFT answer = TTFT without reasoning; closed-loop times). */
static bool row_repeats(const struct group *g, enum row_kind kind)
{
    struct row own = {ROW_GROUP, g, {0}}, sub = {kind, g, {0}};
    for (size_t i = 0; i < N_BASE; i++) {
        char a[16], b[16];
        cell_text(b, sizeof b, &sub, &base_cols[i]);
        if (!b[0])
            continue;
        cell_text(a, sizeof a, &own, &base_cols[i]);
        if (strcmp(a, b) != 0 && strcmp(b, "-") != 0)
            return false;
    }
    return true;
}

static struct row *add_row(struct row *rows, size_t *n, enum row_kind kind,
                           const struct group *g, const char *indent)
{
    struct row *r = &rows[(*n)++];
    r->kind = kind;
    r->g = g;
    buf_init(&r->name, 0);
    buf_puts(&r->name, indent);
    return r;
}

/* A group's row and the rows under it that say something new. */
static void add_group_rows(struct row *rows, size_t *n, const struct group *g,
                           size_t first_key, const char *indent)
{
    struct row *r = add_row(rows, n, ROW_GROUP, g, indent);
    if (first_key >= g->n_keys)
        buf_puts(&r->name, "all");
    for (size_t k = first_key; k < g->n_keys; k++) {
        buf_puts(&r->name, k > first_key ? " / " : "");
        view_put_name(&r->name, g->keys[k]);
    }
    if (!row_repeats(g, ROW_ANSWER))
        buf_puts(&add_row(rows, n, ROW_ANSWER, g, indent)->name, "  answer");
    if (g->open_loop && !row_repeats(g, ROW_INTENDED))
        buf_puts(&add_row(rows, n, ROW_INTENDED, g, indent)->name,
                 "  intended");
}

/* The rows in print order: all requests first when there are several
 * groups; with two or more keys, the first key as a heading over the
 * groups that share it. Returns the number of rows. */
static size_t build_rows(const struct group_set *set, struct row *rows)
{
    size_t n = 0;
    bool nest = set->by.n >= 2 && set->n_groups > 1;
    if (set->n_groups != 1)
        add_group_rows(rows, &n, &set->overall, 0, "");
    for (size_t i = 0; i < set->n_groups; i++) {
        const struct group *g = set->groups[i];
        if (!nest) {
            add_group_rows(rows, &n, g, 0, "");
            continue;
        }
        if (i == 0 || strcmp(set->groups[i - 1]->keys[0], g->keys[0]) != 0)
            view_put_name(&add_row(rows, &n, ROW_HEADING, g, "")->name,
                          g->keys[0]);
        add_group_rows(rows, &n, g, 1, "  ");
    }
    return n;
}

/* Writes the name cell, cut to cols columns ("..." at the end when cut). */
static void put_name_cell(FILE *out, const struct buf *name, int cols)
{
    int have = view_cols(name->data, name->len);
    size_t i = 0;
    int used = 0;
    if (have <= cols) {
        fprintf(out, "%s%*s", name->data, cols - have, "");
        return;
    }
    while (i < name->len && used < cols - 3) {
        i++;
        while (i < name->len && ((unsigned char)name->data[i] & 0xC0) == 0x80)
            i++;
        used++;
    }
    fprintf(out, "%.*s...%*s", (int)i, name->data, cols - 3 - used, "");
}

static void fail_cell(char *out, size_t size, const struct group *g)
{
    double pct;
    out[0] = '\0';
    if (!g->requests)
        return;
    pct = 100.0 * (double)group_failed(g) / (double)g->requests;
    if (pct == 0 || pct >= 9.95)
        snprintf(out, size, "%.0f%%", pct);
    else
        snprintf(out, size, "%.1f%%", pct);
}

static int cell_w(const struct column *c)
{
    return c->w ? c->w : CELL;
}

static int cols_width(const struct column *c, size_t n)
{
    int w = 0;
    for (size_t i = 0; i < n; i++)
        w += (c[i].title ? GAP : 1) + cell_w(&c[i]);
    return w;
}

/* The two header lines: metric titles centred over their columns, then
 * the name of the group column (keys: the --by keys) and the statistics. */
static void table_head(FILE *out, const struct summary_view *v,
                       const struct buf *keys, const struct column *cols,
                       size_t n_cols, int name_w, int n_w)
{
    int line_w = name_w + n_w + 6 + cols_width(cols, n_cols) + CELL;
    char *top = malloc((size_t)line_w + 1);
    int at = name_w + n_w + 6;
    if (!top)
        return;
    memset(top, ' ', (size_t)line_w);
    top[line_w] = '\0';
    for (size_t i = 0; i < n_cols;) {
        size_t j = i + 1;
        int span, tl, start;
        while (j < n_cols && !cols[j].title)
            j++;
        span = cols_width(cols + i, j - i) - GAP + 1;
        tl = (int)strlen(cols[i].title);
        start = at + GAP - 1 + (span - tl) / 2;
        if (start < at)
            start = at;
        if (start + tl <= line_w)
            memcpy(top + start, cols[i].title, (size_t)tl);
        at += cols_width(cols + i, j - i);
        i = j;
    }
    while (line_w > 0 && top[line_w - 1] == ' ')
        top[--line_w] = '\0';
    fprintf(out, "%s%s%s\n", view_on(v, VIEW_DIM), top, view_off(v, VIEW_DIM));
    free(top);
    fputs(view_on(v, VIEW_DIM), out);
    put_name_cell(out, keys, name_w);
    fprintf(out, " %*s %4s", n_w, "n", "fail");
    for (size_t i = 0; i < n_cols; i++)
        fprintf(out, "%*s%*s", cols[i].title ? GAP : 1, "", cell_w(&cols[i]),
                cols[i].label);
    fprintf(out, "%s\n", view_off(v, VIEW_DIM));
}

static void table_row(FILE *out, const struct summary_view *v,
                      const struct row *r, const struct column *cols,
                      size_t n_cols, int name_w, int n_w)
{
    char cell[24], fail[16], num[24];
    bool numbers = r->kind == ROW_GROUP;
    if (r->kind == ROW_HEADING) { /* no numbers: the line is the name's */
        put_name_cell(out, &r->name, v->width);
        fputc('\n', out);
        return;
    }
    put_name_cell(out, &r->name, name_w);
    snprintf(num, sizeof num, "%llu", (unsigned long long)r->g->requests);
    fail_cell(fail, sizeof fail, r->g);
    if (!numbers)
        fprintf(out, " %*s %4s", n_w, "", "");
    else if (group_failed(r->g))
        fprintf(out, " %*s %s%4s%s", n_w, num, view_on(v, VIEW_BAD), fail,
                view_off(v, VIEW_BAD));
    else
        fprintf(out, " %*s %4s", n_w, num, fail);
    for (size_t i = 0; i < n_cols; i++) {
        cell_text(cell, sizeof cell, r, &cols[i]);
        fprintf(out, "%*s%*s", cols[i].title ? GAP : 1, "", cell_w(&cols[i]),
                cell);
    }
    fputc('\n', out);
}

/* The group column's header: the --by keys ("model / class", "turn"). */
static void keys_header(struct buf *b, const struct group_set *set)
{
    char tmp[160];
    for (size_t k = 0; k < set->by.n; k++) {
        buf_puts(b, k ? " / " : "");
        view_put_name(b, group_dim_name(set, k, tmp, sizeof tmp));
    }
}

/* True when some request of set said how many input tokens were cached. */
static bool any_cached(const struct group_set *set)
{
    return set->overall.sum[M_CACHED_TOKENS].n > 0;
}

/* Appends to cols the token columns that fit in room: in, out and cached
 * (when any request said cached tokens), else in and cached, else cached
 * alone; in and out without cached tokens. Returns how many. */
static size_t wide_columns(struct column *cols, bool cached, int room)
{
    const struct column all[] = {col_in, col_out, col_cached};
    const struct column no_out[] = {col_in, col_cached};
    struct column alone = col_cached;
    alone.title = "tokens p50";
    if (!cached) {
        if (cols_width(all, 2) > room)
            return 0;
        memcpy(cols, all, 2 * sizeof *cols);
        return 2;
    }
    if (cols_width(all, 3) <= room) {
        memcpy(cols, all, sizeof all);
        return 3;
    }
    if (cols_width(no_out, 2) <= room) {
        memcpy(cols, no_out, sizeof no_out);
        return 2;
    }
    if (cols_width(&alone, 1) > room)
        return 0;
    cols[0] = alone;
    return 1;
}

/* Under the table, once: what the cached column holds and from how many
 * requests, and how many of them were derived. */
static void cached_note(FILE *out, const struct group_set *set,
                        const struct summary_view *v)
{
    const struct group *o = &set->overall;
    struct buf line;
    buf_init(&line, 0);
    buf_printf(&line,
               "cached: p50 of the input tokens the server found cached (%zu "
               "of %llu ok requests said)",
               o->sum[M_CACHED_TOKENS].n, (unsigned long long)o->ok);
    if (o->cached_derived)
        buf_printf(&line,
                   "; derived in %llu: usage.prompt_tokens − "
                   "timings.prompt_n, the server names no cached count",
                   (unsigned long long)o->cached_derived);
    view_line(out, v, VIEW_DIM, line.data);
    buf_free(&line);
}

/* Trailing spaces of a row's blank cells are harmless on a terminal, but
 * goldens and copy-paste like clean lines: rows are written to a memory
 * stream and trimmed. Returns true when the table has the cached column. */
static bool table(FILE *out, const struct group_set *set,
                  const struct summary_view *v)
{
    struct row *rows = calloc(set->n_groups * 4 + 3, sizeof *rows);
    struct column cols[N_BASE + N_WIDE];
    size_t n_rows, n_cols = N_BASE, n_wide;
    int name_w = 5, n_w = 1, fixed, keys_w;
    bool answer = false, intended = false, cached = false;
    struct buf keys;
    if (!rows)
        return false;
    buf_init(&keys, 0);
    keys_header(&keys, set);
    keys_w = view_cols(keys.data, keys.len);
    n_rows = build_rows(set, rows);
    memcpy(cols, base_cols, sizeof base_cols);
    for (size_t i = 0; i < n_rows; i++) {
        char num[24];
        int w = view_cols(rows[i].name.data, rows[i].name.len);
        int nw = snprintf(num, sizeof num, "%llu",
                          (unsigned long long)rows[i].g->requests);
        if (rows[i].kind != ROW_HEADING)
            name_w = w > name_w ? w : name_w;
        n_w = nw > n_w ? nw : n_w;
        answer |= rows[i].kind == ROW_ANSWER;
        intended |= rows[i].kind == ROW_INTENDED;
    }
    name_w = keys_w > name_w ? keys_w : name_w;
    fixed = n_w + 6 + cols_width(cols, n_cols);
    n_wide =
        wide_columns(cols + n_cols, any_cached(set), v->width - name_w - fixed);
    cached = n_wide && cols[n_cols + n_wide - 1].metric == M_CACHED_TOKENS;
    fixed += cols_width(cols + n_cols, n_wide);
    n_cols += n_wide;
    if (name_w + fixed > v->width)
        name_w = v->width - fixed > 8 ? v->width - fixed : 8;
    fputc('\n', out);
    table_head(out, v, &keys, cols, n_cols, name_w, n_w);
    for (size_t i = 0; i < n_rows; i++) {
        char *line = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&line, &len);
        if (!mem)
            break;
        table_row(mem, v, &rows[i], cols, n_cols, name_w, n_w);
        fclose(mem);
        if (len && line[len - 1] == '\n')
            len--;
        while (len && line[len - 1] == ' ')
            len--;
        fwrite(line, 1, len, out);
        fputc('\n', out);
        free(line);
    }
    if (answer)
        view_line(out, v, VIEW_DIM,
                  "answer: TTFT of the first answer token, after the "
                  "reasoning");
    if (intended)
        view_line(out, v, VIEW_DIM,
                  "intended: from the intended send time of the open-loop "
                  "schedule (queueing included)");
    if (cached)
        cached_note(out, set, v);
    for (size_t i = 0; i < n_rows; i++)
        buf_free(&rows[i].name);
    buf_free(&keys);
    free(rows);
    return cached;
}

/* Sessions (docs/workloads.md): what each cost its user, and per group
 * the input tokens the server found cached when the table had no room for
 * its cached column (per_group). Nothing without them. */
static void sessions_lines(FILE *out, const struct group_set *set,
                           const struct summary_view *v, bool per_group)
{
    const struct session_waits *w = &set->sessions;
    char a[24], b[24], c[24];
    struct buf line;
    buf_init(&line, 0);
    if (w->sessions && !w->complete) {
        buf_printf(&line,
                   "sessions: %llu (0 complete: each ended in a failed "
                   "turn), %.0f turns p50; no total wait per session (it "
                   "counts complete sessions only)",
                   (unsigned long long)w->sessions, w->turns_all.p50);
        view_line(out, v, VIEW_PLAIN, line.data);
    } else if (w->sessions) {
        text_fmt_num(a, sizeof a, w->wait_ms.p50 / 1000);
        text_fmt_num(b, sizeof b, w->wait_ms.p90 / 1000);
        text_fmt_num(c, sizeof c, w->wait_ms.max / 1000);
        buf_printf(&line,
                   "sessions: %llu (%llu complete), %.0f turns p50; total "
                   "wait per session (TTFT + generation over its turns) p50 "
                   "%s s, p90 %s s, max %s s",
                   (unsigned long long)w->sessions,
                   (unsigned long long)w->complete, w->turns.p50, a, b, c);
        view_line(out, v, VIEW_PLAIN, line.data);
    }
    for (size_t i = 0; per_group && i < set->n_groups; i++) {
        const struct group *g = set->groups[i];
        const struct stats_summary *ca = &g->sum[M_CACHED_TOKENS],
                                   *in = &g->sum[M_INPUT_TOKENS];
        if (ca->n == 0)
            continue;
        buf_reset(&line);
        buf_puts(&line, "cached input tokens:");
        for (size_t k = 0; k < g->n_keys; k++) {
            buf_puts(&line, k ? " / " : " ");
            view_put_name(&line, g->keys[k]); /* trace text: escaped */
        }
        text_fmt_num(a, sizeof a, ca->p50);
        text_fmt_num(b, sizeof b, in->p50);
        buf_printf(&line,
                   " p50 %s of %s input (%zu of %llu ok requests "
                   "said)",
                   a, b, ca->n, (unsigned long long)g->ok);
        view_line(out, v, VIEW_DIM, line.data);
    }
    buf_free(&line);
    if (per_group && any_cached(set))
        cached_note(out, set, v);
}

/* Exact lengths (--input-tokens): per group, the input tokens asked
 * against what the server counted. Nothing without them. */
static void exact_lines(FILE *out, const struct group_set *set,
                        const struct summary_view *v)
{
    char a[24], b[24], c[24], d[24];
    struct buf line;
    buf_init(&line, 0);
    for (size_t i = 0; i < set->n_groups; i++) {
        const struct group *g = set->groups[i];
        const struct stats_summary *asked = &g->sum[M_ASKED_INPUT_TOKENS],
                                   *in = &g->sum[M_INPUT_TOKENS],
                                   *e = &g->sum[M_INPUT_ERROR_PCT];
        if (asked->n == 0)
            continue;
        buf_reset(&line);
        buf_puts(&line, "input tokens asked:");
        for (size_t k = 0; k < g->n_keys; k++) {
            buf_puts(&line, k ? " / " : " ");
            view_put_name(&line, g->keys[k]); /* trace text: escaped */
        }
        snprintf(a, sizeof a, "%.0f", asked->p50);
        snprintf(b, sizeof b, "%.0f", in->p50);
        text_fmt_num(c, sizeof c, e->p50);
        text_fmt_num(d, sizeof d, e->p99);
        if (e->n)
            buf_printf(&line,
                       " p50 %s, achieved (usage) p50 %s, error p50 %s%%, "
                       "p99 %s%% (%zu requests)",
                       a, b, c, d, e->n);
        else
            buf_printf(&line,
                       " p50 %s, achieved unknown (the server reported no "
                       "usage)",
                       a);
        view_line(out, v, VIEW_DIM, line.data);
    }
    buf_free(&line);
}

int summary_write_compact(FILE *out, const struct group_set *set,
                          const struct summary_view *view)
{
    bool cached_column;
    header(out, set, view);
    cached_column = table(out, set, view);
    sessions_lines(out, set, view, !cached_column);
    exact_lines(out, set, view);
    summary_findings(out, set, view);
    return ferror(out) ? -1 : 0;
}
