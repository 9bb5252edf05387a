/* share_trace: copies a trace record by record, filling the text of
 * request bodies and of each response's streamed bytes (one fill state per
 * request, so text cut across chunks is filled as if whole) and reducing
 * the header and the response headers (share.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "id_map.h"
#include "mp.h"
#include "share.h"
#include "share_fill.h"
#include "trace.h"

#define REMOVED "(removed by share)"

/* String values kept in replies and prompts: structure, not text. */
static const char *const reply_keep[] = {"model",        "id",
                                         "object",       "role",
                                         "type",         "finish_reason",
                                         "stop_reason",  "system_fingerprint",
                                         "service_tier", "status",
                                         "event",        NULL};
static const char *const prompt_keep[] = {
    "model",        "role", "type", "tool_choice", "reasoning_effort",
    "service_tier", NULL};

struct alias {
    char *name;
    char *alias; /* its own allocation: trees point at it while the
                    list grows */
};

struct share_ctx {
    const struct share_options *o;
    struct share_report *rep;
    struct trace_writer *w;
    struct id_map fills; /* request id -> struct share_fill (this trace) */
    struct buf scratch;
    struct alias *models, *labels;
    size_t n_models, n_labels;
};

static const char *const *reply_list(const struct share_ctx *c)
{
    return c->o->anonymize_models ? reply_keep + 1 : reply_keep;
}

static const char *const *prompt_list(const struct share_ctx *c)
{
    return c->o->anonymize_models ? prompt_keep + 1 : prompt_keep;
}

static void fills_clear(struct share_ctx *c)
{
    size_t n = c->fills.n;
    void **all = n ? malloc(n * sizeof(*all)) : NULL;
    if (all) {
        id_map_values(&c->fills, all);
        for (size_t i = 0; i < n; i++)
            free(all[i]);
        free(all);
    }
    id_map_free(&c->fills);
    id_map_init(&c->fills);
}

/* The alias of name in list ("model-1", "value-1", ...), made on first use.
 * Returns NULL when out of memory. */
static const char *alias_of(struct alias **list, size_t *n, const char *prefix,
                            const uint8_t *name, size_t len, unsigned *made)
{
    struct alias *p;
    for (size_t i = 0; i < *n; i++)
        if (strlen((*list)[i].name) == len &&
            memcmp((*list)[i].name, name, len) == 0)
            return (*list)[i].alias;
    p = realloc(*list, (*n + 1) * sizeof(*p));
    if (!p)
        return NULL;
    *list = p;
    p += *n;
    p->name = malloc(len + 1);
    p->alias = malloc(32);
    if (!p->name || !p->alias) {
        free(p->name);
        free(p->alias);
        return NULL;
    }
    memcpy(p->name, name, len);
    p->name[len] = '\0';
    snprintf(p->alias, 32, "%s-%zu", prefix, *n + 1);
    (*n)++;
    (*made)++;
    return p->alias;
}

static void set_str(struct mp_value *v, const char *s)
{
    v->type = MP_STR;
    v->n = (uint32_t)strlen(s);
    v->v.bytes = (const uint8_t *)s;
}

static bool key_is(const struct mp_value *k, const char *s)
{
    return mp_str_eq(k, s);
}

/* A model name, renamed with --anonymize-models. */
static int model_value(struct share_ctx *c, struct mp_value *v)
{
    const char *a;
    if (!c->o->anonymize_models || (v->type != MP_STR && v->type != MP_BIN))
        return 0;
    a = alias_of(&c->models, &c->n_models, "model", v->v.bytes, v->n,
                 &c->rep->models_renamed);
    if (!a)
        return TRACE_E_NOMEM;
    set_str(v, a);
    return 0;
}

/* Copies v's bytes into the scratch buffer at *off and fills them. */
static int fill_copy(struct share_ctx *c, struct mp_value *v,
                     const char *const *keep, uint64_t *bytes)
{
    struct share_fill f;
    char *p;
    buf_reset(&c->scratch);
    if (buf_extend(&c->scratch, v->n, &p) != BUF_OK)
        return TRACE_E_NOMEM;
    memcpy(p, v->v.bytes, v->n);
    share_fill_init(&f, keep);
    share_fill_run(&f, (uint8_t *)p, v->n);
    *bytes += f.filled;
    v->v.bytes = (const uint8_t *)p;
    return 0;
}

/* A copy of the record's root array and field map (items malloc'd into
 * *root_items and *map_items, extra free slots at the map's end). */
