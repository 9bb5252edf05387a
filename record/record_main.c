/* record_main: tokentrace-record's main: prepares a run, prints the
 * summary and picks the exit code (0 done, 1 failed, 2 usage, 3 started
 * after --start-at, 130 signal). */
#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api_key.h"
#include "base_url.h"
#include "check.h"
#include "check_calibrate.h"
#include "cli.h"
#include "cline_msg.h"
#include "cline_print.h"
#include "cline_settings.h"
#include "clock.h"
#include "http_proxy.h"
#include "log.h"
#include "out_error.h"
#include "procs.h"
#include "run.h"
#include "run_match.h"
#include "sanitize.h"
#include "self_test.h"
#include "trace.h"
#include "version.h"
#include "workload.h"
#include "workload_captured.h"
#include "workload_images.h"

#define EXIT_USAGE 2
#define EXIT_LATE 3 /* --start-at had passed: nothing sent */
#define EXIT_SIGNAL 130

/* Prints a usage error (one line and a hint) and returns the usage exit
 * code. */
static int usage_error(const char *msg)
{
    log_error("%s", msg);
    fprintf(stderr, "try --help\n");
    return EXIT_USAGE;
}

/* The default output name: tokentrace-<UTC date>-<time>.ttrace. */
static void default_output(char *out, size_t len)
{
    char stamp[40];
    clock_format_stamp(clock_real_ns(), stamp, sizeof stamp);
    snprintf(out, len, "tokentrace-%s.ttrace", stamp);
}

/* Where the base URL and the key came from (a variable nobody named on
 * the command line decides what is measured, so the run says which). */
static void print_origins(const struct config *cfg, const struct api_key *k)
{
    char url[64] = "";
    if (cfg->base_url_from_env)
        snprintf(url, sizeof url, "base URL from $%s", cfg->base_url_env);
    if (k->value) /* no key: the warning above said where it looked */
        log_note("%s%skey from %s", url, url[0] ? ", " : "", k->source);
    else if (url[0])
        log_note("%s", url);
}

/* -n counts requests per model and class, each taking the class's next
 * line: a class with more lines than -n has lines that are never sent.
 * Says so, with the counts (a run to --duration without -n cycles on). */
static void note_unsent_lines(const struct config *cfg,
                              const struct workload *wl)
{
    const struct workload_class *big = NULL;
    size_t i, classes = 0, unsent = 0;
    if (cfg->duration_s > 0 && !cfg->n_given)
        return;
    for (i = 0; i < wl->n_classes; i++) {
        const struct workload_class *c = &wl->classes[i];
        if (c->n_items <= cfg->n)
            continue;
        if (!big || c->n_items > big->n_items)
            big = c;
        classes++;
        unsent += c->n_items - (size_t)cfg->n;
    }
    if (!big)
        return;
    log_note("%s: %zu line%s never sent: -n %llu sends the first %llu "
             "line%s of each class to each model, and %zu class%s "
             "ha%s more (class '%s' has %zu; -n counts requests per model "
             "and class, -n %zu sends every line)",
             cfg->workload_file, unsent, unsent == 1 ? " is" : "s are",
             (unsigned long long)cfg->n, (unsigned long long)cfg->n,
             cfg->n == 1 ? "" : "s", classes, classes == 1 ? "" : "es",
             classes == 1 ? "s" : "ve", big->name, big->n_items, big->n_items);
}

/* The classes to keep: --classes, else with the built-in workload its
 * single-request classes (with -w agent: the agent class), else all. */
static const char *select_classes(const struct config *cfg)
{
    if (cfg->classes || cfg->arrivals_file ||
        cfg->input_tokens.kind != TOKEN_LENGTH_NONE)
        return cfg->classes;
    if (!cfg->workload_file)
        return WORKLOAD_DEFAULT_CLASSES;
    return workload_is_builtin_name(cfg->workload_file) ? WORKLOAD_AGENT_CLASS
                                                        : NULL;
}

