/* workload: prompt classes, the built-in prompt set, class selection. */
#include "workload.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrivals_file.h"
#include "prompts.h"

/* The built-in max_tokens of a class name (64, 1024; agent 512), -1 if
 * not built in. */
static int64_t workload_class_max_tokens(const char *name)
{
    if (strcmp(name, "short-short") == 0 || strcmp(name, "long-short") == 0)
        return 64;
    if (strcmp(name, "short-long") == 0)
        return 1024;
    if (strcmp(name, WORKLOAD_AGENT_CLASS) == 0)
        return 512; /* a tool call or a short answer */
    return -1;
}

bool workload_is_builtin_name(const char *name)
{
    return strcmp(name, WORKLOAD_AGENT_CLASS) == 0;
}

int64_t workload_count_chars(const char *text, size_t len)
{
    size_t i;
    int64_t chars = 0;
    for (i = 0; i < len; i++)
        if (((unsigned char)text[i] & 0xC0) != 0x80) /* not a continuation */
            chars++;
    return chars;
}

int64_t workload_estimate_tokens(const char *text, size_t len)
{
    return workload_count_chars(text, len) / 4;
}

/* Finds the class named name; NULL if absent. */
static struct workload_class *find_class(struct workload *wl, const char *name)
{
    size_t i;
    for (i = 0; i < wl->n_classes; i++)
        if (strcmp(wl->classes[i].name, name) == 0)
            return &wl->classes[i];
    return NULL;
}

static void item_free(struct workload_item *it)
{
    free(it->prompt);
    cJSON_Delete(it->messages);
    workload_session_free(it->session);
    free(it->body);
    it->body = NULL;
    it->prompt = NULL;
    it->messages = NULL;
    it->session = NULL;
}

int workload_add(struct workload *wl, const char *name,
                 const struct workload_item *item)
{
    struct workload_class *c = find_class(wl, name);
    if (!c) {
        if (wl->n_classes == wl->cap) {
            size_t ncap = wl->cap ? wl->cap * 2 : 4;
            void *p = realloc(wl->classes, ncap * sizeof *wl->classes);
            if (!p)
                return WORKLOAD_E_NOMEM;
            wl->classes = p;
            wl->cap = ncap;
        }
        c = &wl->classes[wl->n_classes];
        memset(c, 0, sizeof *c);
        c->name = strdup(name);
        if (!c->name)
            return WORKLOAD_E_NOMEM;
        c->default_max_tokens = workload_class_max_tokens(name);
        wl->n_classes++;
    }
    if (c->n_items == c->cap) {
        size_t ncap = c->cap ? c->cap * 2 : 8;
        void *p = realloc(c->items, ncap * sizeof *c->items);
        if (!p)
            return WORKLOAD_E_NOMEM;
        c->items = p;
        c->cap = ncap;
    }
    c->items[c->n_items++] = *item;
    return WORKLOAD_OK;
}

/* Adds one built-in item per line of text; each prompt is prefix (may be
 * NULL) + "\n\n" + the line. */
static int add_lines(struct workload *wl, const char *cls, const char *text,
                     size_t len, const char *prefix, size_t prefix_len)
{
    const char *p = text, *end = text + len;
    int64_t line = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        size_t total = n + (prefix ? prefix_len + 2 : 0);
        struct workload_item it = {line, NULL, NULL,  -1,   0,
                                   0,    NULL, false, NULL, 0};
        int err;
        if (n > 0 && p[n - 1] == '\r')
            n--, total--;
        if (n > 0) {
            it.prompt = malloc(total + 1);
            if (!it.prompt)
                return WORKLOAD_E_NOMEM;
            if (prefix) {
                memcpy(it.prompt, prefix, prefix_len);
                memcpy(it.prompt + prefix_len, "\n\n", 2);
                memcpy(it.prompt + prefix_len + 2, p, n);
            } else {
                memcpy(it.prompt, p, n);
            }
            it.prompt[total] = '\0';
            it.input_tokens_est = workload_estimate_tokens(it.prompt, total);
            err = workload_add(wl, cls, &it);
            if (err) {
                item_free(&it);
                return err;
            }
        }
        line++;
        p += (nl ? (size_t)(nl - p) + 1 : (size_t)(end - p));
    }
    return WORKLOAD_OK;
}

/* Adds the built-in agent sessions as the agent class. */
static int add_agent(struct workload *wl)
{
    struct workload_item *items;
    size_t n, i;
    int rc = workload_agent_items(&items, &n);
    for (i = 0; !rc && i < n; i++) {
        rc = workload_add(wl, WORKLOAD_AGENT_CLASS, &items[i]);
        if (rc) /* not added: still ours */
            workload_session_free(items[i].session);
    }
    for (; i < n; i++)
        workload_session_free(items[i].session);
    free(items);
    return rc;
}

