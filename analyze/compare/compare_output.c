/* compare_output: the formats of `tokentrace-analyze compare`: an aligned
 * table, markdown for a pull request or bug report, and JSON. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "compare.h"
#include "doc_out.h"
#include "json_writer.h"
#include "printable.h"
#include "text_out.h"

static const char *const pct_names[3] = {"p50", "p90", "p99"};

/* Ends a table line: drops the padding after its last cell. */
static void end_line(struct buf *b)
{
    while (b->len > 0 && b->data[b->len - 1] == ' ')
        b->data[--b->len] = '\0';
    buf_puts(b, "\n");
}

static void fmt_ci(char *out, size_t size, const struct stats_ci *ci, bool has)
{
    char lo[32], hi[32];
    if (!has) {
        snprintf(out, size, "-");
        return;
    }
    text_fmt_signed(lo, sizeof(lo), ci->lo);
    text_fmt_signed(hi, sizeof(hi), ci->hi);
    snprintf(out, size, "[%s, %s]", lo, hi);
}

/* The verdict cell: "real, slower", "noise", "too few", "n/a". */
static void fmt_verdict(char *out, size_t size, enum compare_verdict v,
                        const struct stats_ci *ci, enum compare_metric m)
{
    if (v == VERDICT_REAL)
        snprintf(out, size, "real, %s",
                 ci->lo > 0 ? compare_metrics[m].up : compare_metrics[m].down);
    else
        snprintf(out, size, "%s", compare_verdict_name(v));
}

/* The row cells of percentile i of a cell. */
struct cells {
    char base[24], new_[24], diff[32], pct[32], ci[80], verdict[32];
};

static void fill_cells(struct cells *s, const struct compare_cell *c,
                       enum compare_metric m, int i)
{
    const double vb[3] = {c->base->p50, c->base->p90, c->base->p99};
    const double vn[3] = {c->new_->p50, c->new_->p90, c->new_->p99};
    text_fmt_num(s->base, sizeof(s->base), c->base->n ? vb[i] : NAN);
    text_fmt_num(s->new_, sizeof(s->new_), c->new_->n ? vn[i] : NAN);
    text_fmt_signed(s->diff, sizeof(s->diff), c->diff[i]);
    text_fmt_pct(s->pct, sizeof(s->pct), c->pct[i]);
    s->ci[0] = s->verdict[0] = '\0';
    if (i == 0) { /* the interval of the medians */
        fmt_ci(s->ci, sizeof(s->ci), &c->ci, c->has_ci);
        fmt_verdict(s->verdict, sizeof(s->verdict), c->verdict, &c->ci, m);
    } else if (i == 2) { /* the interval of the p99s */
        fmt_ci(s->ci, sizeof(s->ci), &c->ci99, c->has_ci99);
        fmt_verdict(s->verdict, sizeof(s->verdict), c->verdict99, &c->ci99, m);
    }
}

static void side_line(struct buf *b, const char *what,
                      const struct compare_side *s)
{
    unsigned long long req = s->set.overall.requests, ok = s->set.overall.ok,
                       stopped = s->set.overall.interrupted;
    buf_printf(b, "%s %s (%zu trace%s, %llu requests, %llu ok", what, s->file,
               s->set.n_traces, s->set.n_traces == 1 ? "" : "s", req, ok);
    /* as summary: the run was stopped while they streamed, not failed */
    if (stopped)
        buf_printf(b, ", %llu interrupted", stopped);
    buf_puts(b, ")");
}

static void only_lines(struct buf *b, const struct compare_result *r, bool md)
{
    char name[600];
    for (size_t i = 0; i < r->n_only_base + r->n_only_new; i++) {
        bool in_base = i < r->n_only_base;
        const struct group *g =
            in_base ? r->only_base[i] : r->only_new[i - r->n_only_base];
        compare_group_name(in_base ? &r->base->set : &r->new_->set, g, name,
                           sizeof(name));
        buf_puts(b, md ? "- only in " : "only in ");
        buf_puts(b, in_base ? "base: " : "new: ");
        if (md)
            md_put(b, name, 0);
        else
            printable_put(b, name);
        buf_puts(b, "\n");
    }
}

static void method_line(struct buf *b, uint64_t seed)
{
    buf_printf(b,
               "differences are new - base; %.0f%% CI: percentile bootstrap of "
               "the difference of medians, %u resamples, seed %llu "
               "(ITL: per-request median ITL)\n",
               COMPARE_LEVEL * 100, STATS_BOOTSTRAP_ITERATIONS,
               (unsigned long long)seed);
}