/* Loads -w FILE as --workload-format says; notes the entries skipped. */
static int load_workload_file(const struct config *cfg, struct workload *wl,
                              char *err, size_t errlen)
{
    enum workload_format fmt = WORKLOAD_FORMAT_AUTO;
    int rc;
    if (cfg->workload_format &&
        workload_format_from_name(cfg->workload_format, &fmt) != 0) {
        snprintf(err, errlen, "--workload-format: unknown format '%s'",
                 cfg->workload_format);
        return WORKLOAD_E_INVALID;
    }
    if (workload_is_trace_file(cfg->workload_file))
        return workload_load_captured(cfg->workload_file,
                                      api_kind_name(cfg->api), wl, err, errlen);
    rc = workload_load_file_as(cfg->workload_file, fmt, cfg->dataset_sessions,
                               wl, err, errlen);
    if (!rc && wl->unsendable > 0)
        log_warn("%s; skipped%s (%lld entr%s whose text no request can "
                 "carry, counted in workload_skipped)",
                 wl->unsendable_first,
                 wl->unsendable > 1 ? ", as were others" : "",
                 (long long)wl->unsendable, wl->unsendable == 1 ? "y" : "ies");
    if (!rc && wl->skipped > wl->unsendable)
        log_note("%s: %lld entr%s without a user turn (nothing to send) "
                 "skipped%s",
                 cfg->workload_file, (long long)(wl->skipped - wl->unsendable),
                 wl->skipped - wl->unsendable == 1 ? "y" : "ies",
                 cfg->dataset_sessions ? " (or with assistant turns in a row: "
                                         "not a session)"
                                       : "");
    return rc;
}

/* Loads and narrows the workload; returns 0 or an exit code (having freed
 * the workload). */
static int load_workload(const struct config *cfg, struct workload *wl)
{
    char err[1024] = "";
    int rc =
        cfg->input_tokens.kind != TOKEN_LENGTH_NONE
            ? workload_load_exact((int64_t)cfg->input_tokens.a, wl, err,
                                  sizeof err)
        : cfg->arrivals_file
            ? workload_load_arrivals(cfg->arrivals_file, cfg->speed, wl, err,
                                     sizeof err)
        : cfg->workload_file && !workload_is_builtin_name(cfg->workload_file)
            ? load_workload_file(cfg, wl, err, sizeof err)
            : workload_load_builtin(wl, err, sizeof err);
    if (!rc)
        rc = workload_select(wl, select_classes(cfg), err, sizeof err);
    if (!rc && cfg->images_n > 0) {
        struct workload_images im = {cfg->images_n, cfg->images_w,
                                     cfg->images_h};
        rc = workload_add_images(wl, cfg->api, &im, cfg->seed, err, sizeof err);
    }
    if (!rc) {
        if (cfg->workload_file &&
            !workload_is_builtin_name(cfg->workload_file) &&
            !(wl->format && strcmp(wl->format, WORKLOAD_FORMAT_CAPTURED) == 0))
            note_unsent_lines(cfg, wl); /* a capture: note_captured */
        return 0;
    }
    workload_free(wl);
    if (rc == WORKLOAD_E_NOMEM) {
        log_error("%s", err);
        return EXIT_FAILURE;
    }
    return usage_error(err);
}