static int copy_record(const struct mp_value *raw, size_t extra,
                       struct mp_value *root, struct mp_value **map)
{
    const struct mp_value *m = &raw->v.items[1];
    struct mp_value *items = malloc(raw->n * sizeof(*items));
    struct mp_value *pairs = malloc((2 * (m->n + extra) + 1) * sizeof(*pairs));
    if (!items || !pairs) {
        free(items);
        free(pairs);
        return TRACE_E_NOMEM;
    }
    memcpy(items, raw->v.items, raw->n * sizeof(*items));
    memcpy(pairs, m->v.items, 2 * m->n * sizeof(*pairs));
    *root = *raw;
    root->v.items = items;
    items[1].v.items = pairs;
    *map = &items[1];
    return 0;
}

static void free_record(struct mp_value *root)
{
    free(root->v.items[1].v.items);
    free(root->v.items);
}

/* The last path component of a workload file name. */
static void workload_value(struct share_ctx *c, struct mp_value *v)
{
    const uint8_t *slash = NULL;
    if (v->type != MP_STR)
        return;
    for (uint32_t i = 0; i < v->n; i++)
        if (v->v.bytes[i] == '/')
            slash = v->v.bytes + i;
    if (slash) {
        v->n -= (uint32_t)(slash + 1 - v->v.bytes);
        v->v.bytes = slash + 1;
        c->rep->workload_paths++;
    }
}

static int anonymize_labels(struct share_ctx *c, struct mp_value *v,
                            struct mp_value **owned)
{
    struct mp_value *pairs;
    if (v->type != MP_MAP || v->n == 0)
        return 0;
    pairs = malloc(2 * v->n * sizeof(*pairs));
    if (!pairs)
        return TRACE_E_NOMEM;
    memcpy(pairs, v->v.items, 2 * v->n * sizeof(*pairs));
    for (uint32_t i = 0; i < v->n; i++) {
        struct mp_value *val = &pairs[2 * i + 1];
        const char *a;
        if (val->type != MP_STR)
            continue;
        a = alias_of(&c->labels, &c->n_labels, "value", val->v.bytes, val->n,
                     &c->rep->labels_renamed);
        if (!a) {
            free(pairs);
            return TRACE_E_NOMEM;
        }
        set_str(val, a);
    }
    v->v.items = pairs;
    *owned = pairs;
    return 0;
}

static int anonymize_models(struct share_ctx *c, struct mp_value *v,
                            struct mp_value **owned)
{
    struct mp_value *items;
    if (v->type != MP_ARRAY || v->n == 0)
        return 0;
    items = malloc(v->n * sizeof(*items));
    if (!items)
        return TRACE_E_NOMEM;
    memcpy(items, v->v.items, v->n * sizeof(*items));
    for (uint32_t i = 0; i < v->n; i++)
        if (model_value(c, &items[i])) {
            free(items);
            return TRACE_E_NOMEM;
        }
    v->v.items = items;
    *owned = items;
    return 0;
}

static int share_header(struct share_ctx *c, const struct mp_value *raw)
{
    static char shared_by[] = "tokentrace-analyze " TT_VERSION " share";
    struct mp_value root, *map, *p, *owned_models = NULL, *owned_labels = NULL;
    struct mp_value shared[10], shared_map;
    uint32_t n = 0;
    int rc;
    fills_clear(c);
    c->rep->traces++;
    rc = copy_record(raw, 1, &root, &map);
    if (rc)
        return rc;
    p = map->v.items;
    for (uint32_t i = 0; i < map->n && !rc; i++) {
        struct mp_value *k = &p[2 * i], *v = &p[2 * i + 1];
        if (key_is(k, "shared"))
            continue; /* written anew below */
        if (key_is(k, "version")) {
            v->type = MP_UINT;
            v->v.u = trace_writer_version(c->w);
        } else if (key_is(k, "host") && v->type == MP_STR) {
            set_str(v, REMOVED);
            c->rep->hosts++;
        } else if (key_is(k, "command_line") && v->type == MP_STR) {
            set_str(v, REMOVED);
            c->rep->command_lines++;
        } else if (key_is(k, "workload")) {
            workload_value(c, v);
        } else if (key_is(k, "models") && c->o->anonymize_models) {
            rc = anonymize_models(c, v, &owned_models);
        } else if (key_is(k, "labels") && c->o->anonymize_models) {
            rc = anonymize_labels(c, v, &owned_labels);
        }
        p[2 * n] = *k;
        p[2 * n + 1] = *v;
        n++;
    }
    set_str(&shared[0], "by");
    set_str(&shared[1], shared_by);
    set_str(&shared[2], "prompts");
    set_str(&shared[3], c->o->keep_prompts ? "kept" : "filled");
    set_str(&shared[4], "replies");
    set_str(&shared[5], "filled");
    set_str(&shared[6], "models");
    set_str(&shared[7], c->o->anonymize_models ? "anonymized" : "kept");
    set_str(&shared[8], "headers");
    set_str(&shared[9], "reduced");
    shared_map.type = MP_MAP;
    shared_map.n = 5;
    shared_map.v.items = shared;
    set_str(&p[2 * n], "shared");
    p[2 * n + 1] = shared_map;
    map->n = n + 1;
    if (!rc)
        rc = trace_write_tree(c->w, &root);
    free(owned_models);
    free(owned_labels);
    free_record(&root);
    return rc;
}

