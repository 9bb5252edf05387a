/* run_header: the trace header record of a run (settings as strings, the
 * wall clock's synchronization state). */
#include "run.h"

#include <curl/curl.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timex.h>
#include <unistd.h>

#include "buf.h"
#include "cline_settings.h"
#include "clock.h"
#include "sanitize.h"

/* What the kernel says about CLOCK_REALTIME's synchronization
 * (ntp_adjtime read-only: the unsynchronized flag, the maximum and
 * estimated error), for the header: run-level quantities of shards on
 * several hosts carry this uncertainty (docs/scale-out.md). */
enum clock_sync_state {
    CLOCK_SYNC_UNKNOWN = 0, /* ntp_adjtime failed */
    CLOCK_SYNC_SYNCHRONIZED,
    CLOCK_SYNC_UNSYNCHRONIZED, /* STA_UNSYNC or TIME_ERROR: no bound */
};

struct clock_sync {
    enum clock_sync_state state;
    int64_t maxerror_us; /* the kernel's maximum error bound, -1 unknown */
    int64_t esterror_us; /* its estimated error, -1 unknown */
};

/* Reads the state now (no privilege needed: modes 0 changes nothing).
 * Cannot fail: an error gives CLOCK_SYNC_UNKNOWN. */
static void clock_sync_read(struct clock_sync *out)
{
    struct timex tx;
    int st;
    memset(&tx, 0, sizeof tx); /* modes 0: read only */
    st = ntp_adjtime(&tx);
    out->maxerror_us = -1;
    out->esterror_us = -1;
    if (st < 0) {
        out->state = CLOCK_SYNC_UNKNOWN;
        return;
    }
    out->maxerror_us = (int64_t)tx.maxerror;
    out->esterror_us = (int64_t)tx.esterror;
    out->state = st == TIME_ERROR || (tx.status & STA_UNSYNC)
                     ? CLOCK_SYNC_UNSYNCHRONIZED
                     : CLOCK_SYNC_SYNCHRONIZED;
}

/* "synchronized", "unsynchronized" or "unknown". */
static const char *clock_sync_state_name(enum clock_sync_state s)
{
    switch (s) {
    case CLOCK_SYNC_SYNCHRONIZED:
        return "synchronized";
    case CLOCK_SYNC_UNSYNCHRONIZED:
        return "unsynchronized";
    default:
        return "unknown";
    }
}

#define MAX_OPTIONS 72

struct options {
    struct trace_kv kv[MAX_OPTIONS];
    char *owned[MAX_OPTIONS]; /* values allocated here */
    size_t n;
};

/* Adds key = value, taking ownership of the malloc'd value. */
static int add_owned(struct options *o, const char *key, char *value)
{
    if (!value || o->n == MAX_OPTIONS) {
        free(value);
        return -1;
    }
    o->owned[o->n] = value;
    o->kv[o->n].key = key;
    o->kv[o->n].value = value;
    o->n++;
    return 0;
}