/* Prints the end-of-run summary on stderr (unless -q). */
static void print_summary(const struct config *cfg, const char *out_name,
                          const struct run_outcome *o)
{
    char kinds[512] = "", stopped[48] = "";
    size_t i, off = 0;
    if (cfg->quiet)
        return;
    for (i = 0; i < o->n_kinds && off < sizeof kinds; i++)
        off += (size_t)snprintf(kinds + off, sizeof kinds - off, "%s%s: %llu",
                                i ? ", " : " (", o->kinds[i].kind,
                                (unsigned long long)o->kinds[i].count);
    if (o->n_kinds && off < sizeof kinds)
        snprintf(kinds + off, sizeof kinds - off, ")");
    if (o->stopped)
        snprintf(stopped, sizeof stopped, ", %llu interrupted",
                 (unsigned long long)o->stopped);
    log_note("trace: %s", strcmp(out_name, "-") == 0 ? "(stdout)" : out_name);
    log_note("requests: %llu ok, %llu failed%s%s%s%s",
             (unsigned long long)o->ok,
             (unsigned long long)(o->failed - o->stopped), kinds, stopped,
             o->stopped ? " (stopped by the signal, not failures)" : "",
             o->warmup ? " (warmup included)" : "");
    for (i = 0; i < o->n_kinds; i++)
        if (o->kinds[i].first[0])
            log_note("  first %s: %s", o->kinds[i].kind, o->kinds[i].first);
    if (o->retried || o->retry_exhausted) {
        char left[128] = "";
        if (o->retry_exhausted)
            snprintf(left, sizeof left,
                     "; %llu request%s still failed after "
                     "%llu retr%s",
                     (unsigned long long)o->retry_exhausted,
                     o->retry_exhausted == 1 ? "" : "s",
                     (unsigned long long)cfg->retry,
                     cfg->retry == 1 ? "y" : "ies");
        log_note("retries: %llu attempt%s answered 429/503 and sent again "
                 "(not counted as failed requests)%s",
                 (unsigned long long)o->retried, o->retried == 1 ? "" : "s",
                 left);
    }
    if (o->sse_mislabelled)
        log_warn("%llu stream%s came with Content-Type: %s instead of "
                 "text/event-stream but carried SSE events (data: lines): "
                 "recorded as stream%s; the server's header is wrong",
                 (unsigned long long)o->sse_mislabelled,
                 o->sse_mislabelled == 1 ? "" : "s",
                 o->sse_mislabelled_type[0] ? o->sse_mislabelled_type
                                            : "(none)",
                 o->sse_mislabelled == 1 ? "" : "s");
    log_note("wall time: %.2f s%s", (double)(o->end_ns - o->start_ns) / 1e9,
             o->signalled     ? ", interrupted by a signal"
             : o->interrupted ? ", cut short by --duration"
                              : "");
    if (o->failed > o->stopped && o->ok)
        log_note("the run %s, but %llu request%s failed (see the "
                 "error kinds above)",
                 o->signalled ? "was stopped early" : "completed",
                 (unsigned long long)(o->failed - o->stopped),
                 o->failed - o->stopped == 1 ? "" : "s");
}

/* The end of a run where no request succeeded: why (the first message of
 * the commonest error kind, every kind's already printed unless -q), and
 * where to look next. */
static void print_no_success(const struct config *cfg,
                             const struct run_outcome *o)
{
    const struct run_kind_count *top = NULL;
    size_t i;
    for (i = 0; i < o->n_kinds; i++)
        if (o->kinds[i].first[0] && (!top || o->kinds[i].count > top->count))
            top = &o->kinds[i];
    if (top && cfg->quiet)
        log_error("no request succeeded (%llu failed; first %s: %s); "
                  "--check diagnoses the endpoint, key and model",
                  (unsigned long long)o->failed, top->kind, top->first);
    else
        log_error("no request succeeded; --check diagnoses the endpoint, "
                  "key and model (the same options plus --check)");
}

/* The shard and the start instant, said before the wait or the first
 * request (a scheduler's variables decide what this process sends). */
static void print_scale_out(const struct config *cfg)
{
    const struct cli_shard *sh = &cfg->shard;
    char when[48];
    if (sh->count > 1)
        log_note("shard %u/%u (from %s): requests k with k %% %u == %u of "
                 "the global schedule, run id %s (from %s)",
                 sh->index, sh->count, sh->from ? sh->from : "--shard",
                 sh->count, sh->index, cli_shard_run_id(sh), sh->run_id_from);
    if (sh->count > 1 && strcmp(sh->run_id_from, "own") == 0)
        log_warn("shard %u/%u without --start-at or --run-id: its run id is "
                 "its own, so tokentrace-analyze will not join it with the "
                 "other shards (it reads as a run with %u shards missing); "
                 "give every shard the same --start-at, or --run-id",
                 sh->index, sh->count, sh->count - 1);
    if (sh->start_at_ns) {
        cli_format_instant(sh->start_at_ns, when, sizeof when);
        log_note("starting at %s (in %.3f s)", when,
                 (double)(sh->start_at_ns - clock_real_ns()) / 1e9);
    }
}

