/* proxy_header: header and footer records of a proxy run. */
#include "proxy_header.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "rng.h"
#include "sanitize.h"

int proxy_header_write(struct proxy_recorder *rec,
                       const struct proxy_config *cfg, int argc, char **argv,
                       const char *secret, int64_t mono_zero, int64_t real_zero)
{
    struct trace_header h;
    struct trace_kv kv[14];
    char host[256] = "", trace_id[9], buffer[32], timeout[32], ctimeout[32];
    char *cmd = sanitize_command_line(argc, argv, secret);
    char *endpoint = sanitize_url(cfg->upstream, secret);
    size_t n = 0;
    int err;
    if (!cmd || !endpoint) {
        free(cmd);
        free(endpoint);
        return TRACE_E_NOMEM;
    }
    if (gethostname(host, sizeof host - 1) != 0)
        snprintf(host, sizeof host, "unknown");
    {
        uint64_t st = (uint64_t)clock_real_ns() ^ ((uint64_t)getpid() << 32);
        snprintf(trace_id, sizeof trace_id, "%08x",
                 (unsigned)(rng_next(&st) & 0xffffffffu));
    }
    snprintf(buffer, sizeof buffer, "%zu", cfg->client_buffer);
    snprintf(timeout, sizeof timeout, "%g", cfg->timeout_s);
    snprintf(ctimeout, sizeof ctimeout, "%g", cfg->connect_timeout_s);
    kv[n++] = (struct trace_kv){"mode", "proxy"};
    kv[n++] = (struct trace_kv){"listen", cfg->listen};
    kv[n++] =
        (struct trace_kv){"auth", cfg->key_env ? "injected" : "forwarded"};
    if (cfg->key_env)
        kv[n++] = (struct trace_kv){"api_key_env", cfg->key_env};
    kv[n++] = (struct trace_kv){"remote", cfg->allow_remote ? "true" : "false"};
    kv[n++] = (struct trace_kv){"client_buffer", buffer};
    kv[n++] = (struct trace_kv){"timeout_s", timeout};
    kv[n++] = (struct trace_kv){"connect_timeout_s", ctimeout};
    kv[n++] = (struct trace_kv){"content", cfg->no_content ? "false" : "true"};
    kv[n++] = (struct trace_kv){"tls_verify", cfg->insecure ? "false" : "true"};
    kv[n++] = (struct trace_kv){"libcurl",
                                curl_version_info(CURLVERSION_NOW)->version};
    kv[n++] = (struct trace_kv){"chunk_time", /* rx_stamp.h */
                                cfg->chunk_time_user ? "user" : "kernel"};
    memset(&h, 0, sizeof h);
    h.tool_version = TT_VERSION;
    h.trace_id = trace_id;
    h.host = host;
    h.command_line = cmd;
    h.endpoint = endpoint;
    h.url = endpoint;
    h.api = cfg->api;
    h.workload = "proxy";
    h.options = kv;
    h.n_options = n;
    h.mono_zero_ns = mono_zero;
    h.real_zero_ns = real_zero;
    err = trace_write_header(rec->w, &h);
    free(cmd);
    free(endpoint);
    if (!err)
        err = trace_writer_flush(rec->w);
    return err;
}

int proxy_footer_write(struct proxy_recorder *rec, int64_t end_ns,
                       bool interrupted, const char *reason)
{
    struct trace_footer f;
    struct trace_count limits[PROXY_LIMIT_COUNT];
    size_t n = 0;
    memset(&f, 0, sizeof f);
    for (int k = 0; k < PROXY_LIMIT_COUNT; k++)
        if (rec->limits[k])
            limits[n++] =
                (struct trace_count){proxy_limit_name(k), rec->limits[k]};
    f.proxy_limits = limits;
    f.n_proxy_limits = n;
    f.end_ns = end_ns;
    f.requests = rec->ok + rec->failed;
    f.ok = rec->ok;
    f.failed = rec->failed;
    f.chunks = rec->chunks;
    f.bytes = rec->bytes;
    f.interrupted = interrupted;
    f.reason = reason;
    f.recording_stopped = rec->stopped[0] ? rec->stopped : NULL;
    f.unrecorded = rec->unrecorded;
    f.loop_lag_p50_ns = f.loop_lag_p99_ns = f.loop_lag_max_ns = -1;
    lag_samples_result(&rec->receive_lag, &f.receive_lag_p50_ns,
                       &f.receive_lag_p99_ns, &f.receive_lag_max_ns,
                       &f.receive_lag_samples);
    return trace_write_footer(rec->w, &f);
}