/* Adds key = a copy of the formatted value; returns 0 or -1. */
static int add_opt(struct options *o, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int add_opt(struct options *o, const char *key, const char *fmt, ...)
{
    va_list ap;
    char tmp[256];
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    return add_owned(o, key, strdup(tmp));
}

/* The selected classes, comma-separated, malloc'd. */
static char *class_list(const struct workload *wl)
{
    struct buf b;
    size_t i;
    buf_init(&b, 0);
    if (buf_puts(&b, ""))
        return NULL;
    for (i = 0; i < wl->n_classes; i++)
        if ((i && buf_puts(&b, ",")) || buf_puts(&b, wl->classes[i].name)) {
            buf_free(&b);
            return NULL;
        }
    return b.data;
}

/* The values read from Cline's own store (providers.json, globalState.json)
 * as "cline.*" options named after the file's settings ("cline.baseUrl"),
 * the key redacted or named by its variable. */
static int store_options(const struct run_setup *s, struct options *o)
{
    const struct cline_settings *cs = s->cfg->cline;
    const struct cline_names *n = &cs->names;
    int e = 0;
    e |= add_owned(o, "cline.file", sanitize_string(cs->path, s->key));
    e |= add_opt(o, "cline.format", "%s",
                 cs->form == CLINE_FORM_PROVIDERS ? "providers.json"
                                                  : "globalState.json");
    if (cs->provider)
        e |= add_owned(o, "cline.provider",
                       sanitize_string(cs->provider, s->key));
    if (cs->base_url)
        e |= add_opt(o, "cline.base_url_setting", "%s%s", n->scope,
                     n->base_url) ||
             add_owned(o, "cline.baseUrl",
                       sanitize_string(cs->base_url, s->key));
    if (cs->key_literal)
        e |= add_opt(o, "cline.apiKey", "[redacted]");
    else if (cs->key_default_env)
        e |= add_opt(o, "cline.apiKey", "$OPENAI_API_KEY");
    if (cs->model)
        e |= add_owned(o, "cline.model", sanitize_string(cs->model, s->key));
    if (cs->max_tokens > 0)
        e |= add_opt(o, "cline.maxTokens", "%lld", (long long)cs->max_tokens);
    if (cs->timeout_ms > 0)
        e |= add_opt(o, "cline.timeout", "%lld", (long long)cs->timeout_ms);
    if (cs->overridden[0])
        e |= add_opt(o, "cline.overridden_by_flags", "%s", cs->overridden);
    return e;
}

/* The cline settings file's values as "cline.*" options, the key
 * redacted (a "${env:VAR}" reference is kept: it names no secret). */
static int cline_options(const struct run_setup *s, struct options *o)
{
    const struct cline_settings *cs = s->cfg->cline;
    int e = 0;
    if (!cs)
        return 0;
    if (cs->form != CLINE_FORM_VSCODE)
        return store_options(s, o);
    e |= add_owned(o, "cline.file", sanitize_string(cs->path, s->key));
    if (cs->provider)
        e |= add_owned(o, "cline.apiProvider",
                       sanitize_string(cs->provider, s->key));
    if (cs->base_url)
        e |= add_owned(o, "cline.openAiBaseUrl",
                       sanitize_string(cs->base_url, s->key));
    if (cs->key_env)
        e |= add_opt(o, "cline.openAiApiKey", "${env:%s}", cs->key_env);
    else if (cs->key_literal)
        e |= add_opt(o, "cline.openAiApiKey", "[redacted]");
    if (cs->model)
        e |= add_owned(o, "cline.openAiModelId",
                       sanitize_string(cs->model, s->key));
    if (cs->max_tokens > 0)
        e |= add_opt(o, "cline.openAiModelInfo.maxTokens", "%lld",
                     (long long)cs->max_tokens);
    if (cs->timeout_ms > 0)
        e |= add_opt(o, "cline.requestTimeoutMs", "%lld",
                     (long long)cs->timeout_ms);
    if (cs->overridden[0])
        e |= add_opt(o, "cline.overridden_by_flags", "%s", cs->overridden);
    return e;
}

/* "concurrency=1,2,4": the stages of --sweep, malloc'd (NULL: out of
 * memory). */
static char *sweep_text(const struct cli_sweep *sw)
{
    size_t cap = 32 + sw->n * 24, len;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    len = (size_t)snprintf(out, cap, "%s=", cli_sweep_mode_name(sw->mode));
    for (size_t i = 0; i < sw->n && len < cap; i++)
        len += (size_t)snprintf(out + len, cap - len, "%s%g", i ? "," : "",
                                sw->loads[i]);
    return out;
}

/* The scale-out keys (docs/trace-format.md): the shard and its run, what
 * its shards must share (run_match), the shared start instant and how
 * late this process woke for it, and the wall clock's synchronization
 * now. */
static int scale_options(const struct run_setup *s, int64_t late_ns,
                         struct options *o)
{
    const struct cli_shard *sh = &s->cfg->shard;
    struct clock_sync cs;
    char when[48];
    int e = 0;
    if (sh->count > 1) {
        e |= add_opt(o, "shard", "%u/%u", sh->index, sh->count);
        e |= add_opt(o, "shard_from", "%s", sh->from ? sh->from : "--shard");
        if (s->cfg->rate <= 0 && s->cfg->sweep.mode == SWEEP_NONE &&
            !s->arrivals)
            e |= add_opt(
                o, "shard_concurrency", "%llu",
                (unsigned long long)cli_shard_share(sh, s->cfg->concurrency));
    }
    if (sh->count > 1 || sh->run_id) {
        e |= add_opt(o, "run_id", "%s", cli_shard_run_id(sh));
        e |= add_opt(o, "run_id_from", "%s", sh->run_id_from);
        if (s->run_match)
            e |= add_opt(o, "run_match", "%s", s->run_match);
    }
    if (sh->start_at_ns) {
        cli_format_instant(sh->start_at_ns, when, sizeof when);
        e |= add_opt(o, "start_at", "%s", when);
        e |= add_opt(o, "start_late_us", "%lld", (long long)(late_ns / 1000));
    }
    clock_sync_read(&cs);
    e |= add_opt(o, "clock_sync", "%s", clock_sync_state_name(cs.state));
    if (cs.maxerror_us >= 0)
        e |= add_opt(o, "clock_maxerror_us", "%lld", (long long)cs.maxerror_us);
    if (cs.esterror_us >= 0)
        e |= add_opt(o, "clock_esterror_us", "%lld", (long long)cs.esterror_us);
    return e;
}

/* The keep-awake state at the start: its mode, its CPU, why it is off
 * though asked; auto: that it was auto and why it started so (its
 * changes go into the footer; docs/trace-format.md). */
static int awake_options(const struct keep_awake *k, struct options *o)
{
    int e = add_opt(o, "keep_awake", "%s", keep_awake_mode_name(k->mode));
    if (k->asked == KEEP_AWAKE_AUTO) {
        e |= add_opt(o, "keep_awake_asked", "auto");
        if (k->chose[0])
            e |= add_opt(o, "keep_awake_why", "%s", k->chose);
    }
    if (k->mode != KEEP_AWAKE_OFF)
        e |= add_opt(o, "keep_awake_cpu", "%d", k->cpu);
    else if (k->asked != KEEP_AWAKE_OFF)
        e |= add_opt(o, "keep_awake_off", "%s", k->why);
    if (k->quota.limited)
        e |= add_opt(o, "cpu_quota", "%lld/%lld", (long long)k->quota.quota_us,
                     (long long)k->quota.period_us);
    /* the probe needs a CPU other than the loop's (run_loop.c) */
    if (keep_awake_other_cpu(k) < 0)
        e |= add_opt(o, "wake_probe", "off (one CPU allowed)");
    return e;
}

/* --input-tokens' fits as a JSON array, one object per model: model, k
 * (tokens per byte), overhead (tokens), probe_bytes, probe_tokens,
 * probes, fallback. malloc'd, NULL out of memory. */
static char *calibration_json(const struct run_setup *s)
{
    cJSON *arr = cJSON_CreateArray();
    char *out = NULL;
    bool ok = arr != NULL;
    for (size_t i = 0; ok && i < s->cfg->n_models; i++) {
        const struct length_fit *f = &s->fits[i];
        double bytes[2] = {(double)f->probe_bytes[0],
                           (double)f->probe_bytes[1]};
        double toks[2] = {(double)f->probe_tokens[0],
                          (double)f->probe_tokens[1]};
        cJSON *m = cJSON_CreateObject();
        ok = m && cJSON_AddItemToArray(arr, m) &&
             cJSON_AddStringToObject(m, "model", s->cfg->models[i]) &&
             cJSON_AddNumberToObject(m, "k", f->k) &&
             cJSON_AddNumberToObject(m, "overhead", f->overhead) &&
             cJSON_AddItemToObject(m, "probe_bytes",
                                   cJSON_CreateDoubleArray(bytes, 2)) &&
             cJSON_AddItemToObject(m, "probe_tokens",
                                   cJSON_CreateDoubleArray(toks, 2)) &&
             cJSON_AddNumberToObject(m, "probes", f->probes) &&
             cJSON_AddBoolToObject(m, "fallback", f->fallback);
    }
    if (ok)
        out = cJSON_PrintUnformatted(arr);
    cJSON_Delete(arr);
    return out;
}

/* --input-tokens, --output-tokens, --shared-prefix and the fits. */
static int length_options(const struct run_setup *s, struct options *o)
{
    const struct config *c = s->cfg;
    char spec[64];
    int e = 0;
    if (c->input_tokens.kind != TOKEN_LENGTH_NONE) {
        token_length_format(&c->input_tokens, spec, sizeof spec);
        e |= add_opt(o, "input_tokens", "%s", spec);
    }
    if (c->output_tokens.kind != TOKEN_LENGTH_NONE) {
        token_length_format(&c->output_tokens, spec, sizeof spec);
        e |= add_opt(o, "output_tokens", "%s", spec);
    }
    if (c->shared_prefix > 0)
        e |= add_opt(o, "shared_prefix", "%lld", (long long)c->shared_prefix);
    if (c->images_n > 0)
        e |= add_opt(o, "images", "%u,%ux%u", c->images_n, c->images_w,
                     c->images_h);
    if (s->fits)
        e |= add_owned(o, "calibration", calibration_json(s));
    return e;
}

/* Fills the run settings. Returns 0 or -1 (out of memory / too many). */
static int fill_options(const struct run_setup *s, struct options *o,
                        int64_t late_ns, const struct keep_awake *awake)
{
    const struct config *c = s->cfg;
    int e = 0;
    if (awake)
        e |= awake_options(awake, o);
    if (c->check)
        e |= add_opt(o, "mode", "check");
    if (c->search.mode != SWEEP_NONE) {
        e |= add_opt(o, "search", "%s=%g", cli_sweep_mode_name(c->search.mode),
                     c->search.start);
        e |= add_opt(o, "search_ttft_ms", "%g", c->search.ttft_ms);
        e |= add_opt(o, "search_attain", "%g", c->search.attain);
        e |= add_opt(o, "search_stages", "%u", c->search.max_stages);
    } else if (c->sweep.n) {
        e |= add_owned(o, "sweep", sweep_text(&c->sweep));
    }
    if (c->sweep.mode == SWEEP_RATE) {
        e |= add_opt(o, "loop", "open");
        e |= add_opt(o, "arrival", "%s",
                     c->arrival == ARRIVAL_CONSTANT ? "constant" : "poisson");
        e |= add_opt(o, "seed", "%llu", (unsigned long long)c->seed);
    } else if (c->sweep.mode == SWEEP_CONCURRENCY) {
        e |= add_opt(o, "loop", "closed");
    } else if (c->arrivals_file) {
        e |= add_opt(o, "loop", "open");
        e |= add_opt(o, "arrivals", "%s", c->arrivals_file);
        e |= add_opt(o, "speed", "%g", c->speed);
    } else if (c->rate > 0) {
        e |= add_opt(o, "loop", "open");
        e |= add_opt(o, "rate", "%g", c->rate);
        e |= add_opt(o, "arrival", "%s",
                     c->arrival == ARRIVAL_CONSTANT ? "constant" : "poisson");
        e |= add_opt(o, "seed", "%llu", (unsigned long long)c->seed);
    } else {
        e |= add_opt(o, "loop", "closed");
        e |= add_opt(o, "concurrency", "%llu",
                     (unsigned long long)c->concurrency);
    }
    if (c->burstiness > 0)
        e |= add_opt(o, "burstiness", "%g", c->burstiness);
    if (c->ramp_s > 0)
        e |= add_opt(o, "ramp_s", "%g", c->ramp_s);
    if (c->concurrency_given && (c->rate > 0 || c->sweep.mode == SWEEP_RATE))
        e |= add_opt(o, "concurrency_cap", "%llu",
                     (unsigned long long)c->concurrency);
    if (c->duration_s > 0 && !c->n_given)
        e |= add_opt(o, "n", "unbounded");
    else
        e |= add_opt(o, "n", "%llu", (unsigned long long)c->n);
    e |= add_opt(o, "warmup", "%llu", (unsigned long long)c->warmup);
    e |= add_owned(o, "classes", class_list(s->wl));
    if (c->max_tokens > 0)
        e |= add_opt(o, "max_tokens", "%lld", (long long)c->max_tokens);
    else
        e |= add_opt(o, "max_tokens", "by class");
    if (s->wl->format)
        e |= add_opt(o, "workload_format", "%s", s->wl->format);
    if (s->wl->skipped > 0)
        e |= add_opt(o, "workload_skipped", "%lld", (long long)s->wl->skipped);
    if (s->wl->unsendable > 0)
        e |= add_opt(o, "workload_unsendable", "%lld",
                     (long long)s->wl->unsendable);
    e |= add_opt(o, "ignore_eos", "%s", c->ignore_eos ? "true" : "false");
    e |= length_options(s, o);
    if (c->extra_body)
        e |= add_owned(o, "extra_body", sanitize_string(c->extra_body, s->key));
    if (c->duration_s > 0)
        e |= add_opt(o, "duration_s", "%g", c->duration_s);
    e |= add_opt(o, "timeout_s", "%g", c->timeout_s);
    e |= add_opt(o, "idle_timeout_s", "%g", c->idle_timeout_s);
    if (c->connect_timeout_s > 0)
        e |= add_opt(o, "connect_timeout_s", "%g", c->connect_timeout_s);
    e |= add_opt(o, "http2", "%s", c->http2 ? "true" : "false");
    /* what a chunk's t_ns is (transfer.h's kernel_time) */
    e |= add_opt(o, "chunk_time", "%s",
                 c->chunk_time_user || c->http2 ? "user" : "kernel");
    if (c->http2 && !c->chunk_time_user)
        e |= add_opt(o, "chunk_time_why", "%s",
                     "--http2: libcurl may hand one stream's bytes over "
                     "after another stream's read");
    e |= add_opt(o, "retry", "%llu", (unsigned long long)c->retry);
    /* --insecure must show wherever the trace goes (info, bug reports) */
    e |= add_opt(o, "tls_verify", "%s", c->insecure ? "false" : "true");
    if (c->cacert)
        e |= add_owned(o, "cacert", sanitize_string(c->cacert, s->key));
    e |= add_opt(o, "content", "%s", c->no_content ? "false" : "true");
    e |= add_opt(o, "request_id", "%s", c->no_request_id ? "false" : "true");
    e |= add_opt(o, "auth", "%s",
                 !s->auth_header           ? "none"
                 : c->api == API_ANTHROPIC ? "x-api-key"
                                           : "bearer");
    if (s->key_env)
        e |= add_opt(o, "api_key_env", "%s", s->key_env);
    if (s->proxy && s->proxy->from[0]) { /* only when one was set */
        e |= add_opt(o, "proxy", "%s",
                     s->proxy->url[0] ? s->proxy->shown : "none");
        e |= add_opt(o, "proxy_from", "%s", s->proxy->from);
    }
    e |= scale_options(s, late_ns, o);
    e |= add_opt(o, "libcurl", "%s",
                 curl_version_info(CURLVERSION_NOW)->version);
    e |= cline_options(s, o);
    return e ? -1 : 0;
}

void run_make_trace_id(char id[9])
{
    unsigned char b[4];
    uint64_t fallback = (uint64_t)clock_real_ns() ^ (uint64_t)getpid();
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0 || read(fd, b, sizeof b) != (ssize_t)sizeof b)
        memcpy(b, &fallback, sizeof b);
    if (fd >= 0)
        close(fd);
    snprintf(id, 9, "%02x%02x%02x%02x", b[0], b[1], b[2], b[3]);
}