/* The lines that say a comparison cannot judge, or judges different
 * setups: table ("NO VERDICT: ...", "warning: ...") or markdown quotes. */
static void caveat_lines(struct buf *b, const struct compare_result *r, bool md)
{
    if (r->n_too_few) {
        unsigned long long n = r->needed_n > COMPARE_MIN_SAMPLES
                                   ? r->needed_n
                                   : COMPARE_MIN_SAMPLES;
        buf_printf(b,
                   "%sNO VERDICT%s for %zu of %zu group%s: fewer than %d "
                   "requests on a side; record each side with -n %llu or "
                   "more\n",
                   md ? "> **" : "", md ? "**" : "", r->n_too_few, r->n_pairs,
                   r->n_pairs == 1 ? "" : "s", COMPARE_MIN_SAMPLES, n);
    }
    for (int a = 0; a < COMPARE_ASPECTS; a++) {
        if (!r->aspect_differs[a])
            continue;
        buf_printf(b, "%s the sides differ in %s: base ",
                   md ? "> **Warning:**" : "warning:",
                   compare_aspect_name((enum compare_aspect)a));
        if (md)
            md_put(b, r->aspect_base[a], 0);
        else
            printable_put(b, r->aspect_base[a]);
        buf_puts(b, ", new ");
        if (md)
            md_put(b, r->aspect_new[a], 0);
        else
            printable_put(b, r->aspect_new[a]);
        buf_puts(b, " (compared all the same)\n");
    }
}

/* Writes b whole, or nothing and says why (doc_out); frees b. */
static int write_buf(FILE *out, struct buf *b, const char *what)
{
    int rc = doc_out_write(out, b, what);
    buf_free(b);
    return rc;
}

int compare_write_table(FILE *out, const struct compare_result *r, size_t n,
                        uint64_t seed, int width)
{
    struct buf b;
    char name[600], title[48];
    struct cells s;
    doc_out_init(&b);
    for (size_t k = 0; k < n; k++) {
        if (k)
            buf_puts(&b, "\n");
        compare_overall_line(&b, &r[k]);
        buf_puts(&b, "compare: ");
        side_line(&b, "base", r[k].base);
        buf_puts(&b, "\n    vs ");
        side_line(&b, "new", r[k].new_);
        buf_puts(&b, "\n");
        if (width > 0 && width < COMPARE_WIDE_AT) {
            compare_write_narrow(&b, &r[k], seed, width);
            goto only;
        }
        method_line(&b, seed);
        caveat_lines(&b, &r[k], false);
        compare_pctl_notes(&b, &r[k], 0, false);
        for (size_t i = 0; i < r[k].n_pairs; i++) {
            const struct compare_pair *p = &r[k].pairs[i];
            compare_group_name(p->set, p->base, name, sizeof(name));
            buf_puts(&b, "\n");
            printable_put(&b, name);
            buf_printf(&b, "   base %llu ok of %llu, new %llu ok of %llu\n",
                       (unsigned long long)p->base->ok,
                       (unsigned long long)p->base->requests,
                       (unsigned long long)p->new_->ok,
                       (unsigned long long)p->new_->requests);
            buf_printf(&b, "  %-23s %9s %9s %9s %7s  %-20s %s\n", "metric",
                       "base", "new", "diff", "%", "95% CI of diff", "verdict");
            for (int m = 0; m < CMP_COUNT; m++) {
                const struct compare_cell *c = &p->cell[m];
                snprintf(title, sizeof(title), "%s (%s)",
                         compare_metrics[m].title, compare_metrics[m].unit);
                for (int q = 0; q < 3; q++) {
                    fill_cells(&s, c, (enum compare_metric)m, q);
                    buf_printf(&b, "  %-19s %3s %9s %9s %9s %7s  %-20s %s",
                               q == 0 ? title : "", pct_names[q], s.base,
                               s.new_, s.diff, s.pct, s.ci, s.verdict);
                    end_line(&b);
                }
                compare_pctl_rows(&b, &r[k], p, m, COMPARE_ROW_WIDE);
            }
            buf_puts(&b, "  => ");
            printable_put(&b, name);
            buf_puts(&b, ":");
            compare_verdict_text(&b, p);
            buf_puts(&b, "\n");
            {
                struct buf w;
                buf_init(&w, 0);
                if (compare_waterfall_line(&w, p) && w.data) {
                    buf_puts(&b, "  where: ");
                    buf_puts(&b, w.data);
                    buf_puts(&b, "\n");
                }
                buf_set_error(&b, buf_error(&w));
                buf_free(&w);
            }
        }
    only:
        if (r[k].n_only_base + r[k].n_only_new)
            buf_puts(&b, "\n");
        only_lines(&b, &r[k], false);
    }
    return write_buf(out, &b, "compare");
}