/* Whether the header carries run_match: a shard, or a given run id. */
static bool run_match_wanted(const struct config *cfg)
{
    return cfg->shard.count > 1 || cfg->shard.run_id;
}

/* The run_match text (run_match.h) when wanted, with the digests of the
 * -w and --arrivals files (read before the start instant, so the wait
 * covers it); NULL when not wanted or out of memory. */
static char *shard_match(const struct config *cfg)
{
    char wd[RUN_MATCH_DIGEST_SIZE], ad[RUN_MATCH_DIGEST_SIZE];
    bool w_ok, a_ok;
    if (!run_match_wanted(cfg))
        return NULL;
    w_ok = cfg->workload_file &&
           run_match_file_digest(cfg->workload_file, wd) == 0;
    a_ok = cfg->arrivals_file &&
           run_match_file_digest(cfg->arrivals_file, ad) == 0;
    return run_match_make(cfg, w_ok ? wd : NULL, a_ok ? ad : NULL);
}

/* Runs with a prepared writer and returns the exit code. */
static int record(const struct config *cfg, struct run_setup *s,
                  const char *out_name)
{
    struct run_outcome o;
    int rc = run_execute(s, &o);
    int close_err = trace_writer_close(s->writer), close_errno = errno;
    s->writer = NULL;
    if (rc == RUN_E_WRITE || (!rc && close_err)) {
        log_error("writing the trace %s failed: %s; the records written "
                  "before it are intact",
                  strcmp(out_name, "-") == 0 ? "to stdout" : out_name,
                  rc == RUN_E_WRITE
                      ? trace_io_strerror(o.write_err, o.write_errno)
                      : trace_io_strerror(close_err, close_errno));
        return EXIT_FAILURE;
    }
    if (rc == RUN_E_LATE) {
        log_error("--start-at: this process began %.3f s after the start "
                  "instant (more than %.0f ms late), so its schedule would "
                  "not line up with the other shards: nothing was sent and "
                  "%s holds no trace; start the shards earlier or give a "
                  "later --start-at",
                  (double)o.late_ns / 1e9, (double)RUN_START_LATE_NS / 1e6,
                  strcmp(out_name, "-") == 0 ? "stdout" : out_name);
        return EXIT_LATE;
    }
    if (rc) {
        log_error("%s",
                  rc == RUN_E_NOMEM
                      ? "out of memory"
                      : "could not start the event loop (libevent/libcurl)");
        return EXIT_FAILURE;
    }
    print_summary(cfg, out_name, &o);
    if (o.signalled)
        return EXIT_SIGNAL;
    if (o.ok == 0) {
        print_no_success(cfg, &o);
        return EXIT_FAILURE;
    }
    return EXIT_SUCCESS;
}

/* A captured trace as the workload: without -n every captured session and
 * request is sent once (-n counts per class: the largest class's); says
 * what is sent and what was skipped. */
static void note_captured(struct config *cfg, const struct workload *wl)
{
    size_t most = 0, sessions = 0, singles = 0;
    for (size_t i = 0; i < wl->n_classes; i++) {
        const struct workload_class *c = &wl->classes[i];
        if (c->n_items > most)
            most = c->n_items;
        for (size_t j = 0; j < c->n_items; j++) {
            if (c->items[j].session)
                sessions++;
            else
                singles++;
        }
    }
    if (!cfg->n_given && !cfg->duration_s)
        cfg->n = most;
    if (!cfg->quiet)
        log_note("%s: a captured trace: %zu session%s and %zu single "
                 "request%s, bodies as captured (model: -m)%s",
                 cfg->workload_file, sessions, sessions == 1 ? "" : "s",
                 singles, singles == 1 ? "" : "s",
                 wl->skipped ? "; requests of another API skipped" : "");
}

