/* check_calibrate: the calibration probes of --input-tokens and their
 * fit. */
#include "check_calibrate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_probe.h"
#include "log.h"
#include "request_body.h"
#include "tcp_rtt.h"

/* Sends one probe of `bytes` bytes of prompt for model; *tokens is the
 * server's usage.prompt_tokens (-1 none). Returns 0, or -1 with err. */
static int probe(const struct check_calib_setup *s, size_t model, size_t bytes,
                 int64_t *tokens, char *err, size_t errlen)
{
    const char *name = s->cfg->models[model];
    struct request_body_opts bo;
    struct workload_item item;
    struct check_probe_setup ps;
    struct check_probe p;
    struct trace_request req;
    struct probe_facts f;
    struct transfer_env env;
    char *body;
    int rc;
    memset(&env, 0, sizeof env);
    memset(&item, 0, sizeof item);
    item.prompt = exact_prompt_probe(bytes);
    if (!item.prompt)
        goto nomem;
    memset(&bo, 0, sizeof bo);
    bo.api = s->cfg->api;
    bo.model = name;
    /* the shortest answer the API takes: prefill is what is measured */
    bo.max_tokens = s->cfg->api == API_OPENAI_RESPONSES ? 16 : 1;
    bo.extra = s->extra;
    body = request_body_build(&bo, &item);
    free(item.prompt);
    if (!body)
        goto nomem;
    memset(&req, 0, sizeof req);
    req.id = 1;
    req.model = name;
    req.class_name = "calibration";
    req.scheduled_ns = -1;
    memset(&ps, 0, sizeof ps);
    ps.tc = s->tc;
    ps.env = &env;
    ps.idle_timeout_s = s->tc->idle_timeout_s;
    ps.key = s->key;
    memset(&f, 0, sizeof f);
    rc = check_probe_run(&ps, body, false, &req, &p, &f);
    tcp_socks_free(&env.socks); /* the probe's sockets: it has ended */
    if (rc) {
        check_probe_free(&p);
        goto nomem;
    }
    if (p.kind[0] || f.http_status >= 400) {
        snprintf(err, errlen,
                 "calibration of %s: the probe of %zu bytes failed: %s "
                 "(HTTP %d)%s%s; tokentrace-record --check says why",
                 name, bytes, p.kind[0] ? p.kind : "http_error", f.http_status,
                 p.stream_message[0] ? ": " : "", p.stream_message);
        check_probe_free(&p);
        return -1;
    }
    *tokens = p.stream.usage_input_tokens;
    check_probe_free(&p);
    return 0;
nomem:
    snprintf(err, errlen, "calibration of %s: out of memory", name);
    return -1;
}

/* Fits cfg->models[model]: probes of EXACT_PROBE_SMALL and
 * EXACT_PROBE_LARGE bytes. A reply without usage.prompt_tokens gives the
 * fallback fit (out->fallback; the caller warns). Returns 0, or -1 with a
 * one-line reason in err (a probe failed: its error kind, HTTP status and
 * the server's message; out of memory). */
static int check_calibrate(const struct check_calib_setup *s, size_t model,
                           struct length_fit *out, char *err, size_t errlen)
{
    int64_t t1 = -1, t2 = -1;
    if (probe(s, model, EXACT_PROBE_SMALL, &t1, err, errlen))
        return -1;
    if (t1 < 0) { /* no usage: the second probe would say no more */
        length_fit_fallback(out);
        out->probe_bytes[0] = EXACT_PROBE_SMALL;
        out->probes = 1;
        return 0;
    }
    if (probe(s, model, EXACT_PROBE_LARGE, &t2, err, errlen))
        return -1;
    if (t2 < 0 ||
        length_fit_solve(EXACT_PROBE_SMALL, t1, EXACT_PROBE_LARGE, t2, out)) {
        if (t2 >= 0) {
            snprintf(err, errlen,
                     "calibration of %s: the server counted %lld tokens for "
                     "%d bytes and %lld for %d: they do not grow with the "
                     "prompt, so no fit",
                     s->cfg->models[model], (long long)t1, EXACT_PROBE_SMALL,
                     (long long)t2, EXACT_PROBE_LARGE);
            return -1;
        }
        length_fit_fallback(out);
        out->probes = 2;
    }
    return 0;
}

int check_calibrate_all(const struct config *cfg, const char *url,
                        const char *auth_header, const char *key,
                        const char *proxy, const cJSON *extra,
                        struct length_fit *fits, char *err, size_t errlen)
{
    struct transfer_config tc;
    struct check_calib_setup s = {cfg, &tc, extra, key};
    double limit = cfg->timeout_s < 60 ? cfg->timeout_s : 60;
    memset(&tc, 0, sizeof tc);
    tc.url = url;
    tc.auth_header = auth_header;
    tc.api = cfg->api;
    tc.http2 = cfg->http2;
    tc.timeout_s = limit;
    tc.timeout_ms = (long)(limit * 1000.0 + 0.5);
    tc.connect_timeout_ms = (long)(cfg->connect_timeout_s * 1000.0 + 0.5);
    tc.idle_timeout_s =
        cfg->idle_timeout_s < limit ? cfg->idle_timeout_s : limit;
    tc.insecure = cfg->insecure;
    tc.cacert = cfg->cacert;
    tc.proxy = proxy;
    for (size_t i = 0; i < cfg->n_models; i++) {
        struct length_fit *f = &fits[i];
        if (check_calibrate(&s, i, f, err, errlen))
            return -1;
        if (f->fallback)
            log_warn("calibration of %s: the server reports no "
                     "usage.prompt_tokens; prompts are sized at 4 bytes a "
                     "token (not exact: a server that reports usage gets "
                     "calibrated)",
                     cfg->models[i]);
        else
            log_note("calibration of %s: %.4f tokens per byte + %.1f "
                     "(probes of %lld and %lld bytes: %lld and %lld tokens)",
                     cfg->models[i], f->k, f->overhead,
                     (long long)f->probe_bytes[0], (long long)f->probe_bytes[1],
                     (long long)f->probe_tokens[0],
                     (long long)f->probe_tokens[1]);
    }
    return 0;
}
