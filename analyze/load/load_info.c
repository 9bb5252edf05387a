/* load_info: what the loader keeps of each trace it reads (struct
 * trace_info): made from its header, its stage records noted, options and
 * labels looked up, freed; and the traces already read, so that a
 * repeated one is counted once. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"
#include "load_info.h"
#include "log.h"

char *load_info_dup(const char *s)
{
    return s ? strdup(s) : NULL;
}

static struct trace_kv *dup_kv(const struct trace_kv *kv, size_t n)
{
    struct trace_kv *out = n ? calloc(n, sizeof(*out)) : NULL;
    for (size_t i = 0; out && i < n; i++) {
        out[i].key = strdup(kv[i].key ? kv[i].key : "");
        out[i].value = strdup(kv[i].value ? kv[i].value : "");
    }
    return out;
}

static void free_kv(struct trace_kv *kv, size_t n)
{
    for (size_t i = 0; kv && i < n; i++) {
        free((char *)kv[i].key);
        free((char *)kv[i].value);
    }
    free(kv);
}

const char *trace_info_option(const struct trace_info *t, const char *key)
{
    for (size_t i = 0; t && i < t->n_options; i++)
        if (strcmp(t->options[i].key, key) == 0)
            return t->options[i].value;
    return NULL;
}

void load_free_infos(struct trace_info **infos, size_t n)
{
    for (size_t i = 0; infos && i < n; i++) {
        struct trace_info *t = infos[i];
        free(t->file);
        free(t->trace_id);
        free(t->api);
        free(t->endpoint);
        free(t->host);
        free(t->tool_version);
        free(t->workload);
        for (size_t k = 0; k < t->n_models; k++)
            free(t->models[k]);
        free(t->models);
        free_kv(t->labels, t->n_labels);
        free_kv(t->options, t->n_options);
        free_kv(t->shared, t->n_shared);
        free(t->footer_reason);
        free(t->keep_awake_end);
        free(t->recording_stopped);
        free(t->damage);
        free(t->stages);
        server_metrics_free(&t->server);
        free(t);
    }
    free(infos);
}

const struct stage_info *trace_info_stage(const struct trace_info *t,
                                          uint32_t id)
{
    for (size_t i = 0; t && i < t->n_stages; i++)
        if (t->stages[i].id == id)
            return &t->stages[i];
    return NULL;
}

void stage_info_name(const struct trace_info *t, uint32_t id, char *out,
                     size_t size)
{
    const struct stage_info *st = trace_info_stage(t, id);
    if (id == 0)
        snprintf(out, size, "(none)");
    else if (!st || !st->mode[0] || !isfinite(st->load))
        snprintf(out, size, "stage %u", (unsigned)id);
    else
        snprintf(out, size, "%s=%g", st->mode, st->load);
}

void stage_info_label(const struct trace_info *t, uint32_t id, char *out,
                      size_t size)
{
    const struct stage_info *st = trace_info_stage(t, id);
    if (id == 0 || !st || !st->mode[0] || !isfinite(st->load))
        stage_info_name(t, id, out, size);
    else
        snprintf(out, size, "%s=%g #%u", st->mode, st->load, (unsigned)id);
}

/* Keeps a stage record in t: the begin record adds the stage, the end
 * record completes it. Out of memory leaves it out (its requests are
 * then named "stage N"). */
void load_info_note_stage(struct trace_info *t, const struct trace_stage *r)
{
    struct stage_info *st = (struct stage_info *)trace_info_stage(t, r->id);
    if (!st) {
        struct stage_info *p;
        if (r->id == 0 || t->n_stages >= 100000)
            return;
        p = realloc(t->stages, (t->n_stages + 1) * sizeof(*p));
        if (!p)
            return;
        t->stages = p;
        st = &p[t->n_stages++];
        memset(st, 0, sizeof(*st));
        st->id = r->id;
    }
    /* only the two known modes: the name goes into every output */
    snprintf(st->mode, sizeof(st->mode), "%s",
             r->mode && (strcmp(r->mode, "concurrency") == 0 ||
                         strcmp(r->mode, "rate") == 0)
                 ? r->mode
                 : "");
    st->load = r->load;
    st->start_ns = r->start_ns;
    st->end_ns = r->end_ns;
    st->sent = r->sent;
    st->loop_lag_p50_ns = r->loop_lag_p50_ns;
    st->loop_lag_p99_ns = r->loop_lag_p99_ns;
    st->loop_lag_max_ns = r->loop_lag_max_ns;
    st->loop_lag_samples = r->loop_lag_samples;
    st->cpu_ns = r->cpu_ns;
    st->ramp_ns = r->ramp_ns;
}

const char *trace_info_label(const struct trace_info *t, const char *key)
{
    for (size_t i = 0; i < t->n_labels; i++)
        if (strcmp(t->labels[i].key, key) == 0)
            return t->labels[i].value;
    return NULL;
}