/* Everything after the command line is parsed. */
static int prepare_and_record(struct config *cfg)
{
    struct base_url bu;
    struct workload wl;
    struct api_key key;
    struct run_setup s;
    char *match = NULL;
    struct length_fit fits[CLI_MAX_MODELS];
    cJSON *extra = NULL;
    char err[512], trace_id[9], out_buf[128], note[HTTP_PROXY_URL_MAX + 64];
    struct http_proxy_choice proxy;
    const char *out_name = cfg->output;
    char why[OUT_ERROR_SIZE];
    int rc, ret, open_errno;

    /* the key first: a base URL holding it is shown with it hidden */
    if (api_key_load(cfg, &key, err, sizeof err))
        return usage_error(err);
    rc = base_url_normalize(cfg->base_url, cli_request_path(cfg), key.value,
                            &bu);
    if (rc) {
        char msg[sizeof bu.message + 128];
        char nm[160];
        if (cfg->sdk_base)
            snprintf(msg, sizeof msg, "%s:%d: %s: %s", cfg->cline->path,
                     cfg->cline->base_url_line > 0 ? cfg->cline->base_url_line
                                                   : 1,
                     cline_msg_name(cfg->cline, cfg->cline->names.base_url, nm,
                                    sizeof nm),
                     bu.message);
        else
            snprintf(msg, sizeof msg, "%s%s%s%s", bu.message,
                     cfg->base_url_from_env ? " (from $" : "",
                     cfg->base_url_from_env ? cfg->base_url_env : "",
                     cfg->base_url_from_env ? ")" : "");
        api_key_free(&key);
        return usage_error(msg);
    }
    if (bu.message[0])
        log_warn("%s", bu.message);
    ret = load_workload(cfg, &wl);
    if (ret) {
        api_key_free(&key);
        return ret;
    }
    if (wl.format && strcmp(wl.format, WORKLOAD_FORMAT_CAPTURED) == 0)
        note_captured(cfg, &wl);
    /* once per run, and not for a server on this machine (a local
     * llama.cpp or tokentrace-replay rarely wants a key) */
    if (!key.value && !base_url_is_loopback(bu.url))
        log_warn("no API key in %s: sending requests without an auth "
                 "header (fine for tokentrace-replay)",
                 key.source);
    else if (cfg->api == API_ANTHROPIC && !cfg->api_key_env &&
             !key.from_settings && strcmp(key.env, "OPENAI_API_KEY") == 0)
        log_warn("--api anthropic: ANTHROPIC_API_KEY is not set; sending "
                 "the key of $OPENAI_API_KEY as x-api-key");
    for (size_t i = 0; i < cfg->n_models; i++)
        if (strchr(cfg->models[i], ',')) /* -m a,b: one name, said */
            log_warn("-m '%s' is one model of that name: a comma does not "
                     "split -m (two models: -m a -m b)",
                     sanitize_shown(cfg->models[i]));
    if (cfg->extra_body)
        extra = cJSON_Parse(cfg->extra_body);
    if (!out_name) {
        default_output(out_buf, sizeof out_buf);
        out_name = out_buf;
    }
    if (strcmp(out_name, "-") == 0 && isatty(STDOUT_FILENO)) {
        cJSON_Delete(extra);
        api_key_free(&key);
        workload_free(&wl);
        return usage_error("-o -: stdout is a terminal; redirect it to a "
                           "file or a pipe, or use -o FILE");
    }
    if (http_proxy_choose(bu.url, cfg->no_proxy, http_proxy_process, &proxy)) {
        cJSON_Delete(extra);
        api_key_free(&key);
        workload_free(&wl);
        return usage_error("the proxy named by the environment "
                           "(https_proxy, http_proxy, all_proxy) is too long; "
                           "fix it or use --no-proxy");
    }
    if (cfg->shard.procs > 1) { /* the children record; this one joins */
        ret = procs_run(cfg, out_name, cfg->argc, cfg->argv);
        cJSON_Delete(extra);
        api_key_free(&key);
        workload_free(&wl);
        return ret;
    }
    if (cfg->input_tokens.kind != TOKEN_LENGTH_NONE &&
        check_calibrate_all(cfg, bu.url, key.header, key.value, proxy.url,
                            extra, fits, err, sizeof err)) {
        log_error("%s", err);
        cJSON_Delete(extra);
        api_key_free(&key);
        workload_free(&wl);
        return EXIT_FAILURE;
    }
    run_make_trace_id(trace_id);
    memset(&s, 0, sizeof s);
    s.fits = cfg->input_tokens.kind != TOKEN_LENGTH_NONE ? fits : NULL;
    s.proxy = &proxy;
    s.cfg = cfg;
    s.wl = &wl;
    s.arrivals = wl.arrivals;
    s.extra_body = extra;
    s.endpoint = bu.shown_endpoint;
    s.url = bu.url; /* the header stores it hidden (run_header.c) */
    s.auth_header = key.header;
    s.key = key.value;
    s.key_env = key.value && !key.from_settings ? key.env : NULL;
    s.trace_id = trace_id;
    s.command_line = sanitize_command_line(cfg->argc, cfg->argv, key.value);
    match = shard_match(cfg);
    s.run_match = match;
    rc = s.command_line && (match || !run_match_wanted(cfg))
             ? trace_writer_open(out_name, cfg->force, &s.writer)
             : TRACE_E_NOMEM;
    open_errno = errno;
    if (rc == TRACE_OK && cfg->format_version)
        rc = trace_writer_set_version(s.writer, cfg->format_version);
    if (rc == TRACE_OK && (cfg->compress || trace_path_compressed(out_name)))
        rc = trace_writer_set_compression(s.writer, TRACE_ZSTD_LEVEL);
    if (rc == TRACE_E_EXISTS) {
        ret = usage_error(
            trace_open_error(why, sizeof why, out_name, rc, open_errno));
    } else if (rc) {
        log_error("%s",
                  trace_open_error(why, sizeof why, out_name, rc, open_errno));
        ret = EXIT_FAILURE;
    } else {
        log_note("recording to %s: %s, %zu model%s, trace id %s",
                 strcmp(out_name, "-") == 0 ? "stdout" : out_name, bu.shown_url,
                 cfg->n_models, cfg->n_models == 1 ? "" : "s", trace_id);
        if (proxy.from[0])
            log_note("%s", http_proxy_describe(&proxy, note, sizeof note));
        print_scale_out(cfg);
        print_origins(cfg, &key);
        ret = record(cfg, &s, out_name);
    }
    free(match);
    free((char *)s.command_line);
    cJSON_Delete(extra);
    api_key_free(&key);
    workload_free(&wl);
    return ret;
}

