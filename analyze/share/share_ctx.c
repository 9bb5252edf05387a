/* share_ctx: aliases, fill rules and filled copies of values for the
 * share record writers (share_ctx.h). */
#define _GNU_SOURCE /* memmem */
#include "share_ctx.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

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
/* Members whose object value is the user's own data, names and numbers
 * too: tools' schemas, tool calls' input, JSON schemas, metadata. */
static const char *const free_form_names[] = {
    "input_schema", "parameters", "json_schema", "schema", "input",
    "arguments",    "metadata",   "properties",  "args",   NULL};
/* Class names the recorder and the proxy give: not the user's. */
static const char *const own_classes[] = {
    "short-short", "short-long", "long-short", "long-long",   "agent",
    "proxy",       "capture",    "check",      "calibration", NULL};

void share_ctx_rules(struct share_ctx *c)
{
    bool anon = c->o->anonymize_models;
    size_t n = 0;
    for (const char *const *k = free_form_names; *k; k++)
        c->free_form[n++] = *k;
    for (size_t i = 0; i < c->n_body_names; i++)
        c->free_form[n++] = c->body_names[i];
    c->free_form[n] = NULL;
    memset(&c->prompt, 0, sizeof c->prompt);
    c->prompt.keep = anon ? prompt_keep + 1 : prompt_keep;
    c->prompt.free_form = c->free_form;
    c->reply = c->prompt;
    c->reply.keep = anon ? reply_keep + 1 : reply_keep;
    c->reply.keep_errors = c->o->keep_errors;
    c->reply.sse = true;
    memset(&c->all, 0, sizeof c->all);
    c->all.all = true;
}

static void free_list(struct alias_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->v[i].name);
        free(l->v[i].alias);
    }
    free(l->v);
    memset(l, 0, sizeof *l);
}

int share_body_names(struct share_ctx *c, const char *json, size_t len)
{
    cJSON *root = cJSON_ParseWithLength(json, len);
    const cJSON *m;
    int rc = 0;
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return 0;
    }
    cJSON_ArrayForEach(m, root)
    {
        bool seen = false;
        for (size_t i = 0; i < c->n_body_names && !seen; i++)
            seen = strcmp(c->body_names[i], m->string) == 0;
        if (seen || c->n_body_names == SHARE_MAX_BODY_NAMES)
            continue;
        c->body_names[c->n_body_names] = strdup(m->string);
        if (!c->body_names[c->n_body_names]) {
            rc = TRACE_E_NOMEM;
            break;
        }
        c->n_body_names++;
    }
    cJSON_Delete(root);
    share_ctx_rules(c);
    return rc;
}

void share_fill_body_names(const struct share_ctx *c, uint8_t *p, size_t n)
{
    for (size_t i = 0; i < c->n_body_names; i++) {
        const char *name = c->body_names[i];
        size_t len = strlen(name);
        uint8_t tmp[SHARE_FILL_KEY * 4 + 8];
        struct share_fill f;
        if (len == 0 || len + 4 > sizeof tmp)
            continue;
        /* the name's filler: the name as a string value, filled */
        tmp[0] = '[';
        tmp[1] = '"';
        memcpy(tmp + 2, name, len);
        tmp[len + 2] = '"';
        tmp[len + 3] = ']';
        share_fill_init(&f, &c->all);
        share_fill_run(&f, tmp, len + 4);
        for (uint8_t *q = p; q + len + 2 <= p + n;) {
            uint8_t *hit = memmem(q, (size_t)(p + n - q), name, len);
            if (!hit)
                break;
            q = hit + len;
            if (hit > p && hit[-1] == '"' && q < p + n && *q == '"') {
                const uint8_t *r = q + 1;
                while (r < p + n && (*r == ' ' || *r == '\t'))
                    r++;
                if (r < p + n && *r == ':')
                    memcpy(hit, tmp + 2, len);
            }
        }
    }
}

