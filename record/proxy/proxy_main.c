/* proxy_main: tokentrace-proxy's main: settings, the trace, the event
 * loop until SIGINT/SIGTERM, the footer. Exit 0 after a signal (the
 * usual way to stop it), 1 on a failure, 2 on a usage error. */
#include <errno.h>
#include <event2/event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base_url.h"
#include "clock.h"
#include "log.h"
#include "out_error.h"
#include "proxy_access.h"
#include "proxy_cli.h"
#include "proxy_cline.h"
#include "proxy_config.h"
#include "proxy_header.h"
#include "proxy_record.h"
#include "proxy_server.h"
#include "sanitize.h"
#include "trace.h"
#include "version.h"

#define FLUSH_MS 100

struct proxy_main {
    struct event_base *base;
    struct proxy_recorder rec;
    bool stopped_by_signal;
};

/* Refuses an upstream URL that carries a credential, as the recorder's
 * base URL check does: "user:password@" or a query string or fragment
 * ("?key=K" would be appended to and stored with every request path). The
 * message names neither secret. Returns 0 or the exit code 2. */
static int check_upstream(const char *upstream, const char *key)
{
    struct base_url bu;
    int rc = base_url_normalize(upstream, "", key, &bu);
    if (rc != BASE_URL_E_USERINFO && rc != BASE_URL_E_QUERY)
        return 0;
    log_error("-u: %s", bu.message);
    return 2;
}

/* A variable's value for a key or token: set, not empty, one line. NULL
 * (with a message naming the variable, never the value) otherwise. */
static const char *secret_env(const char *flag, const char *var)
{
    const char *v = getenv(var);
    if (!v || !*v) {
        log_error("%s %s: the variable is not set or empty", flag, var);
        return NULL;
    }
    for (const char *p = v; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f) {
            log_error("%s %s: the value holds a control character (a line "
                      "break?)",
                      flag, var);
            return NULL;
        }
    return v;
}

static void on_signal(evutil_socket_t fd, short what, void *arg)
{
    struct proxy_main *m = arg;
    (void)fd;
    (void)what;
    m->stopped_by_signal = true;
    event_base_loopbreak(m->base);
}

/* Every FLUSH_MS: the buffered records go to the file. A write error
 * (the disk is full, ulimit -f) stops the recording, not the proxy: the
 * agents' streams go on, and it says so now and at the end. */
static void on_flush(evutil_socket_t fd, short what, void *arg)
{
    struct proxy_main *m = arg;
    (void)fd;
    (void)what;
    if (!m->rec.err && trace_writer_pending(m->rec.w))
        proxy_recorder_failed(&m->rec, trace_writer_flush(m->rec.w));
}

/* tokentrace-proxy-<UTC date>-<time>.ttrace, .zst when compressed */
static void default_output(char *out, size_t len, bool compressed)
{
    char stamp[40];
    clock_format_stamp(clock_real_ns(), stamp, sizeof stamp);
    snprintf(out, len, "tokentrace-proxy-%s.ttrace%s", stamp,
             compressed ? ".zst" : "");
}

static int write_port_file(const char *path, unsigned port)
{
    char tmp[4096], why[OUT_ERROR_SIZE];
    FILE *f;
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    f = fopen(tmp, "w");
    if (!f || fprintf(f, "%u\n", port) < 0 || fclose(f) != 0 ||
        rename(tmp, path) != 0) {
        log_error("--port-file: %s", out_error(why, sizeof why, path, errno));
        return -1;
    }
    return 0;
}

/* Checks the listen address: loopback, or --allow-remote. */
static int check_listen(const struct proxy_config *cfg)
{
    char host[256];
    unsigned port;
    if (proxy_access_listen(cfg->listen, host, sizeof host, &port)) {
        log_error("--listen wants HOST:PORT (127.0.0.1:8088), got '%s'",
                  cfg->listen);
        return 2;
    }
    if (!cfg->allow_remote && !proxy_access_loopback(host)) {
        log_error("--listen %s is not a loopback address: anyone who can "
                  "reach it could spend your upstream key. Add "
                  "--allow-remote --token-env VAR to require a local token",
                  cfg->listen);
        return 2;
    }
    return 0;
}

/* The start line: a URL to paste into the client's base URL setting
 * (issue 32), the upstream without its secrets, the trace. */
static void say_listening(const struct proxy_config *cfg,
                          struct proxy_server *srv, const char *key,
                          const char *out)
{
    char host[256] = "127.0.0.1";
    unsigned lport;
    char *shown = sanitize_url(cfg->upstream, key);
    if (proxy_access_listen(cfg->listen, host, sizeof host, &lport))
        snprintf(host, sizeof host, "127.0.0.1");
    log_note("listening on http://%s%s%s:%u/v1, forwarding to %s, "
             "recording to %s%s%s",
             strchr(host, ':') ? "[" : "", host, strchr(host, ':') ? "]" : "",
             proxy_server_port(srv), shown ? shown : "[redacted]", out,
             key ? "; the key from $" : "", key ? cfg->key_env : "");
    free(shown);
}