static int share_request(struct share_ctx *c, const struct trace_record *rec)
{
    struct mp_value root, *map;
    struct share_fill *f;
    int rc = copy_record(rec->raw, 0, &root, &map);
    if (rc)
        return rc;
    for (uint32_t i = 0; i < map->n && !rc; i++) {
        struct mp_value *k = &map->v.items[2 * i],
                        *v = &map->v.items[2 * i + 1];
        if (key_is(k, "model"))
            rc = model_value(c, v);
        else if (key_is(k, "body") && !c->o->keep_prompts &&
                 (v->type == MP_STR || v->type == MP_BIN)) {
            rc = fill_copy(c, v, prompt_list(c), &c->rep->prompt_bytes);
            c->rep->prompt_bodies++;
        }
    }
    if (!rc)
        rc = trace_write_tree(c->w, &root);
    free_record(&root);
    c->rep->requests++;
    /* a fresh fill for the response (an id seen twice starts over) */
    f = id_map_get(&c->fills, rec->u.request.id);
    if (!f) {
        f = malloc(sizeof(*f));
        if (!f || id_map_put(&c->fills, rec->u.request.id, f) != 0) {
            free(f);
            return TRACE_E_NOMEM;
        }
        c->rep->reply_bodies++;
    }
    share_fill_init(f, reply_list(c));
    return rc;
}

static int share_chunk(struct share_ctx *c, const struct trace_chunk *ch)
{
    struct share_fill *f = id_map_get(&c->fills, ch->request_id);
    char *p;
    if (!f) { /* bytes of a request without its record: fill them too */
        f = malloc(sizeof(*f));
        if (!f || id_map_put(&c->fills, ch->request_id, f) != 0) {
            free(f);
            return TRACE_E_NOMEM;
        }
        share_fill_init(f, reply_list(c));
        c->rep->reply_bodies++;
    }
    buf_reset(&c->scratch);
    if (buf_extend(&c->scratch, ch->len, &p) != BUF_OK)
        return TRACE_E_NOMEM;
    if (ch->len)
        memcpy(p, ch->data, ch->len);
    f->filled = 0;
    share_fill_run(f, (uint8_t *)p, ch->len);
    c->rep->reply_bytes += f->filled;
    c->rep->chunks++;
    return trace_write_chunk(c->w, ch->request_id, ch->t_ns, p, ch->len);
}

static void note_header_name(struct share_report *rep, const struct mp_value *k)
{
    for (size_t i = 0; i < rep->n_header_names; i++)
        if (mp_str_eq(k, rep->header_names[i]))
            return;
    if (rep->n_header_names == SHARE_MAX_NAMES)
        return;
    rep->header_names[rep->n_header_names] =
        strndup((const char *)k->v.bytes, k->n > 64 ? 64 : k->n);
    if (rep->header_names[rep->n_header_names])
        rep->n_header_names++;
}

static int share_result(struct share_ctx *c, const struct trace_record *rec)
{
    struct mp_value root, *map, *pairs = NULL;
    int rc = copy_record(rec->raw, 0, &root, &map);
    if (rc)
        return rc;
    for (uint32_t i = 0; i < map->n && !rc; i++) {
        struct mp_value *k = &map->v.items[2 * i],
                        *v = &map->v.items[2 * i + 1];
        uint32_t kept = 0;
        if (!key_is(k, "headers") || v->type != MP_MAP)
            continue;
        pairs = malloc((2 * (size_t)v->n + 1) * sizeof(*pairs));
        if (!pairs) {
            rc = TRACE_E_NOMEM;
            break;
        }
        for (uint32_t h = 0; h < v->n; h++) {
            const struct mp_value *hk = &v->v.items[2 * h];
            char name[80];
            size_t len = hk->type == MP_STR && hk->n < sizeof(name) ? hk->n : 0;
            memcpy(name, hk->v.bytes, len);
            name[len] = '\0';
            if (len && share_header_kept(name)) {
                pairs[2 * kept] = *hk;
                pairs[2 * kept + 1] = v->v.items[2 * h + 1];
                kept++;
            } else {
                c->rep->headers_dropped++;
                if (hk->type == MP_STR)
                    note_header_name(c->rep, hk);
            }
        }
        v->v.items = pairs;
        v->n = kept;
    }
    if (!rc)
        rc = trace_write_tree(c->w, &root);
    free(pairs);
    free_record(&root);
    free(id_map_get(&c->fills, rec->u.result.id));
    id_map_del(&c->fills, rec->u.result.id);
    return rc;
}