int main(int argc, char **argv)
{
    struct config cfg;
    char err[512];
    int rc;
    log_set_program("tokentrace-record");
    if (self_test_wanted(argc, argv)) /* its own few flags */
        return self_test_run(argc, argv);
    rc = cli_parse(argc, argv, &cfg, err, sizeof err);
    if (rc == CLI_HELP || rc == CLI_VERSION) {
        if (rc == CLI_HELP)
            fputs(cli_help_text(), stdout);
        else
            version_print(stdout, "tokentrace-record");
        cli_free(&cfg);
        return EXIT_SUCCESS;
    }
    if (rc != CLI_OK) {
        cli_free(&cfg);
        return usage_error(err);
    }
    log_set_quiet(cfg.quiet ? LOG_QUIET_NOTES : LOG_QUIET_NONE);
    cline_settings_warn(cfg.cline, &cfg);
    if (cfg.print_cline_settings) {
        rc = cline_print_settings(stdout, &cfg, err, sizeof err);
        cli_free(&cfg);
        if (rc == 2)
            return usage_error(err);
        if (rc)
            log_error("%s", err);
        return rc;
    }
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        log_error("libcurl failed to initialize");
        cli_free(&cfg);
        return EXIT_FAILURE;
    }
    if (cfg.insecure) /* loud, even with -q: the channel is not private */
        fprintf(stderr,
                "tokentrace-record: WARNING: TLS certificate "
                "verification is OFF (--insecure): the server is not "
                "authenticated, anyone on the path can read or change the "
                "requests, answers and auth header; the trace records "
                "tls_verify=false\n");
    run_install_signals();
    rc = cfg.check ? check_run(&cfg) : prepare_and_record(&cfg);
    curl_global_cleanup();
    cli_free(&cfg);
    return rc;
}