int workload_load_builtin(struct workload *wl, char *err, size_t errlen)
{
    const char *ctx = (const char *)prompts_long_context;
    size_t ctx_len = prompts_long_context_len;
    int rc;
    memset(wl, 0, sizeof *wl);
    wl->name = strdup("builtin");
    if (!wl->name)
        return WORKLOAD_E_NOMEM;
    /* the file's final newline is not part of the text */
    while (ctx_len > 0 &&
           (ctx[ctx_len - 1] == '\n' || ctx[ctx_len - 1] == '\r'))
        ctx_len--;
    rc = add_lines(wl, "short-short", (const char *)prompts_short_short,
                   prompts_short_short_len, NULL, 0);
    if (!rc)
        rc = add_lines(wl, "short-long", (const char *)prompts_short_long,
                       prompts_short_long_len, NULL, 0);
    if (!rc)
        rc = add_lines(wl, "long-short", (const char *)prompts_long_short,
                       prompts_long_short_len, ctx, ctx_len);
    if (!rc && prompts_agent_sessions_len > 0)
        rc = add_agent(wl);
    if (rc) {
        snprintf(err, errlen,
                 rc == WORKLOAD_E_NOMEM
                     ? "out of memory loading the built-in prompts"
                     : "the built-in agent sessions do not read (a broken "
                       "record/workload/prompts/agent-sessions.jsonl)");
        return rc;
    }
    if (wl->n_classes == 0) {
        snprintf(err, errlen,
                 "the built-in prompt set is empty (this binary "
                 "was built without record/prompts/*.txt)");
        return WORKLOAD_E_INVALID;
    }
    return WORKLOAD_OK;
}

/* Frees a class and its items. */
static void class_free(struct workload_class *c)
{
    size_t i;
    for (i = 0; i < c->n_items; i++)
        item_free(&c->items[i]);
    free(c->items);
    free(c->name);
}

/* Index of the class named by the len bytes at p, or -1. */
static long class_index(const struct workload *wl, const char *p, size_t len)
{
    size_t i;
    for (i = 0; i < wl->n_classes; i++)
        if (strlen(wl->classes[i].name) == len &&
            strncmp(wl->classes[i].name, p, len) == 0)
            return (long)i;
    return -1;
}

/* Writes the "no such class" message listing the classes there are. */
static void unknown_class(const struct workload *wl, const char *p, size_t len,
                          char *err, size_t errlen)
{
    size_t i, off;
    off = (size_t)snprintf(err, errlen,
                           "--classes: no class '%.*s' in the "
                           "%s workload (it has:",
                           (int)len, p, wl->name);
    for (i = 0; i < wl->n_classes && off < errlen; i++)
        off += (size_t)snprintf(err + off, errlen - off, " %s",
                                wl->classes[i].name);
    if (off < errlen)
        snprintf(err + off, errlen - off, ")");
}

int workload_select(struct workload *wl, const char *csv, char *err,
                    size_t errlen)
{
    struct workload_class *picked;
    bool *used;
    size_t n = 0, i;
    const char *p = csv;
    if (!csv)
        return WORKLOAD_OK;
    picked = calloc(wl->n_classes + 1, sizeof *picked);
    used = calloc(wl->n_classes + 1, sizeof *used);
    if (!picked || !used) {
        free(picked);
        free(used);
        return WORKLOAD_E_NOMEM;
    }
    for (;;) {
        size_t len = strcspn(p, ",");
        long k = class_index(wl, p, len);
        if (len == 0 || k < 0 || used[k]) {
            if (len == 0)
                snprintf(err, errlen, "--classes: empty class name in '%s'",
                         csv);
            else if (k < 0)
                unknown_class(wl, p, len, err, errlen);
            else
                snprintf(err, errlen, "--classes: '%.*s' given twice", (int)len,
                         p);
            free(picked);
            free(used);
            return WORKLOAD_E_CLASS;
        }
        used[k] = true;
        picked[n++] = wl->classes[k];
        p += len;
        if (*p == '\0')
            break;
        p++;
    }
    for (i = 0; i < wl->n_classes; i++)
        if (!used[i])
            class_free(&wl->classes[i]);
    memcpy(wl->classes, picked, n * sizeof *picked);
    wl->n_classes = n;
    free(picked);
    free(used);
    return WORKLOAD_OK;
}

void workload_free(struct workload *wl)
{
    size_t i;
    if (!wl)
        return;
    for (i = 0; i < wl->n_classes; i++)
        class_free(&wl->classes[i]);
    free(wl->classes);
    free(wl->name);
    arrivals_file_free(wl->arrivals);
    free(wl->arrivals);
    memset(wl, 0, sizeof *wl);
}

int workload_load_arrivals(const char *path, double speed, struct workload *wl,
                           char *err, size_t errlen)
{
    struct arrivals_file *a = calloc(1, sizeof *a);
    memset(wl, 0, sizeof *wl);
    if (!a)
        goto nomem;
    if (arrivals_file_load(path, speed, a, err, errlen)) {
        free(a);
        return WORKLOAD_E_INVALID;
    }
    wl->arrivals = a;
    wl->name = strdup("arrivals");
    if (!wl->name)
        goto nomem;
    for (size_t i = 0; i < a->n; i++) {
        struct workload_item it;
        memset(&it, 0, sizeof it);
        it.index = (int64_t)i;
        it.filler_tokens = a->input[i] > 0 ? a->input[i] : 64;
        it.input_tokens_est = it.filler_tokens;
        it.max_tokens = a->output[i] > 0 ? a->output[i] : -1;
        if (workload_add(wl, "arrivals", &it))
            goto nomem;
    }
    return WORKLOAD_OK;
nomem:
    snprintf(err, errlen, "out of memory");
    workload_free(wl);
    return WORKLOAD_E_NOMEM;
}

int workload_load_exact(int64_t mean_tokens, struct workload *wl, char *err,
                        size_t errlen)
{
    struct workload_item it;
    memset(wl, 0, sizeof *wl);
    memset(&it, 0, sizeof it);
    it.max_tokens = -1;
    it.input_tokens_est = mean_tokens;
    it.exact = true;
    wl->name = strdup("exact");
    if (!wl->name || workload_add(wl, WORKLOAD_EXACT_CLASS, &it)) {
        snprintf(err, errlen, "out of memory");
        workload_free(wl);
        return WORKLOAD_E_NOMEM;
    }
    return WORKLOAD_OK;
}
