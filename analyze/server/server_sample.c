/* server_sample: a scrape's kept lines into server-neutral quantities. */
#include "server_sample.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prom_text.h"

/* The table position of an entry: lower is preferred. */
static size_t rank_of(const struct server_metric *m)
{
    size_t n;
    const struct server_metric *t = server_metric_table(&n);
    return (size_t)(m - t);
}

static void hist_clear(struct server_hist *h)
{
    free(h->le);
    free(h->cum);
    memset(h, 0, sizeof *h);
}

/* Adds count to the bucket le of h (made when new, kept sorted). Returns 0
 * or -1 (out of memory, or too many buckets: the line is left out). */
static int hist_add_bucket(struct server_hist *h, double le, double count)
{
    size_t i = 0;
    while (i < h->n && h->le[i] < le)
        i++;
    if (i < h->n && h->le[i] == le) {
        h->cum[i] += count;
        return 0;
    }
    if (h->n == SERVER_MAX_BUCKETS)
        return -1;
    {
        double *le2 = realloc(h->le, (h->n + 1) * sizeof *le2), *c2;
        if (!le2)
            return -1;
        h->le = le2;
        c2 = realloc(h->cum, (h->n + 1) * sizeof *c2);
        if (!c2)
            return -1;
        h->cum = c2;
    }
    memmove(h->le + i + 1, h->le + i, (h->n - i) * sizeof *h->le);
    memmove(h->cum + i + 1, h->cum + i, (h->n - i) * sizeof *h->cum);
    h->le[i] = le;
    h->cum[i] = count;
    h->n++;
    return 0;
}

/* True when name[0, len) ends in suffix. */
static bool ends_with(const char *name, size_t len, const char *suffix)
{
    size_t n = strlen(suffix);
    return len > n && memcmp(name + len - n, suffix, n) == 0;
}

/* One sample line l of family m into s. */
static int take(struct server_sample *s, const struct server_metric *m,
                const struct prom_line *l)
{
    enum server_quantity q = m->quantity;
    if (s->src[q] && s->src[q] != m) {
        if (rank_of(m) > rank_of(s->src[q]))
            return 0; /* a family the table ranks lower: ignored */
        /* a preferred family after a lower one: it takes over */
        hist_clear(&s->hist[q]);
        s->value[q] = 0;
        s->has[q] = false;
    }
    s->src[q] = m;
    if (m->type == SMT_HISTOGRAM) {
        struct server_hist *h = &s->hist[q];
        if (ends_with(l->name, l->name_len, "_bucket")) {
            const struct prom_label *le = prom_label_get(l, "le");
            double bound;
            char *end;
            if (!le)
                return 0;
            bound = strtod(le->value, &end);
            if (end == le->value || *end)
                return 0;
            if (hist_add_bucket(h, bound, l->value))
                return -1;
        } else if (ends_with(l->name, l->name_len, "_sum")) {
            h->sum += l->value;
        } else if (ends_with(l->name, l->name_len, "_count")) {
            h->count += l->value;
        } else {
            return 0;
        }
        s->has[q] = true;
        return 0;
    }
    if (ends_with(l->name, l->name_len, "_created"))
        return 0;
    if (q == SQ_KV_USAGE) /* the fullest cache throttles */
        s->value[q] =
            s->has[q] && s->value[q] > l->value ? s->value[q] : l->value;
    else
        s->value[q] += l->value;
    s->has[q] = true;
    return 0;
}

int server_sample_parse(const char *text, size_t len, struct server_sample *out)
{
    static struct prom_line l; /* 8 KiB: not on the stack */
    const char *line;
    size_t pos = 0, n;
    int rc = 0;
    memset(out, 0, sizeof *out);
    out->start_ns = out->end_ns = -1;
    out->ok = true;
    while (prom_next_line(text, len, &pos, &line, &n)) {
        const struct server_metric *m;
        if (prom_parse_line(line, n, &l) != PROM_OK) {
            out->bad_lines++;
            continue;
        }
        if (l.kind != PROM_SAMPLE)
            continue;
        m = server_metric_find(l.name, l.name_len);
        if (m && take(out, m, &l))
            rc = -1;
    }
    return rc;
}

void server_sample_free(struct server_sample *s)
{
    if (!s)
        return;
    for (size_t q = 0; q < SQ_COUNT; q++)
        hist_clear(&s->hist[q]);
}

/* The series of url in sm, made when new; NULL out of memory. */
static struct server_series *series_of(struct server_metrics *sm,
                                       const char *url)
{
    struct server_series *p;
    for (size_t i = 0; i < sm->n; i++)
        if (strcmp(sm->series[i].url, url) == 0)
            return &sm->series[i];
    if (sm->n >= 64)
        return NULL;
    p = realloc(sm->series, (sm->n + 1) * sizeof *p);
    if (!p)
        return NULL;
    sm->series = p;
    p = &sm->series[sm->n];
    memset(p, 0, sizeof *p);
    p->url = strdup(url);
    p->server = strdup("");
    if (!p->url || !p->server) {
        free(p->url);
        free(p->server);
        return NULL;
    }
    sm->n++;
    return p;
}

int server_metrics_add(struct server_metrics *sm,
                       const struct trace_server_metrics *m)
{
    struct server_series *se = series_of(sm, m->url ? m->url : "");
    struct server_sample smp;
    if (!se)
        return -1;
    if (se->n == se->cap) {
        size_t cap = se->cap ? 2 * se->cap : 16;
        struct server_sample *p;
        if (cap > ((size_t)1 << 22))
            return -1;
        p = realloc(se->s, cap * sizeof *p);
        if (!p)
            return -1;
        se->s = p;
        se->cap = cap;
    }
    if (m->error_kind && m->error_kind[0]) {
        memset(&smp, 0, sizeof smp);
        if (!se->failed++)
            snprintf(se->first_error, sizeof se->first_error, "%s%s%s",
                     m->error_kind, m->error_message ? ": " : "",
                     m->error_message ? m->error_message : "");
    } else if (server_sample_parse(m->text ? m->text : "", m->text_len, &smp)) {
        server_sample_free(&smp);
        return -1;
    }
    smp.ok = !(m->error_kind && m->error_kind[0]);
    smp.start_ns = m->start_ns;
    smp.end_ns = m->end_ns;
    se->truncated += m->truncated;
    if (!se->server[0]) {
        for (size_t q = 0; q < SQ_COUNT; q++)
            if (smp.src[q]) {
                char *name = strdup(smp.src[q]->server);
                if (name) {
                    free(se->server);
                    se->server = name;
                }
                break;
            }
    }
    se->s[se->n++] = smp;
    return 0;
}

void server_metrics_free(struct server_metrics *sm)
{
    if (!sm)
        return;
    for (size_t i = 0; i < sm->n; i++) {
        struct server_series *se = &sm->series[i];
        for (size_t k = 0; k < se->n; k++)
            server_sample_free(&se->s[k]);
        free(se->s);
        free(se->url);
        free(se->server);
    }
    free(sm->series);
    sm->series = NULL;
    sm->n = 0;
}
