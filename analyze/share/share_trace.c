/* share_trace: copies a trace record by record, filling the text of
 * request bodies and of each response's streamed bytes (one fill state per
 * request, so text cut across chunks is filled as if whole) and reducing
 * the header and the response headers (share.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "error_kinds.h"
#include "share_ctx.h"
#include "trace.h"

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

/* String members of requests and results that are no user data. */
static const char *const request_strings[] = {"request_id", "api", "compaction",
                                              NULL};
static const char *const result_strings[] = {"error_kind", "content_type",
                                             NULL};

static int share_request(struct share_ctx *c, const struct trace_record *rec)
{
    struct mp_value root, *map;
    struct share_fill *f;
    int rc = share_copy_record(rec->raw, 0, &root, &map);
    if (rc)
        return rc;
    for (uint32_t i = 0; i < map->n && !rc; i++) {
        struct mp_value *k = &map->v.items[2 * i],
                        *v = &map->v.items[2 * i + 1];
        if (mp_str_eq(k, "model"))
            rc = share_model_value(c, v);
        else if (mp_str_eq(k, "class"))
            rc = share_class_value(c, v);
        else if (mp_str_eq(k, "body") && !c->o->keep_prompts &&
                 (v->type == MP_STR || v->type == MP_BIN)) {
            rc = share_fill_copy(c, v, &c->prompt, &c->rep->prompt_bytes);
            if (!rc)
                share_fill_body_names(c, (uint8_t *)v->v.bytes, v->n);
            c->rep->prompt_bodies++;
        } else if (!mp_str_eq(k, "body")) {
            rc = share_other_string(c, k, v, request_strings);
        }
    }
    if (!rc)
        rc = trace_write_tree(c->w, &root);
    share_release(c);
    share_free_record(&root);
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
    share_fill_init(f, &c->reply);
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
        share_fill_init(f, &c->reply);
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

/* The error kinds whose message is the recorder's or libcurl's own words,
 * never the server's bytes. */
static bool own_words(const char *kind)
{
    static const char *const kinds[] = {ERROR_KIND_RESET,
                                        ERROR_KIND_TIMEOUT,
                                        ERROR_KIND_IDLE_TIMEOUT,
                                        ERROR_KIND_CONNECT,
                                        ERROR_KIND_DNS,
                                        ERROR_KIND_TLS,
                                        ERROR_KIND_INTERRUPTED,
                                        ERROR_KIND_WRITE,
                                        ERROR_KIND_TRANSFER,
                                        ERROR_KIND_CLIENT_CANCELLED,
                                        ERROR_KIND_OVERSIZED_EVENT,
                                        NULL};
    for (const char *const *k = kinds; kind && *k; k++)
        if (strcmp(kind, *k) == 0)
            return true;
    return false;
}

/* A result's error_message that may quote the server (an HTTP error, an
 * error in the stream, a page): filled but for the recorder's own
 * "HTTP NNN" or "the stream carried an error" at its start. */
static int error_message(struct share_ctx *c, const struct trace_record *rec,
                         struct mp_value *v)
{
    static const char *const heads[] = {"the stream carried an error", NULL};
    struct share_fill f;
    uint32_t head = 0;
    char *p;
    if (c->o->keep_errors || (v->type != MP_STR && v->type != MP_BIN) ||
        own_words(rec->u.result.error_kind))
        return 0;
    if (v->n >= 8 && memcmp(v->v.bytes, "HTTP ", 5) == 0)
        head = 8;
    for (const char *const *h = heads; *h; h++)
        if (v->n >= strlen(*h) && memcmp(v->v.bytes, *h, strlen(*h)) == 0)
            head = (uint32_t)strlen(*h);
    buf_reset(&c->scratch);
    if (buf_extend(&c->scratch, v->n, &p) != BUF_OK)
        return TRACE_E_NOMEM;
    memcpy(p, v->v.bytes, v->n);
    share_fill_init(&f, &c->all);
    share_fill_run(&f, (uint8_t *)p + head, v->n - head);
    c->rep->error_bytes += f.filled;
    c->rep->error_messages++;
    v->v.bytes = (const uint8_t *)p;
    return 0;
}

static int share_result(struct share_ctx *c, const struct trace_record *rec)
{
    struct mp_value root, *map, *pairs = NULL;
    int rc = share_copy_record(rec->raw, 0, &root, &map);
    if (rc)
        return rc;
    for (uint32_t i = 0; i < map->n && !rc; i++) {
        struct mp_value *k = &map->v.items[2 * i],
                        *v = &map->v.items[2 * i + 1];
        uint32_t kept = 0;
        if (mp_str_eq(k, "error_message"))
            rc = error_message(c, rec, v);
        else if (!mp_str_eq(k, "headers"))
            rc = share_other_string(c, k, v, result_strings);
        if (!mp_str_eq(k, "headers") || v->type != MP_MAP)
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
                /* the model's name (OpenAI's openai-model) */
                if (strcmp(name, "openai-model") == 0 &&
                    share_model_value(c, &pairs[2 * kept + 1]))
                    rc = TRACE_E_NOMEM;
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
    share_release(c);
    share_free_record(&root);
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
        fills_clear(c);
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
    case TRACE_STAGE:  /* a sweep stage: numbers, its mode and verdict */
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
    default: /* a newer kind: its text can't be told from its numbers */
        c->rep->unknown_records++;
        return 0;
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
    int rc = 0, st, open_errno;
    memset(rep, 0, sizeof(*rep));
    memset(&c, 0, sizeof(c));
    c.o = o;
    c.rep = rep;
    share_ctx_rules(&c);
    if (same_file(in, out)) {
        snprintf(err, err_size, "%s: the output is the input", out);
        return 2;
    }
    if (trace_reader_open(in, &r) != TRACE_OK) {
        snprintf(err, err_size, "%s: cannot open: %s", in, strerror(errno));
        return 2;
    }
    st = trace_writer_open(out, o->force, &c.w);
    open_errno = errno;
    if (st == TRACE_OK)
        trace_writer_want_digest(c.w);
    if (st == TRACE_OK && o->format_version)
        st = trace_writer_set_version(c.w, o->format_version);
    if (st == TRACE_OK && (o->compress || trace_path_compressed(out)))
        st = trace_writer_set_compression(c.w, TRACE_ZSTD_LEVEL);
    if (st != TRACE_OK) {
        trace_open_error(err, err_size, out, st, open_errno);
        trace_writer_close(c.w);
        trace_reader_close(r);
        return 2;
    }
    id_map_init(&c.fills);
    buf_init(&c.scratch, TRACE_MAX_RECORD + 1);
    while ((st = trace_reader_next(r, &rec)) == 1) {
        int wr = share_record(&c, &rec);
        if (wr) {
            snprintf(err, err_size, "cannot write %s: %s", out,
                     trace_io_strerror(wr, trace_writer_errno(c.w)));
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
        snprintf(err, err_size, "cannot write %s: %s", out,
                 trace_io_strerror(st, errno));
        rc = 2;
    }
    trace_reader_close(r);
    fills_clear(&c);
    id_map_free(&c.fills);
    buf_free(&c.scratch);
    share_ctx_free(&c);
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
