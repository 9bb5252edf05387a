/* workload_captured: reads a trace's request records into a workload of
 * captured sessions and single requests. */
#define _GNU_SOURCE /* memmem */
#include "workload_captured.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "trace_input.h"

/* Requests read from one capture at most. */
#define MAX_CAPTURED ((size_t)1 << 20)

struct captured {
    unsigned trace;
    uint32_t id, session, turn;
    int64_t think_ns;
    char *body;
    size_t len;
    char *class_name;
    int64_t max_tokens;
    size_t order; /* place in the file */
};

struct loader {
    const char *path;
    const char *api;
    struct captured *v;
    size_t n, cap;
    char **header_api; /* per trace index: its header's api (owned) */
    size_t n_header_api;
    char *err;
    size_t errlen;
};

bool workload_is_trace_file(const char *path)
{
    unsigned char b[24];
    size_t n;
    FILE *f;
    if (!path || strcmp(path, "-") == 0 || !(f = fopen(path, "rb")))
        return false;
    n = fread(b, 1, sizeof b, f);
    fclose(f);
    if (n >= 4 && memcmp(b, TRACE_ZSTD_MAGIC, 4) == 0)
        return true;
    /* [1, {"format": "tokentrace"...}]: a fixarray of 2 to 5, kind 1, a
     * map, the "format" key */
    return n >= 12 && b[0] >= 0x92 && b[0] <= 0x95 && b[1] == 0x01 &&
           memmem(b, n,
                  "\xa6"
                  "format",
                  7) != NULL;
}

static int fail(struct loader *l, int rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(struct loader *l, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->err, l->errlen, fmt, ap);
    va_end(ap);
    return rc;
}

/* The max_tokens a captured body asks for, -1 when none (or not JSON). */
static int64_t body_max_tokens(const cJSON *root)
{
    static const char *const names[] = {"max_tokens", "max_completion_tokens",
                                        "max_output_tokens"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, names[i]);
        if (cJSON_IsNumber(v) && v->valuedouble >= 1 && v->valuedouble < 1e15)
            return (int64_t)v->valuedouble;
    }
    return -1;
}

static int keep_header_api(struct loader *l, const struct trace_record *r)
{
    char **p;
    unsigned i = r->trace_index;
    if (i >= 4096)
        return 0;
    if (i >= l->n_header_api) {
        p = realloc(l->header_api, (i + 1) * sizeof *p);
        if (!p)
            return WORKLOAD_E_NOMEM;
        memset(p + l->n_header_api, 0, (i + 1 - l->n_header_api) * sizeof *p);
        l->header_api = p;
        l->n_header_api = i + 1;
    }
    free(l->header_api[i]);
    l->header_api[i] = strdup(r->u.header.api ? r->u.header.api : "");
    return l->header_api[i] ? 0 : WORKLOAD_E_NOMEM;
}

/* One request record: kept, skipped (another API, a retry) or refused. */
static int keep_request(struct loader *l, const struct trace_record *r,
                        struct workload *wl)
{
    const struct trace_request *q = &r->u.request;
    const char *api = q->api;
    struct captured *c;
    cJSON *root;
    if (!api && r->trace_index < l->n_header_api)
        api = l->header_api[r->trace_index];
    if (q->retry_of || q->attempt >= 2)
        return 0;
    if (api && api[0] && strcmp(api, l->api) != 0) {
        wl->skipped++;
        return 0;
    }
    if (!q->body)
        return fail(l, WORKLOAD_E_INVALID,
                    "%s: byte %llu: request %u has no body (captured with "
                    "--no-content): nothing to send",
                    l->path, (unsigned long long)r->offset, (unsigned)q->id);
    root = cJSON_ParseWithLength(q->body, q->body_len);
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return fail(l, WORKLOAD_E_INVALID,
                    "%s: byte %llu: request %u: the body is not a JSON object",
                    l->path, (unsigned long long)r->offset, (unsigned)q->id);
    }
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        struct captured *p;
        if (l->n >= MAX_CAPTURED) {
            cJSON_Delete(root);
            return fail(l, WORKLOAD_E_INVALID,
                        "%s: more than %zu requests to replay", l->path,
                        MAX_CAPTURED);
        }
        p = realloc(l->v, cap * sizeof *p);
        if (!p) {
            cJSON_Delete(root);
            return WORKLOAD_E_NOMEM;
        }
        l->v = p;
        l->cap = cap;
    }
    c = &l->v[l->n];
    memset(c, 0, sizeof *c);
    c->trace = r->trace_index;
    c->id = q->id;
    c->session = q->session;
    c->turn = q->turn;
    c->think_ns = q->think_ns > 0 ? q->think_ns : -1;
    c->max_tokens = body_max_tokens(root);
    cJSON_Delete(root);
    c->order = l->n;
    c->body = malloc(q->body_len + 1);
    c->class_name =
        strdup(q->class_name && q->class_name[0] ? q->class_name : "captured");
    if (!c->body || !c->class_name) {
        free(c->body);
        free(c->class_name);
        return WORKLOAD_E_NOMEM;
    }
    memcpy(c->body, q->body, q->body_len);
    c->body[q->body_len] = '\0';
    c->len = q->body_len;
    l->n++;
    return 0;
}

