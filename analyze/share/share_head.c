/* share_head: the shared copy of a trace header: host and command line
 * removed, directories cut from file names, the run options' user data
 * (--extra-body, a workload's class names) filled or renamed, model names
 * and label values renamed with --anonymize-models, also in an Azure
 * deployment URL (share_ctx.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "share_ctx.h"
#include "trace.h"

#define MAX_OWNED 64

/* Allocations the written header points into, freed after it is written. */
struct owned {
    void *p[MAX_OWNED];
    size_t n;
};

static void *own(struct owned *o, void *p)
{
    if (!p || o->n == MAX_OWNED) {
        free(p);
        return NULL;
    }
    o->p[o->n++] = p;
    return p;
}

/* The last path component of a file name (the directory says who ran it). */
static void base_name(struct share_ctx *c, struct mp_value *v)
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

/* Renames the deployment in ".../deployments/NAME/..." (Azure OpenAI: it
 * is the model's name) with --anonymize-models. */
static int deployment_url(struct share_ctx *c, struct mp_value *v,
                          struct owned *o)
{
    static const char seg[] = "/deployments/";
    const uint8_t *b = v->v.bytes, *at = NULL, *name, *end;
    const char *a;
    char *s;
    size_t len;
    if (!c->o->anonymize_models || v->type != MP_STR)
        return 0;
    for (uint32_t i = 0; i + sizeof seg - 1 <= v->n && !at; i++)
        if (memcmp(b + i, seg, sizeof seg - 1) == 0)
            at = b + i;
    if (!at)
        return 0;
    name = at + sizeof seg - 1;
    for (end = name; end < b + v->n && *end != '/' && *end != '?'; end++)
        ;
    a = share_alias(&c->models, "model", name, (size_t)(end - name),
                    &c->rep->models_renamed);
    len = (size_t)(name - b) + strlen(a ? a : "") + (size_t)(b + v->n - end);
    s = a ? own(o, malloc(len + 1)) : NULL;
    if (!s)
        return TRACE_E_NOMEM;
    snprintf(s, len + 1, "%.*s%s%.*s", (int)(name - b), (const char *)b, a,
             (int)(b + v->n - end), (const char *)end);
    share_set_str(v, s);
    return 0;
}

/* A copy of v filled by rules r, owned by o. */
static int filled(struct share_ctx *c, struct mp_value *v,
                  const struct share_fill_rules *r, struct owned *o)
{
    struct share_fill f;
    uint8_t *p;
    if (v->type != MP_STR && v->type != MP_BIN)
        return 0;
    p = own(o, malloc(v->n + 1u));
    if (!p)
        return TRACE_E_NOMEM;
    memcpy(p, v->v.bytes, v->n);
    share_fill_init(&f, r);
    share_fill_run(&f, p, v->n);
    c->rep->option_bytes += f.filled;
    v->v.bytes = p;
    return 0;
}

/* "a,b,c": each class name renamed as in the request records. */
static int class_list(struct share_ctx *c, struct mp_value *v, struct owned *o)
{
    char *s, *out;
    size_t cap, n = 0;
    if (v->type != MP_STR)
        return 0;
    cap = (size_t)v->n * 8 + 64;
    s = own(o, strndup((const char *)v->v.bytes, v->n));
    out = own(o, malloc(cap));
    if (!s || !out)
        return TRACE_E_NOMEM;
    out[0] = '\0';
    for (char *save = NULL, *t = strtok_r(s, ",", &save); t;
         t = strtok_r(NULL, ",", &save)) {
        struct mp_value one;
        share_set_str(&one, t);
        if (share_class_value(c, &one))
            return TRACE_E_NOMEM;
        n += (size_t)snprintf(out + n, cap - n, "%s%.*s", n ? "," : "",
                              (int)one.n, (const char *)one.v.bytes);
        if (n >= cap)
            return TRACE_E_NOMEM;
    }
    share_set_str(v, out);
    return 0;
}

static bool name_has(const struct mp_value *k, const char *part)
{
    size_t n = strlen(part);
    for (uint32_t i = 0; k->type == MP_STR && i + n <= k->n; i++)
        if (memcmp(k->v.bytes + i, part, n) == 0)
            return true;
    return false;
}

/* The run options: user data filled, file names cut to their last part,
 * model names renamed when asked. */
static int share_options_map(struct share_ctx *c, struct mp_value *m,
                             struct owned *o)
{
    struct mp_value *pairs;
    int rc = 0;
    if (m->type != MP_MAP || m->n == 0)
        return 0;
    pairs = own(o, malloc(2 * m->n * sizeof(*pairs)));
    if (!pairs)
        return TRACE_E_NOMEM;
    memcpy(pairs, m->v.items, 2 * m->n * sizeof(*pairs));
    m->v.items = pairs;
    for (uint32_t i = 0; i < m->n && !rc; i++) {
        const struct mp_value *k = &pairs[2 * i];
        struct mp_value *v = &pairs[2 * i + 1];
        if (mp_str_eq(k, "extra_body") &&
            (v->type == MP_STR || v->type == MP_BIN)) {
            rc = share_body_names(c, (const char *)v->v.bytes, v->n);
            if (!rc)
                rc = filled(c, v, &c->all, o);
        } else if (mp_str_eq(k, "classes")) {
            rc = class_list(c, v, o);
        } else if (mp_str_eq(k, "arrivals") || mp_str_eq(k, "cacert") ||
                   mp_str_eq(k, "cline.file")) {
            base_name(c, v);
        } else if (mp_str_eq(k, "calibration") && c->o->anonymize_models) {
            rc = filled(c, v, &c->prompt, o);
        } else if (name_has(k, "ModelId") || name_has(k, "model")) {
            rc = share_model_value(c, v);
        } else {
            rc = deployment_url(c, v, o);
        }
    }
    return rc;
}