int compare_write_markdown(FILE *out, const struct compare_result *r, size_t n,
                           uint64_t seed)
{
    struct buf b;
    char name[600];
    struct cells s;
    doc_out_init(&b);
    for (size_t k = 0; k < n; k++) {
        buf_puts(&b,
                 k ? "\n## tokentrace compare: " : "## tokentrace compare: ");
        md_put(&b, r[k].base->file, 0);
        buf_puts(&b, " vs ");
        md_put(&b, r[k].new_->file, 0);
        buf_puts(&b, "\n\n");
        struct buf line;
        buf_init(&line, 0);
        side_line(&line, "base", r[k].base);
        buf_puts(&line, "; ");
        side_line(&line, "new", r[k].new_);
        md_put(&b, line.data ? line.data : "", 0);
        buf_set_error(&b, buf_error(&line)); /* a hole in b too */
        buf_free(&line);
        buf_puts(&b, "\n\n");
        method_line(&b, seed);
        if (r[k].n_too_few || r[k].aspect_differs[0] ||
            r[k].aspect_differs[1] || r[k].aspect_differs[2] || r[k].n_pctl) {
            buf_puts(&b, "\n");
            caveat_lines(&b, &r[k], true);
            compare_pctl_notes(&b, &r[k], 0, true);
        }
        for (size_t i = 0; i < r[k].n_pairs; i++) {
            const struct compare_pair *p = &r[k].pairs[i];
            compare_group_name(p->set, p->base, name, sizeof(name));
            buf_puts(&b, "\n### ");
            md_put(&b, name, 0);
            buf_puts(&b,
                     "\n\n| metric | | base | new | diff | % | 95% CI of diff "
                     "| verdict |\n|---|---|--:|--:|--:|--:|---|---|\n");
            for (int m = 0; m < CMP_COUNT; m++) {
                for (int q = 0; q < 3; q++) {
                    fill_cells(&s, &p->cell[m], (enum compare_metric)m, q);
                    if (q == 0)
                        buf_printf(&b, "| %s (%s) ", compare_metrics[m].title,
                                   compare_metrics[m].unit);
                    else
                        buf_puts(&b, "| ");
                    buf_printf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n",
                               pct_names[q], s.base, s.new_, s.diff, s.pct,
                               s.ci, s.verdict);
                }
                compare_pctl_rows(&b, &r[k], p, m, COMPARE_ROW_MARKDOWN);
            }
            buf_puts(&b, "\n**Verdict:** ");
            md_put(&b, name, 0);
            buf_puts(&b, ":");
            compare_verdict_text(&b, p);
            buf_puts(&b, "\n");
        }
        if (r[k].n_only_base + r[k].n_only_new)
            buf_puts(&b, "\n");
        only_lines(&b, &r[k], true);
    }
    return write_buf(out, &b, "compare --format markdown");
}

static void json_side(struct buf *b, const struct compare_side *s)
{
    buf_puts(b, "{\"file\":");
    json_put_cstr(b, s->file);
    buf_printf(
        b, ",\"requests\":%llu,\"ok\":%llu,\"interrupted\":%llu,\"traces\":[",
        (unsigned long long)s->set.overall.requests,
        (unsigned long long)s->set.overall.ok,
        (unsigned long long)s->set.overall.interrupted);
    for (size_t i = 0; i < s->set.n_traces; i++) {
        const struct trace_info *t = s->set.traces[i];
        char when[40];
        buf_puts(b, i ? ",{\"trace_id\":" : "{\"trace_id\":");
        json_put_cstr(b, t->trace_id);
        buf_puts(b, ",\"started\":");
        json_put_cstr(
            b, t->real_zero_ns > 0
                   ? clock_format_utc(t->real_zero_ns, when, sizeof(when))
                   : NULL);
        buf_printf(b, ",\"complete\":%s,\"damage\":",
                   t->has_footer && !t->damage ? "true" : "false");
        json_put_cstr(b, t->damage);
        buf_puts(b, "}");
    }
    buf_puts(b, "]}");
}