int main(int argc, char **argv)
{
    struct proxy_config cfg;
    struct proxy_main m;
    struct proxy_server *srv = NULL;
    struct event *sig_int = NULL, *sig_term = NULL, *flush = NULL;
    struct timeval every = {0, FLUSH_MS * 1000};
    const char *key = NULL, *token = NULL;
    char out_name[128], err[512], why[OUT_ERROR_SIZE];
    const char *out;
    int rc, wrc, open_errno, close_errno;
    int64_t mono_zero, real_zero;

    log_set_program("tokentrace-proxy");
    rc = proxy_cli_parse(argc, argv, &cfg, err, sizeof err);
    if (rc == PROXY_CLI_HELP || rc == PROXY_CLI_VERSION) {
        if (rc == PROXY_CLI_HELP)
            fputs(proxy_cli_help_text(), stdout);
        else
            version_print(stdout, "tokentrace-proxy");
        return 0;
    }
    if (rc != PROXY_CLI_OK) {
        log_error("%s", err);
        fputs("try --help\n", stderr);
        return 2;
    }
    if (cfg.print_cline) {
        rc = proxy_cline_print(stdout, &cfg, err, sizeof err);
        if (rc)
            log_error("%s", err);
        return rc;
    }
    log_set_quiet(LOG_QUIET_NONE);
    if ((rc = check_listen(&cfg)) != 0)
        return rc;
    if (strncmp(cfg.upstream, "http://", 7) != 0 &&
        strncmp(cfg.upstream, "https://", 8) != 0) {
        log_error("-u wants an http:// or https:// base URL");
        return 2;
    }
    if (cfg.key_env && !(key = secret_env("--key-env", cfg.key_env)))
        return 2;
    if ((rc = check_upstream(cfg.upstream, key)) != 0)
        return rc;
    if (cfg.token_env && !(token = secret_env("--token-env", cfg.token_env)))
        return 2;
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != 0) {
        log_error("libcurl failed to initialize");
        return 1;
    }
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN); /* ulimit -f: a failed write, not a kill */
    memset(&m, 0, sizeof m);
    m.rec.timeout_s = cfg.timeout_s;
    m.rec.kernel_time = !cfg.chunk_time_user;
    m.rec.max_requests = cfg.max_requests;
    m.rec.max_bytes = cfg.max_bytes;
    if (!cfg.output) {
        default_output(out_name, sizeof out_name, !cfg.no_compress);
        out = out_name;
    } else {
        out = cfg.output;
    }
    rc = trace_writer_open(out, cfg.force, &m.rec.w);
    open_errno = errno;
    /* compressed by default: an agent's capture repeats its history in
     * every request */
    if (rc == TRACE_OK && !cfg.no_compress)
        rc = trace_writer_set_compression(m.rec.w, TRACE_ZSTD_LEVEL);
    if (rc != TRACE_OK) {
        log_error("%s", trace_open_error(why, sizeof why, out, rc, open_errno));
        trace_writer_close(m.rec.w);
        return rc == TRACE_E_EXISTS ? 2 : 1;
    }
    mono_zero = clock_mono_ns();
    real_zero = clock_real_ns();
    rc =
        proxy_header_write(&m.rec, &cfg, argc, argv, key, mono_zero, real_zero);
    m.base = event_base_new();
    if (!rc && proxy_sessions_new(0, &m.rec.sessions))
        rc = TRACE_E_NOMEM;
    if (rc || !m.base) {
        log_error("%s: cannot write the trace header: %s", out,
                  trace_io_strerror(rc ? rc : TRACE_E_NOMEM,
                                    trace_writer_errno(m.rec.w)));
        rc = 1;
        goto done;
    }
    if (proxy_server_new(m.base, &cfg, &m.rec, key, token, &srv, err,
                         sizeof err)) {
        log_error("%s", err);
        rc = 1;
        goto done;
    }
    if (cfg.port_file &&
        write_port_file(cfg.port_file, proxy_server_port(srv))) {
        rc = 1;
        goto done;
    }
    sig_int = evsignal_new(m.base, SIGINT, on_signal, &m);
    sig_term = evsignal_new(m.base, SIGTERM, on_signal, &m);
    flush = event_new(m.base, -1, EV_PERSIST, on_flush, &m);
    if (!sig_int || !sig_term || !flush || evsignal_add(sig_int, NULL) ||
        evsignal_add(sig_term, NULL) || event_add(flush, &every)) {
        log_error("cannot set up the event loop");
        rc = 1;
        goto done;
    }
    say_listening(&cfg, srv, key, out);
    event_base_dispatch(m.base);
    rc = m.rec.err ? 1 : 0;
    if (m.rec.err)
        log_error("%s: cannot write the trace: %s; recording stopped there "
                  "and %llu request(s) after it were forwarded, not "
                  "recorded",
                  out,
                  trace_io_strerror(m.rec.err, trace_writer_errno(m.rec.w)),
                  (unsigned long long)m.rec.limits[PROXY_LIMIT_UNRECORDED]);
done:
    proxy_server_free(srv); /* in-flight requests: interrupted */
    if (m.rec.w && !m.rec.err && m.base)
        proxy_footer_write(&m.rec, clock_mono_ns(), m.stopped_by_signal,
                           m.stopped_by_signal ? "signal" : "write_error");
    wrc = trace_writer_close(m.rec.w);
    close_errno = errno;
    proxy_sessions_free(m.rec.sessions);
    lag_samples_free(&m.rec.receive_lag);
    if (wrc && !rc) {
        log_error("%s: %s", out, trace_io_strerror(wrc, close_errno));
        rc = 1;
    }
    if (rc == 0 && !cfg.quiet)
        log_note("%s: %llu requests (%llu ok, %llu failed), %llu chunks", out,
                 (unsigned long long)(m.rec.ok + m.rec.failed),
                 (unsigned long long)m.rec.ok, (unsigned long long)m.rec.failed,
                 (unsigned long long)m.rec.chunks);
    if (sig_int)
        event_free(sig_int);
    if (sig_term)
        event_free(sig_term);
    if (flush)
        event_free(flush);
    if (m.base)
        event_base_free(m.base);
    curl_global_cleanup();
    return rc;
}
