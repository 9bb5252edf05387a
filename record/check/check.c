/* check: --check orchestration: the base URL and key lines, one probe per
 * model, its verdict, and the exit code. */
#include "check.h"
#include "check_api_alt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api_key.h"
#include "base_url.h"
#include "check_models.h"
#include "check_probe.h"
#include "check_report.h"
#include "check_verdict.h"
#include "cline_msg.h"
#include "cline_settings.h"
#include "clock.h"
#include "http_proxy.h"
#include "log.h"
#include "out_error.h"
#include "request_body.h"
#include "run.h"
#include "sanitize.h"
#include "tcp_rtt.h"
#include "workload.h"

#define EXIT_USAGE 2
#define EXIT_SIGNAL 130

/* The probe prompt: short, and asking for a few dozen tokens. */
static const char probe_prompt[] =
    "Count from 1 to 40 in words, separated by spaces.";

struct check_ctx {
    const struct config *cfg;
    struct base_url bu;
    struct api_key key;
    struct probe_facts key_facts; /* the key part, copied into each probe */
    struct transfer_config tc;
    struct http_proxy_choice proxy;           /* tc.proxy points into it */
    char proxy_note[HTTP_PROXY_URL_MAX + 64]; /* http_proxy_describe, "" none */
    struct transfer_env env;
    struct workload wl;
    cJSON *extra;
    char *command_line;
    char trace_id[9];
    int64_t max_tokens;
    uint64_t chunks, bytes; /* of every probe, for the footer */
    char record_hint[BASE_URL_MAX + 256];
    char base_key[160]; /* the base URL's setting in the Cline file */
};

/* The smaller of a and b. */
static double min_d(double a, double b)
{
    return a < b ? a : b;
}

/* Fills the key facts and prints the key line (never the key). */
static void describe_key(struct check_ctx *c)
{
    struct probe_facts *f = &c->key_facts;
    const char *v = c->key.value, *raw;
    size_t n;
    f->key_source = c->key.source;
    f->key_env = c->key.from_settings ? "" : c->key.env;
    f->anthropic = c->cfg->api == API_ANTHROPIC;
    f->api_kind = c->cfg->api;
    if (v) {
        n = strlen(v);
        f->key_state = CHECK_KEY_SET;
        f->key_len = n;
        f->key_bearer = strncasecmp(v, "Bearer ", 7) == 0;
        f->key_quoted =
            n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0];
        printf(
            "key: %s (set, %zu characters), sent as '%s'\n", c->key.source, n,
            f->anthropic ? "x-api-key: <key>" : "Authorization: Bearer <key>");
        if (f->key_bearer)
            printf("  warning: the key starts with 'Bearer '; 'Bearer ' is "
                   "added when sending: store only the key\n");
        return;
    }
    raw = c->key.from_settings ? c->cfg->api_key_literal : getenv(c->key.env);
    f->key_state = raw ? CHECK_KEY_EMPTY : CHECK_KEY_UNSET;
    printf("key: %s is %s: no auth header is sent (fine for "
           "tokentrace-replay)\n",
           c->key.source, raw ? "set but empty" : "not set");
}

/* Opens -o FILE and writes the header. Returns 0 or an exit code. */
static int open_trace(struct check_ctx *c)
{
    struct run_setup s;
    char why[OUT_ERROR_SIZE];
    int rc = trace_writer_open(c->cfg->output, c->cfg->force, &c->env.writer);
    int open_errno = errno;
    if (rc == TRACE_OK && c->cfg->format_version)
        rc = trace_writer_set_version(c->env.writer, c->cfg->format_version);
    if (rc == TRACE_OK &&
        (c->cfg->compress || trace_path_compressed(c->cfg->output)))
        rc = trace_writer_set_compression(c->env.writer, TRACE_ZSTD_LEVEL);
    if (rc) {
        log_error("%s", trace_open_error(why, sizeof why, c->cfg->output, rc,
                                         open_errno));
        return rc == TRACE_E_EXISTS ? EXIT_USAGE : EXIT_FAILURE;
    }
    memset(&s, 0, sizeof s);
    s.cfg = c->cfg;
    s.wl = &c->wl;
    s.extra_body = c->extra;
    s.endpoint = c->bu.endpoint;
    s.url = c->bu.url;
    s.auth_header = c->key.header;
    s.key = c->key.value;
    s.key_env = c->key.value && !c->key.from_settings ? c->key.env : NULL;
    s.trace_id = c->trace_id;
    s.command_line = c->command_line;
    s.proxy = &c->proxy;
    s.writer = c->env.writer;
    return run_write_header(&s, clock_mono_ns(), clock_real_ns(), 0, NULL)
               ? EXIT_FAILURE
               : 0;
}