static void json_pcts(struct buf *b, const char *key, const double v[3],
                      bool defined)
{
    buf_printf(b, ",\"%s\":{", key);
    for (int q = 0; q < 3; q++) {
        buf_printf(b, "%s\"%s\":", q ? "," : "", pct_names[q]);
        json_put_double(b, defined ? v[q] : NAN);
    }
    buf_puts(b, "}");
}

static void json_cell(struct buf *b, const struct compare_cell *c,
                      enum compare_metric m)
{
    const double vb[3] = {c->base->p50, c->base->p90, c->base->p99};
    const double vn[3] = {c->new_->p50, c->new_->p90, c->new_->p99};
    buf_printf(b, "\"%s\":{\"unit\":\"%s\",\"n_base\":%zu,\"n_new\":%zu",
               compare_metrics[m].key, compare_metrics[m].unit, c->base->n,
               c->new_->n);
    json_pcts(b, "base", vb, c->base->n > 0);
    json_pcts(b, "new", vn, c->new_->n > 0);
    json_pcts(b, "diff", c->diff, true);
    json_pcts(b, "diff_pct", c->pct, true);
    buf_puts(b, ",\"median_diff_ci\":");
    if (!c->has_ci) {
        buf_puts(b, "null");
    } else {
        buf_puts(b, "{\"estimate\":");
        json_put_double(b, c->ci.estimate);
        buf_puts(b, ",\"lo\":");
        json_put_double(b, c->ci.lo);
        buf_puts(b, ",\"hi\":");
        json_put_double(b, c->ci.hi);
        buf_printf(
            b, ",\"samples_base\":%zu,\"samples_new\":%zu,\"samples\":\"%s\"}",
            c->n_base, c->n_new,
            m == CMP_ITL ? "per_request_median_itl" : "per_request");
    }
    buf_printf(b, ",\"verdict\":\"%s\"", compare_verdict_name(c->verdict));
    if (c->verdict == VERDICT_REAL)
        buf_printf(b, ",\"direction\":\"%s\"",
                   c->ci.lo > 0 ? compare_metrics[m].up
                                : compare_metrics[m].down);
    /* the p99's own interval and verdict (issue 32) */
    buf_puts(b, ",\"p99_diff_ci\":");
    if (!c->has_ci99) {
        buf_puts(b, "null");
    } else {
        buf_puts(b, "{\"estimate\":");
        json_put_double(b, c->ci99.estimate);
        buf_puts(b, ",\"lo\":");
        json_put_double(b, c->ci99.lo);
        buf_puts(b, ",\"hi\":");
        json_put_double(b, c->ci99.hi);
        buf_puts(b, "}");
    }
    buf_printf(b, ",\"verdict_p99\":\"%s\"",
               compare_verdict_name(c->verdict99));
    if (c->verdict99 == VERDICT_REAL)
        buf_printf(b, ",\"direction_p99\":\"%s\"",
                   c->ci99.lo > 0 ? compare_metrics[m].up
                                  : compare_metrics[m].down);
    buf_puts(b, "}");
}

/* A group's keys as members named by their dimension ("model":…,
 * "class":… by default; "turn":"3" with --by turn). */
static void json_keys(struct buf *b, const struct group_set *set,
                      const struct group *g)
{
    for (size_t i = 0; i < g->n_keys; i++) {
        char tmp[64];
        buf_puts(b, i ? "," : "");
        json_put_cstr(b, group_dim_name(set, i, tmp, sizeof tmp));
        buf_puts(b, ":");
        json_put_cstr(b, g->keys[i]);
    }
}

/* Pair i of r as a JSON object. */
static void json_pair(struct buf *b, const struct compare_result *r, size_t i)
{
    const struct compare_pair *p = &r->pairs[i];
    struct buf v;
    buf_puts(b, "{");
    json_keys(b, p->set, p->base);
    buf_printf(
        b,
        ",\"base\":{\"requests\":%llu,\"ok\":%llu},"
        "\"new\":{\"requests\":%llu,\"ok\":%llu},\"metrics\":{",
        (unsigned long long)p->base->requests, (unsigned long long)p->base->ok,
        (unsigned long long)p->new_->requests, (unsigned long long)p->new_->ok);
    for (int m = 0; m < CMP_COUNT; m++) {
        if (m)
            buf_puts(b, ",");
        json_cell(b, &p->cell[m], (enum compare_metric)m);
    }
    buf_puts(b, "}");
    compare_pctl_json_pair(b, r, i);
    buf_init(&v, 0);
    compare_verdict_line(&v, p);
    buf_puts(b, ",\"verdict\":");
    json_put_cstr(b, v.data ? v.data : "");
    buf_reset(&v);
    if (compare_waterfall_line(&v, p) && v.data) {
        buf_puts(b, ",\"waterfall\":");
        json_put_cstr(b, v.data);
    }
    buf_set_error(b, buf_error(&v)); /* a hole in b too */
    buf_free(&v);
    buf_puts(b, "}");
}