int run_write_header(const struct run_setup *s, int64_t mono_zero,
                     int64_t real_zero, int64_t late_ns,
                     const struct keep_awake *awake)
{
    struct trace_header h;
    struct options o;
    struct trace_kv labels[CLI_MAX_LABELS];
    char *label_values[CLI_MAX_LABELS] = {0};
    char *endpoint = NULL, *url = NULL; /* the key in them hidden */
    char host[256] = "";
    const struct config *c = s->cfg;
    size_t i;
    int rc = TRACE_E_NOMEM;
    memset(&o, 0, sizeof o);
    if (gethostname(host, sizeof host - 1) != 0)
        snprintf(host, sizeof host, "unknown");
    for (i = 0; i < c->n_labels; i++) {
        label_values[i] = sanitize_string(c->labels[i].value, s->key);
        if (!label_values[i])
            goto done;
        labels[i].key = c->labels[i].key;
        labels[i].value = label_values[i];
    }
    endpoint = sanitize_url(s->endpoint, s->key);
    url = sanitize_url(s->url, s->key);
    if (!endpoint || !url || fill_options(s, &o, late_ns, awake))
        goto done;
    memset(&h, 0, sizeof h);
    h.format_version = TRACE_FORMAT_VERSION;
    h.tool_version = TT_VERSION;
    h.trace_id = s->trace_id;
    h.host = host;
    h.command_line = s->command_line;
    h.endpoint = endpoint;
    h.url = url;
    h.api = api_kind_name(c->api);
    h.models = (const char **)c->models;
    h.n_models = c->n_models;
    h.labels = labels;
    h.n_labels = c->n_labels;
    h.workload = s->wl->name;
    h.options = o.kv;
    h.n_options = o.n;
    h.mono_zero_ns = mono_zero;
    h.real_zero_ns = real_zero;
    rc = trace_write_header(s->writer, &h);
done:
    free(endpoint);
    free(url);
    for (i = 0; i < c->n_labels; i++)
        free(label_values[i]);
    for (i = 0; i < o.n; i++)
        free(o.owned[i]);
    return rc;
}