static int anonymize_labels(struct share_ctx *c, struct mp_value *v,
                            struct owned *o)
{
    struct mp_value *pairs;
    if (!c->o->anonymize_models || v->type != MP_MAP || v->n == 0)
        return 0;
    pairs = own(o, malloc(2 * v->n * sizeof(*pairs)));
    if (!pairs)
        return TRACE_E_NOMEM;
    memcpy(pairs, v->v.items, 2 * v->n * sizeof(*pairs));
    v->v.items = pairs;
    for (uint32_t i = 0; i < v->n; i++) {
        struct mp_value *val = &pairs[2 * i + 1];
        const char *a;
        if (val->type != MP_STR)
            continue;
        a = share_alias(&c->labels, "value", val->v.bytes, val->n,
                        &c->rep->labels_renamed);
        if (!a)
            return TRACE_E_NOMEM;
        share_set_str(val, a);
    }
    return 0;
}

static int anonymize_models(struct share_ctx *c, struct mp_value *v,
                            struct owned *o)
{
    struct mp_value *items;
    if (!c->o->anonymize_models || v->type != MP_ARRAY || v->n == 0)
        return 0;
    items = own(o, malloc(v->n * sizeof(*items)));
    if (!items)
        return TRACE_E_NOMEM;
    memcpy(items, v->v.items, v->n * sizeof(*items));
    v->v.items = items;
    for (uint32_t i = 0; i < v->n; i++)
        if (share_model_value(c, &items[i]))
            return TRACE_E_NOMEM;
    return 0;
}

/* One header field, in place. */
static int header_field(struct share_ctx *c, const struct mp_value *k,
                        struct mp_value *v, struct owned *o)
{
    if (mp_str_eq(k, "version")) {
        v->type = MP_UINT;
        v->v.u = trace_writer_version(c->w);
    } else if (mp_str_eq(k, "host") && v->type == MP_STR) {
        share_set_str(v, REMOVED);
        c->rep->hosts++;
    } else if (mp_str_eq(k, "command_line") && v->type == MP_STR) {
        share_set_str(v, REMOVED);
        c->rep->command_lines++;
    } else if (mp_str_eq(k, "workload")) {
        base_name(c, v);
    } else if (mp_str_eq(k, "models")) {
        return anonymize_models(c, v, o);
    } else if (mp_str_eq(k, "labels")) {
        return anonymize_labels(c, v, o);
    } else if (mp_str_eq(k, "options")) {
        return share_options_map(c, v, o);
    } else if (mp_str_eq(k, "endpoint") || mp_str_eq(k, "url")) {
        return deployment_url(c, v, o);
    }
    return 0;
}

int share_header(struct share_ctx *c, const struct mp_value *raw)
{
    static char shared_by[] = "tokentrace-analyze " TT_VERSION " share";
    struct mp_value root, *map, *p;
    struct mp_value shared[12], shared_map;
    struct owned o = {{0}, 0};
    uint32_t n = 0;
    int rc;
    c->rep->traces++;
    rc = share_copy_record(raw, 1, &root, &map);
    if (rc)
        return rc;
    p = map->v.items;
    for (uint32_t i = 0; i < map->n && !rc; i++) {
        struct mp_value *k = &p[2 * i], *v = &p[2 * i + 1];
        if (mp_str_eq(k, "shared"))
            continue; /* written anew below */
        rc = header_field(c, k, v, &o);
        p[2 * n] = *k;
        p[2 * n + 1] = *v;
        n++;
    }
    share_set_str(&shared[0], "by");
    share_set_str(&shared[1], shared_by);
    share_set_str(&shared[2], "prompts");
    share_set_str(&shared[3], c->o->keep_prompts ? "kept" : "filled");
    share_set_str(&shared[4], "replies");
    share_set_str(&shared[5], "filled");
    share_set_str(&shared[6], "models");
    share_set_str(&shared[7], c->o->anonymize_models ? "anonymized" : "kept");
    share_set_str(&shared[8], "headers");
    share_set_str(&shared[9], "reduced");
    share_set_str(&shared[10], "errors");
    share_set_str(&shared[11], c->o->keep_errors ? "kept" : "filled");
    shared_map.type = MP_MAP;
    shared_map.n = 6;
    shared_map.v.items = shared;
    share_set_str(&p[2 * n], "shared");
    p[2 * n + 1] = shared_map;
    map->n = n + 1;
    if (!rc)
        rc = trace_write_tree(c->w, &root);
    for (size_t i = 0; i < o.n; i++)
        free(o.p[i]);
    share_free_record(&root);
    return rc;
}