/* Per trace: its single requests first (in file order), then its
 * sessions by id (the order they began in), each one's turns by turn
 * index. */
static int by_session(const void *a, const void *b)
{
    const struct captured *x = a, *y = b;
    if (x->trace != y->trace)
        return x->trace < y->trace ? -1 : 1;
    if (x->session != y->session)
        return x->session < y->session ? -1 : 1;
    if (x->turn != y->turn)
        return x->turn < y->turn ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Items of session run v[0..n) (one item; n == 1 without a session). */
static int add_item(struct workload *wl, struct captured *v, size_t n)
{
    struct workload_item it;
    int rc;
    memset(&it, 0, sizeof it);
    it.index = v[0].id;
    it.max_tokens = v[0].max_tokens;
    it.input_tokens_est = (int64_t)(v[n - 1].len / 4);
    if (!v[0].session) {
        it.body = v[0].body;
        it.body_len = v[0].len;
        v[0].body = NULL;
    } else {
        struct workload_session *s = calloc(1, sizeof *s);
        if (!s || !(s->turns = calloc(n, sizeof *s->turns))) {
            free(s);
            return WORKLOAD_E_NOMEM;
        }
        s->n_turns = n;
        for (size_t i = 0; i < n; i++) {
            s->turns[i].body = v[i].body;
            s->turns[i].body_len = v[i].len;
            s->turns[i].think_ns = i ? v[i].think_ns : -1;
            s->turns[i].captured_id = v[i].id;
            s->turns[i].input_chars = (int64_t)v[i].len;
            v[i].body = NULL;
        }
        it.session = s;
    }
    rc = workload_add(wl, v[0].class_name, &it);
    if (rc) {
        free(it.body);
        workload_session_free(it.session);
    }
    return rc;
}

static int build(struct loader *l, struct workload *wl)
{
    size_t i = 0;
    qsort(l->v, l->n, sizeof *l->v, by_session);
    while (i < l->n) {
        size_t j = i + 1;
        int rc;
        if (l->v[i].session)
            while (j < l->n && j - i < WORKLOAD_SESSION_MAX_TURNS &&
                   l->v[j].trace == l->v[i].trace &&
                   l->v[j].session == l->v[i].session)
                j++;
        rc = add_item(wl, &l->v[i], j - i);
        if (rc)
            return rc;
        i = j;
    }
    return 0;
}

int workload_load_captured(const char *path, const char *api,
                           struct workload *wl, char *err, size_t errlen)
{
    struct loader l = {path, api, NULL, 0, 0, NULL, 0, err, errlen};
    struct trace_reader *r = NULL;
    struct trace_record rec;
    int got, rc = 0;
    memset(wl, 0, sizeof *wl);
    wl->name = strdup(path);
    wl->format = WORKLOAD_FORMAT_CAPTURED;
    if (!wl->name)
        return WORKLOAD_E_NOMEM;
    if (trace_reader_open(path, &r) != 0)
        return fail(&l, WORKLOAD_E_IO, "cannot read the captured trace %s",
                    path);
    while (!rc && (got = trace_reader_next(r, &rec)) == 1) {
        if (rec.kind == TRACE_HEADER)
            rc = keep_header_api(&l, &rec);
        else if (rec.kind == TRACE_REQUEST)
            rc = keep_request(&l, &rec, wl);
    }
    if (!rc && got < 0)
        rc = fail(&l, WORKLOAD_E_INVALID, "%s", trace_reader_error(r));
    trace_reader_close(r);
    if (!rc)
        rc = build(&l, wl);
    if (!rc && wl->n_classes == 0)
        rc = fail(&l, WORKLOAD_E_INVALID,
                  "%s: no %s requests with a body in the captured trace%s",
                  path, api, wl->skipped ? " (others skipped: try --api)" : "");
    if (rc == WORKLOAD_E_NOMEM)
        fail(&l, rc, "out of memory reading %s", path);
    for (size_t i = 0; i < l.n; i++) {
        free(l.v[i].body);
        free(l.v[i].class_name);
    }
    free(l.v);
    for (size_t i = 0; i < l.n_header_api; i++)
        free(l.header_api[i]);
    free(l.header_api);
    return rc;
}