/* The recorder arguments that reproduce this check's endpoint and key
 * (the model is added per probe). */
static void record_hint(struct check_ctx *c)
{
    const struct config *cfg = c->cfg;
    snprintf(c->record_hint, sizeof c->record_hint, "%s%s%s%s%s%s%s%s",
             cfg->cline_file ? "--cline-settings " : "",
             cfg->cline_file ? cfg->cline_file : "",
             cfg->cline_file && !cfg->sdk_base ? " " : "",
             cfg->sdk_base ? "" : "-u ",
             cfg->sdk_base ? "" : c->bu.shown_endpoint,
             cfg->api != API_OPENAI_CHAT ? " --api " : "",
             cfg->api != API_OPENAI_CHAT ? api_kind_name(cfg->api) : "",
             cfg->api_key_env_given ? " --api-key-env " : "");
    if (cfg->api_key_env_given) {
        size_t n = strlen(c->record_hint);
        snprintf(c->record_hint + n, sizeof c->record_hint - n, "%s",
                 cfg->api_key_env);
    }
    /* the body options the probe was sent with, shell-quoted; never when
     * the key is in them (the hint is printed) */
    if (cfg->extra_body && !(c->key.value && c->key.value[0] &&
                             strstr(cfg->extra_body, c->key.value))) {
        char q[sizeof c->record_hint];
        size_t n = 0, used = strlen(c->record_hint);
        const char *p;
        for (p = cfg->extra_body; *p && n + 5 < sizeof q; p++) {
            if (*p == '\'') { /* a ' ends the quoting: '\'' */
                memcpy(q + n, "'\\''", 4);
                n += 4;
            } else {
                q[n++] = *p;
            }
        }
        q[n] = '\0';
        if (!*p && used + n + 17 < sizeof c->record_hint) {
            char *o = c->record_hint + used;
            memcpy(o, " --extra-body '", 15);
            memcpy(o + 15, q, n);
            memcpy(o + 15 + n, "'", 2);
        } else /* too long for the hint line */
            snprintf(c->record_hint + used, sizeof c->record_hint - used,
                     " --extra-body ...");
    }
    /* the TLS setting the probe worked with, or recording fails where the
     * check passed */
    if (cfg->cacert || cfg->insecure) {
        size_t n = strlen(c->record_hint);
        snprintf(c->record_hint + n, sizeof c->record_hint - n, "%s%s",
                 cfg->cacert ? " --cacert " : " --insecure",
                 cfg->cacert ? cfg->cacert : "");
    }
    if (cfg->no_proxy) { /* the route the probe took */
        size_t n = strlen(c->record_hint);
        snprintf(c->record_hint + n, sizeof c->record_hint - n, " --no-proxy");
    }
}

/* The settings, the probe workload and the record hint. Returns 0 or an
 * exit code. */
static int prepare(struct check_ctx *c)
{
    const struct config *cfg = c->cfg;
    struct workload_item it;
    memset(&it, 0, sizeof it);
    it.prompt = strdup(probe_prompt);
    it.max_tokens = -1;
    it.input_tokens_est = (int64_t)(sizeof probe_prompt - 1) / 4;
    c->wl.name = strdup("check");
    if (!it.prompt || !c->wl.name || workload_add(&c->wl, "check", &it)) {
        free(it.prompt);
        log_error("out of memory");
        return EXIT_FAILURE;
    }
    if (cfg->extra_body)
        c->extra = cJSON_Parse(cfg->extra_body);
    c->max_tokens = cfg->max_tokens > 0 && cfg->max_tokens < CHECK_MAX_TOKENS
                        ? cfg->max_tokens
                        : CHECK_MAX_TOKENS;
    run_make_trace_id(c->trace_id);
    c->command_line = sanitize_command_line(cfg->argc, cfg->argv, c->key.value);
    c->tc.url = c->bu.url;
    c->tc.auth_header = c->key.header;
    c->tc.api = cfg->api;
    c->tc.http2 = cfg->http2;
    c->tc.insecure = cfg->insecure;
    c->tc.cacert = cfg->cacert;
    c->tc.proxy = c->proxy.url;
    c->tc.timeout_s = cfg->timeout_given
                          ? cfg->timeout_s
                          : min_d(cfg->timeout_s, CHECK_TIMEOUT_S);
    c->tc.idle_timeout_s = cfg->idle_timeout_given
                               ? cfg->idle_timeout_s
                               : min_d(CHECK_IDLE_TIMEOUT_S, c->tc.timeout_s);
    c->tc.timeout_ms = (long)(c->tc.timeout_s * 1000.0 + 0.5);
    c->tc.connect_timeout_ms =
        (long)(1000.0 *
                   (cfg->connect_timeout_s > 0
                        ? cfg->connect_timeout_s
                        : min_d(CHECK_CONNECT_TIMEOUT_S, c->tc.timeout_s)) +
               0.5);
    record_hint(c);
    return c->command_line ? 0 : EXIT_FAILURE;
}