struct trace_info *load_info_from_header(const struct trace_header *h,
                                         const char *file)
{
    struct trace_info *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    t->file = strdup(file);
    t->trace_id = load_info_dup(h->trace_id);
    t->api = strdup(h->api ? h->api : "openai-chat");
    t->endpoint = load_info_dup(h->endpoint);
    t->host = load_info_dup(h->host);
    t->tool_version = load_info_dup(h->tool_version);
    t->format_version = h->format_version;
    t->workload = load_info_dup(h->workload);
    t->models = h->n_models ? calloc(h->n_models, sizeof(char *)) : NULL;
    for (size_t i = 0; t->models && i < h->n_models; i++)
        t->models[t->n_models++] = strdup(h->models[i]);
    t->labels = dup_kv(h->labels, h->n_labels);
    t->n_labels = t->labels ? h->n_labels : 0;
    t->options = dup_kv(h->options, h->n_options);
    t->n_options = t->options ? h->n_options : 0;
    t->shared = dup_kv(h->shared, h->n_shared);
    t->n_shared = t->shared ? h->n_shared : 0;
    t->mono_zero_ns = h->mono_zero_ns;
    t->real_zero_ns = h->real_zero_ns;
    t->first_start_ns = -1;
    t->last_end_ns = -1;
    t->measured_start_ns = t->measured_end_ns = -1;
    t->loop_lag_p50_ns = t->loop_lag_p99_ns = t->loop_lag_max_ns = -1;
    t->wake_probe_p50_ns = t->wake_probe_p99_ns = t->wake_probe_max_ns = -1;
    t->receive_lag_p50_ns = t->receive_lag_p99_ns = -1;
    t->receive_lag_max_ns = -1;
    t->proxy_p50_ns = t->proxy_p99_ns = t->proxy_max_ns = -1;
    return t;
}

/* Frees seen's entries and zeroes it. */
void load_info_seen_free(struct load_seen *seen)
{
    if (!seen)
        return;
    for (size_t i = 0; i < seen->n; i++) {
        free(seen->v[i].trace_id);
        free(seen->v[i].file);
    }
    free(seen->v);
    memset(seen, 0, sizeof(*seen));
}

/* True when h is a trace already read (a warning names both places); else
 * remembers it and returns false. A header without a trace id is never a
 * repeat (nothing to tell copies apart by). */
bool load_info_seen_before(struct load_seen *seen, const struct trace_header *h,
                           const char *file)
{
    struct load_seen_entry *e;
    if (!seen || !h->trace_id || !h->trace_id[0])
        return false;
    for (size_t i = 0; i < seen->n; i++) {
        e = &seen->v[i];
        if (e->mono_zero_ns == h->mono_zero_ns &&
            e->real_zero_ns == h->real_zero_ns &&
            strcmp(e->trace_id, h->trace_id) == 0) {
            log_warn("%s: trace %s was already read (from %s): a repeated "
                     "trace is counted once",
                     file, h->trace_id, e->file);
            return true;
        }
    }
    if (seen->n == seen->cap) {
        size_t ncap = seen->cap ? seen->cap * 2 : 8;
        e = realloc(seen->v, ncap * sizeof(*e));
        if (!e)
            return false; /* out of memory: read it, as without seen */
        seen->v = e;
        seen->cap = ncap;
    }
    e = &seen->v[seen->n];
    e->trace_id = strdup(h->trace_id);
    e->file = strdup(file);
    if (!e->trace_id || !e->file) {
        free(e->trace_id);
        free(e->file);
        return false;
    }
    e->mono_zero_ns = h->mono_zero_ns;
    e->real_zero_ns = h->real_zero_ns;
    seen->n++;
    return false;
}

int load_info_push(struct trace_info *t, struct trace_info ***infos, size_t *n)
{
    struct trace_info **p = realloc(*infos, (*n + 1) * sizeof(*p));
    if (!p)
        return -1;
    *infos = p;
    p[(*n)++] = t;
    return 0;
}

void load_info_note_footer(struct trace_info *t, const struct trace_footer *f)
{
    t->has_footer = true;
    t->interrupted = f->interrupted;
    free(t->footer_reason);
    t->footer_reason = load_info_dup(f->reason);
    free(t->recording_stopped);
    t->recording_stopped = load_info_dup(f->recording_stopped);
    t->unrecorded = f->unrecorded;
    t->loop_lag_samples = f->loop_lag_samples;
    t->loop_lag_p50_ns = f->loop_lag_p50_ns;
    t->loop_lag_p99_ns = f->loop_lag_p99_ns;
    t->loop_lag_max_ns = f->loop_lag_max_ns;
    t->wake_probe_samples = f->wake_probe_samples;
    t->wake_probe_p50_ns = f->wake_probe_p50_ns;
    t->wake_probe_p99_ns = f->wake_probe_p99_ns;
    t->wake_probe_max_ns = f->wake_probe_max_ns;
    t->receive_lag_samples = f->receive_lag_samples;
    t->receive_lag_p50_ns = f->receive_lag_p50_ns;
    t->receive_lag_p99_ns = f->receive_lag_p99_ns;
    t->receive_lag_max_ns = f->receive_lag_max_ns;
    free(t->keep_awake_end);
    t->keep_awake_end = load_info_dup(f->keep_awake_end);
    t->keep_awake_changes = f->keep_awake_changes;
}

void load_info_report_damage(struct trace_info *t, struct trace_reader *r,
                             int st)
{
    if (st == -TRACE_E_VERSION) {
        /* Not damage: a newer format this reader must not guess at. */
        log_error("%s; this trace is not analyzed", trace_reader_error(r));
    } else if (!t) {
        /* Not a trace at all (no header before the damage): nothing of it
         * is analyzed, so it is no warning (issue 32). */
        log_error("%s: not a tokentrace trace, nothing of it is analyzed",
                  trace_reader_error(r));
    } else {
        log_warn("%s; analyzing the complete records before it",
                 trace_reader_error(r));
        if (!t->damage)
            t->damage = strdup(trace_reader_error(r));
    }
}