static void json_only(struct buf *b, const char *key,
                      const struct group_set *set, const struct group **g,
                      size_t n)
{
    buf_printf(b, ",\"%s\":[", key);
    for (size_t i = 0; i < n; i++) {
        buf_puts(b, i ? ",{" : "{");
        json_keys(b, set, g[i]);
        buf_puts(b, "}");
    }
    buf_puts(b, "]");
}

int compare_write_json(FILE *out, const struct compare_result *r, size_t n,
                       uint64_t seed, const char *shard_check)
{
    struct buf b;
    doc_out_init(&b);
    buf_printf(
        &b,
        "{\"tool\":\"tokentrace\",\"schema\":1,\"command\":\"compare\","
        "\"method\":{\"interval\":\"percentile bootstrap of median(new) - "
        "median(base)\",\"level\":%.2f,\"iterations\":%u,\"seed\":%llu,"
        "\"min_samples\":%d},\"base\":",
        COMPARE_LEVEL, STATS_BOOTSTRAP_ITERATIONS, (unsigned long long)seed,
        COMPARE_MIN_SAMPLES);
    if (n > 0)
        json_side(&b, r[0].base);
    else
        buf_puts(&b, "null");
    buf_puts(&b, ",\"comparisons\":[");
    for (size_t k = 0; k < n; k++) {
        buf_puts(&b, k ? ",{\"new\":" : "{\"new\":");
        json_side(&b, r[k].new_);
        buf_puts(&b, ",\"groups\":[");
        for (size_t i = 0; i < r[k].n_pairs; i++) {
            if (i)
                buf_puts(&b, ",");
            json_pair(&b, &r[k], i);
        }
        buf_puts(&b, "]");
        json_only(&b, "only_in_base", &r[k].base->set, r[k].only_base,
                  r[k].n_only_base);
        json_only(&b, "only_in_new", &r[k].new_->set, r[k].only_new,
                  r[k].n_only_new);
        /* the -n that would give a verdict; what the sides ran */
        buf_printf(
            &b, ",\"too_few\":{\"groups\":%zu,\"needed_n\":", r[k].n_too_few);
        if (r[k].n_too_few)
            buf_printf(&b, "%llu}",
                       r[k].needed_n > COMPARE_MIN_SAMPLES
                           ? r[k].needed_n
                           : (unsigned long long)COMPARE_MIN_SAMPLES);
        else
            buf_puts(&b, "null}");
        buf_printf(&b,
                   ",\"too_few_p99\":{\"groups\":%zu,\"min_samples\":%zu,"
                   "\"needed_n\":",
                   r[k].n_too_few_p99, compare_min_samples(99));
        if (r[k].n_too_few_p99)
            buf_printf(&b, "%llu}", r[k].needed_n_p99);
        else
            buf_puts(&b, "null}");
        compare_pctl_json_result(&b, &r[k]);
        buf_puts(&b, ",\"setup\":{");
        for (int a = 0; a < COMPARE_ASPECTS; a++) {
            static const char *const keys[COMPARE_ASPECTS] = {"api", "load",
                                                              "workload"};
            buf_printf(&b, "%s\"%s\":{\"base\":", a ? "," : "", keys[a]);
            json_put_cstr(&b, r[k].aspect_base[a]);
            buf_puts(&b, ",\"new\":");
            json_put_cstr(&b, r[k].aspect_new[a]);
            buf_printf(&b, ",\"differs\":%s}",
                       r[k].aspect_differs[a] ? "true" : "false");
        }
        buf_puts(&b, "}");
        buf_puts(&b, "}");
    }
    buf_puts(&b, "]");
    if (shard_check)
        buf_printf(&b, ",\"shard_check\":%s", shard_check);
    buf_puts(&b, "}\n");
    return write_buf(out, &b, "compare --format json");
}