/* The URL of the gateway's model list below base (the endpoint, or its
 * shown form with a key in the path redacted). */
static void models_url(const struct check_ctx *c, const char *base, char *b,
                       size_t len)
{
    size_t n = strlen(base);
    bool v1 = n >= 3 && strcmp(base + n - 3, "/v1") == 0;
    snprintf(b, len, "%s%s/models", base, v1 || c->cfg->sdk_base ? "" : "/v1");
}

/* Probes one model. Returns 1 when it streams, 0 when not, -1 when the
 * probe could not run (memory, trace write). */
static int probe_model(struct check_ctx *c, size_t i)
{
    const char *model = c->cfg->models[i];
    struct request_body_opts bo;
    struct check_probe_setup ps;
    struct check_probe p;
    struct trace_request req;
    struct probe_facts f = c->key_facts;
    struct check_verdict v;
    f.proxy = c->proxy.url[0] ? c->proxy_note : "";
    char rid[48], models[1024] = "", record[sizeof c->record_hint + 256];
    char missing[1024] = "", alt_url[BASE_URL_MAX + 128] = "";
    char *body;
    bool from_file;
    int rc;
    memset(&bo, 0, sizeof bo);
    bo.api = c->cfg->api;
    bo.model = model;
    bo.max_tokens = c->max_tokens;
    bo.extra = c->extra;
    body = request_body_build(&bo, &c->wl.classes[0].items[0]);
    if (!body)
        return -1;
    snprintf(rid, sizeof rid, "%s-%zu", c->trace_id, i + 1);
    memset(&req, 0, sizeof req);
    req.id = (uint32_t)(i + 1);
    req.model = model;
    req.class_name = "check";
    req.input_tokens_est = c->wl.classes[0].items[0].input_tokens_est;
    req.max_tokens = c->max_tokens;
    req.scheduled_ns = -1;
    req.request_id = c->cfg->no_request_id ? NULL : rid;
    memset(&ps, 0, sizeof ps);
    ps.tc = &c->tc;
    ps.env = &c->env;
    ps.idle_timeout_s = c->tc.idle_timeout_s;
    ps.key = c->key.value;
    rc = check_probe_run(&ps, body, !c->cfg->no_content, &req, &p, &f);
    c->chunks += p.chunks;
    c->bytes += p.bytes;
    if (rc) {
        check_probe_free(&p);
        return -1;
    }
    f.model = model;
    f.base = c->bu.shown_endpoint;
    f.url = c->bu.shown_url;
    f.https = strncmp(c->bu.url, "https://", 8) == 0;
    f.sdk_base = c->cfg->sdk_base;
    f.base_key = c->cfg->cline ? cline_msg_name(c->cfg->cline,
                                                c->cfg->cline->names.base_url,
                                                c->base_key, sizeof c->base_key)
                               : "cline.openAiBaseUrl";
    f.max_tokens = c->max_tokens;
    f.timeout_s = c->tc.timeout_s;
    f.idle_timeout_s = c->tc.idle_timeout_s;
    f.connect_timeout_s = (double)c->tc.connect_timeout_ms / 1000.0;
    f.models_hint = models;
    from_file = c->cfg->cline && c->cfg->cline->model &&
                strcmp(c->cfg->cline->model, model) == 0;
    snprintf(record, sizeof record, "%s%s%s", c->record_hint,
             from_file ? "" : " -m ", from_file ? "" : model);
    f.record_hint = record;
    f.models_missing = missing;
    f.api = api_kind_name(c->cfg->api);
    f.alt_api = f.alt_url = "";
    check_verdict_classify(&f, &v);
    if (strcmp(v.id, "unknown-model") == 0 || v.ok) {
        char url[BASE_URL_MAX + 16], shown[BASE_URL_MAX + 96];
        models_url(c, c->bu.endpoint, url, sizeof url);
        models_url(c, c->bu.shown_endpoint, shown, sizeof shown);
        if (v.ok) /* a server that ignores the name answers for any */
            check_models_missing(
                url, shown, c->key.header, c->tc.proxy, f.anthropic, model,
                min_d(5.0, c->tc.timeout_s), missing, sizeof missing);
        else {
            check_models_hint(url, shown, c->key.header, c->tc.proxy,
                              f.anthropic, model, min_d(5.0, c->tc.timeout_s),
                              models, sizeof models);
            check_verdict_classify(&f, &v);
        }
    } else if (strcmp(v.id, "wrong-path") == 0 && !c->cfg->sdk_base) {
        struct check_api_alt alt = {
            .base_url = c->cfg->base_url,
            .api = c->cfg->api,
            .key = c->key.value,
            .proxy = c->tc.proxy,
            .cacert = c->cfg->cacert,
            .insecure = c->cfg->insecure,
            .timeout_s = min_d(5.0, c->tc.timeout_s),
            .item = &c->wl.classes[0].items[0],
            .max_tokens = (long long)c->max_tokens,
        };
        f.alt_status = check_api_alt_find(&alt, model, &f.alt_api, alt_url,
                                          sizeof alt_url);
        if (f.alt_status) {
            f.alt_url = alt_url;
            check_verdict_classify(&f, &v);
        } else {
            f.alt_api = "";
        }
    }
    check_report_probe(model, &f, &v);
    check_probe_free(&p);
    return v.ok ? 1 : 0;
}