int share_other_string(struct share_ctx *c, const struct mp_value *k,
                       struct mp_value *v, const char *const *keep)
{
    struct share_fill f;
    uint8_t *p;
    if (v->type != MP_STR && v->type != MP_BIN)
        return 0;
    for (const char *const *n = keep; *n; n++)
        if (mp_str_eq(k, *n))
            return 0;
    if (c->n_owned == c->cap_owned) {
        size_t cap = c->cap_owned ? 2 * c->cap_owned : 8;
        void **q = realloc(c->owned, cap * sizeof *q);
        if (!q)
            return TRACE_E_NOMEM;
        c->owned = q;
        c->cap_owned = cap;
    }
    p = malloc(v->n + 1u);
    if (!p)
        return TRACE_E_NOMEM;
    memcpy(p, v->v.bytes, v->n);
    share_fill_init(&f, &c->all);
    share_fill_run(&f, p, v->n);
    c->rep->other_bytes += f.filled;
    c->owned[c->n_owned++] = p;
    v->v.bytes = p;
    return 0;
}

void share_release(struct share_ctx *c)
{
    for (size_t i = 0; i < c->n_owned; i++)
        free(c->owned[i]);
    c->n_owned = 0;
}

void share_ctx_free(struct share_ctx *c)
{
    share_release(c);
    free(c->owned);
    c->owned = NULL;
    c->cap_owned = 0;
    for (size_t i = 0; i < c->n_body_names; i++)
        free(c->body_names[i]);
    c->n_body_names = 0;
    free_list(&c->models);
    free_list(&c->labels);
    free_list(&c->classes);
}

const char *share_alias(struct alias_list *list, const char *prefix,
                        const uint8_t *name, size_t len, unsigned *made)
{
    struct alias *p;
    for (size_t i = 0; i < list->n; i++)
        if (strlen(list->v[i].name) == len &&
            memcmp(list->v[i].name, name, len) == 0)
            return list->v[i].alias;
    p = realloc(list->v, (list->n + 1) * sizeof(*p));
    if (!p)
        return NULL;
    list->v = p;
    p += list->n;
    p->name = malloc(len + 1);
    p->alias = malloc(32);
    if (!p->name || !p->alias) {
        free(p->name);
        free(p->alias);
        return NULL;
    }
    memcpy(p->name, name, len);
    p->name[len] = '\0';
    snprintf(p->alias, 32, "%s-%zu", prefix, list->n + 1);
    list->n++;
    (*made)++;
    return p->alias;
}

void share_set_str(struct mp_value *v, const char *s)
{
    v->type = MP_STR;
    v->n = (uint32_t)strlen(s);
    v->v.bytes = (const uint8_t *)s;
}

int share_model_value(struct share_ctx *c, struct mp_value *v)
{
    const char *a;
    if (!c->o->anonymize_models || (v->type != MP_STR && v->type != MP_BIN))
        return 0;
    a = share_alias(&c->models, "model", v->v.bytes, v->n,
                    &c->rep->models_renamed);
    if (!a)
        return TRACE_E_NOMEM;
    share_set_str(v, a);
    return 0;
}

int share_class_value(struct share_ctx *c, struct mp_value *v)
{
    const char *a;
    if (v->type != MP_STR && v->type != MP_BIN)
        return 0;
    for (const char *const *k = own_classes; *k; k++)
        if (strlen(*k) == v->n && memcmp(*k, v->v.bytes, v->n) == 0)
            return 0;
    a = share_alias(&c->classes, "class", v->v.bytes, v->n,
                    &c->rep->classes_renamed);
    if (!a)
        return TRACE_E_NOMEM;
    share_set_str(v, a);
    return 0;
}

int share_fill_copy(struct share_ctx *c, struct mp_value *v,
                    const struct share_fill_rules *r, uint64_t *bytes)
{
    struct share_fill f;
    char *p;
    buf_reset(&c->scratch);
    if (buf_extend(&c->scratch, v->n, &p) != BUF_OK)
        return TRACE_E_NOMEM;
    memcpy(p, v->v.bytes, v->n);
    share_fill_init(&f, r);
    share_fill_run(&f, (uint8_t *)p, v->n);
    *bytes += f.filled;
    v->v.bytes = (const uint8_t *)p;
    return 0;
}

int share_copy_record(const struct mp_value *raw, size_t extra,
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

void share_free_record(struct mp_value *root)
{
    free(root->v.items[1].v.items);
    free(root->v.items);
}