/* One record in, one record out. */
static int share_record(struct share_ctx *c, const struct trace_record *rec)
{
    c->rep->records++;
    switch (rec->kind) {
    case TRACE_HEADER:
        return share_header(c, rec->raw);
    case TRACE_REQUEST:
        return share_request(c, rec);
    case TRACE_CHUNK:
        return share_chunk(c, &rec->u.chunk);
    case TRACE_RESULT:
        return share_result(c, rec);
    case TRACE_FOOTER:
        return trace_write_tree(c->w, rec->raw);
    case TRACE_HANDED: /* tokentrace-proxy: ids and times only */
        return trace_write_tree(c->w, rec->raw);
    case TRACE_SERVER_METRICS:
        /* numbers, metric names and the URL (the endpoint is kept too);
         * but label values name the models, so not when they are hidden */
        if (c->o->anonymize_models) {
            c->rep->scrapes_dropped++;
            return 0;
        }
        c->rep->scrapes_kept++;
        return trace_write_tree(c->w, rec->raw);
    default:
        c->rep->unknown_records++;
        return rec->raw ? trace_write_tree(c->w, rec->raw) : 0;
    }
}

static bool same_file(const char *in, const char *out)
{
    struct stat a, b;
    if (strcmp(in, "-") == 0 || strcmp(out, "-") == 0)
        return false;
    return stat(in, &a) == 0 && stat(out, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

int share_trace(const char *in, const char *out, const struct share_options *o,
                struct share_report *rep, char *err, size_t err_size)
{
    struct share_ctx c;
    struct trace_reader *r = NULL;
    struct trace_record rec;
    int rc = 0, st;
    memset(rep, 0, sizeof(*rep));
    memset(&c, 0, sizeof(c));
    c.o = o;
    c.rep = rep;
    if (same_file(in, out)) {
        snprintf(err, err_size, "%s: the output is the input", out);
        return 2;
    }
    if (trace_reader_open(in, &r) != TRACE_OK) {
        snprintf(err, err_size, "%s: cannot open: %s", in, strerror(errno));
        return 2;
    }
    st = trace_writer_open(out, o->force, &c.w);
    if (st == TRACE_OK)
        trace_writer_want_digest(c.w);
    if (st == TRACE_OK && o->format_version)
        st = trace_writer_set_version(c.w, o->format_version);
    if (st == TRACE_OK && (o->compress || trace_path_compressed(out)))
        st = trace_writer_set_compression(c.w, TRACE_ZSTD_LEVEL);
    if (st != TRACE_OK) {
        snprintf(err, err_size, "%s: %s%s", out, trace_strerror(st),
                 st == TRACE_E_EXISTS ? " (--force replaces it)" : "");
        trace_writer_close(c.w);
        trace_reader_close(r);
        return 2;
    }
    id_map_init(&c.fills);
    buf_init(&c.scratch, TRACE_MAX_RECORD + 1);
    while ((st = trace_reader_next(r, &rec)) == 1) {
        int wr = share_record(&c, &rec);
        if (wr) {
            snprintf(err, err_size, "%s: %s", out, trace_strerror(wr));
            rc = 2;
            break;
        }
    }
    if (st < 0 && rc == 0) {
        rep->damage = strdup(trace_reader_error(r));
        rc = 1;
    }
    st = trace_writer_close_digest(c.w, rep->sha256);
    if (st != TRACE_OK && rc != 2) {
        snprintf(err, err_size, "%s: %s", out, trace_strerror(st));
        rc = 2;
    }
    trace_reader_close(r);
    fills_clear(&c);
    id_map_free(&c.fills);
    buf_free(&c.scratch);
    for (size_t i = 0; i < c.n_models; i++) {
        free(c.models[i].name);
        free(c.models[i].alias);
    }
    for (size_t i = 0; i < c.n_labels; i++) {
        free(c.labels[i].name);
        free(c.labels[i].alias);
    }
    free(c.models);
    free(c.labels);
    return rc;
}

void share_report_free(struct share_report *rep)
{
    if (!rep)
        return;
    for (size_t i = 0; i < rep->n_header_names; i++)
        free(rep->header_names[i]);
    free(rep->damage);
    memset(rep, 0, sizeof(*rep));
}