/* Writes the footer and closes the trace. Returns 0 or -1. */
static int close_trace(struct check_ctx *c, uint64_t ok, uint64_t failed,
                       bool interrupted)
{
    struct trace_footer ft;
    int rc;
    memset(&ft, 0, sizeof ft);
    ft.end_ns = clock_mono_ns();
    ft.requests = ok + failed;
    ft.ok = ok;
    ft.failed = failed;
    ft.chunks = c->chunks;
    ft.bytes = c->bytes;
    ft.interrupted = interrupted;
    ft.reason = interrupted ? "signal" : "complete";
    rc = trace_write_footer(c->env.writer, &ft);
    rc |= trace_writer_close(c->env.writer);
    c->env.writer = NULL;
    return rc ? -1 : 0;
}

/* Probes every model and prints the result line. */
static int run_probes(struct check_ctx *c)
{
    uint64_t ok = 0, failed = 0;
    size_t i;
    int rc = 0, ret;
    for (i = 0; i < c->cfg->n_models && !run_stop_requested; i++) {
        rc = probe_model(c, i);
        if (rc < 0)
            break;
        if (rc)
            ok++;
        else
            failed++;
        fflush(stdout);
    }
    if (c->env.writer &&
        (close_trace(c, ok, failed, run_stop_requested) || rc < 0)) {
        log_error("writing the trace %s failed", c->cfg->output);
        return EXIT_FAILURE;
    }
    if (rc < 0) {
        log_error("out of memory");
        return EXIT_FAILURE;
    }
    if (run_stop_requested)
        return EXIT_SIGNAL;
    printf("result: %llu of %zu model%s stream%s\n", (unsigned long long)ok,
           c->cfg->n_models, c->cfg->n_models == 1 ? "" : "s",
           ok == c->cfg->n_models ? "" : "; see the fix lines above");
    ret = ok == c->cfg->n_models ? EXIT_SUCCESS : EXIT_FAILURE;
    if (c->cfg->output && !c->cfg->quiet)
        log_note("probe trace: %s", c->cfg->output);
    return ret;
}

int check_run(const struct config *cfg)
{
    struct check_ctx c;
    char err[512];
    int ret;
    memset(&c, 0, sizeof c);
    c.cfg = cfg;
    printf("tokentrace-record --check: one streaming request per model\n");
    /* the key first: a URL holding it is shown with it hidden */
    if (api_key_load(cfg, &c.key, err, sizeof err)) {
        log_error("%s", err);
        return EXIT_USAGE;
    }
    if (check_report_url(cfg, c.key.value, &c.bu)) {
        printf("result: the base URL was refused; nothing was sent\n");
        api_key_free(&c.key);
        return EXIT_FAILURE;
    }
    if (http_proxy_choose(c.bu.url, cfg->no_proxy, http_proxy_process,
                          &c.proxy)) {
        printf("proxy: FAIL: the proxy named by the environment (https_proxy, "
               "http_proxy, all_proxy) is too long\n  fix: correct it, or "
               "--no-proxy to connect directly\n");
        api_key_free(&c.key);
        return EXIT_FAILURE;
    }
    http_proxy_describe(&c.proxy, c.proxy_note, sizeof c.proxy_note);
    if (c.proxy_note[0]) /* every time below includes the proxy's */
        printf("proxy: %s%s\n", c.proxy_note,
               c.proxy.url[0] ? "; --no-proxy connects directly" : "");
    ret = prepare(&c);
    if (!ret) {
        describe_key(&c);
        if (cfg->output)
            ret = open_trace(&c);
        if (!ret) {
            fflush(stdout);
            ret = run_probes(&c);
        }
    }
    if (c.env.writer)
        trace_writer_close(c.env.writer);
    tcp_socks_free(&c.env.socks);
    free(c.command_line);
    cJSON_Delete(c.extra);
    api_key_free(&c.key);
    workload_free(&c.wl);
    return ret;
}
