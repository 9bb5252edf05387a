/* cmd_info: `tokentrace-analyze info TRACE`: a markdown block describing a
 * trace for a bug report: who recorded it when against what, the counts and
 * whether the file is whole. Every string from the trace is escaped (trace
 * files come from strangers) and the endpoint is cut to scheme://host:port. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_options.h"
#include "buf.h"
#include "clock.h"
#include "commands.h"
#include "log.h"
#include "text_out.h"

/* Longest text taken from a trace for one value. */
#define INFO_MAX_TEXT 200

struct kind_count {
    char *kind;
    uint64_t n;
    char *message; /* the first one's server words, else its message */
    bool server;
};

/* Counts of the trace being read; reset after each trace's block. */
struct info_ctx {
    uint64_t requests, ok, warmup;
    uint64_t interrupted; /* stopped while streaming: not failed */
    struct kind_count *kinds;
    size_t n_kinds;
    unsigned blocks;
    int write_failed;
};

/* Writes scheme://host[:port] of url into out: no user, password, path,
 * query or fragment ever leaves it. */
static void endpoint_origin(const char *url, char *out, size_t size)
{
    const char *sep = strstr(url, "://");
    const char *auth = sep ? sep + 3 : url, *end, *at;
    size_t scheme_len = sep ? (size_t)(sep - url) : 0;
    end = auth + strcspn(auth, "/?#");
    at = NULL;
    for (const char *p = auth; p < end; p++)
        if (*p == '@')
            at = p;
    if (at)
        auth = at + 1;
    snprintf(out, size, "%.*s%s%.*s", (int)scheme_len, url, sep ? "://" : "",
             (int)(end - auth), auth);
}

/* Keeps what m said on k when k has nothing yet, or only the recorder's
 * words and m brings the server's. */
static void note_message(struct kind_count *k, const struct request_metrics *m)
{
    const char *msg = m->server_message ? m->server_message : m->error_message;
    if (!msg || !msg[0] || k->server || (k->message && !m->server_message))
        return;
    free(k->message);
    k->message = strdup(msg);
    k->server = k->message && m->server_message;
}

static void count_kind(struct info_ctx *c, const char *kind,
                       const struct request_metrics *m)
{
    struct kind_count *p;
    for (size_t i = 0; i < c->n_kinds; i++)
        if (strcmp(c->kinds[i].kind, kind) == 0) {
            c->kinds[i].n++;
            note_message(&c->kinds[i], m);
            return;
        }
    p = realloc(c->kinds, (c->n_kinds + 1) * sizeof(*p));
    if (!p)
        return;
    c->kinds = p;
    memset(&p[c->n_kinds], 0, sizeof(*p));
    p[c->n_kinds].kind = strdup(kind);
    p[c->n_kinds].n = 1;
    if (p[c->n_kinds].kind) {
        note_message(&p[c->n_kinds], m);
        c->n_kinds++;
    }
}

static int cmp_kinds(const void *a, const void *b)
{
    return strcmp(((const struct kind_count *)a)->kind,
                  ((const struct kind_count *)b)->kind);
}

/* request_sink: counts one request of the current trace. */
static int info_count(void *ctx, const struct request_metrics *m)
{
    struct info_ctx *c = ctx;
    c->requests++;
    c->warmup += m->warmup;
    switch (metrics_outcome(m)) {
    case METRICS_OUTCOME_OK:
        c->ok++;
        break;
    case METRICS_OUTCOME_INTERRUPTED: /* as summary: not a failure */
        c->interrupted++;
        break;
    case METRICS_OUTCOME_FAILED:
        count_kind(c, m->error_kind ? m->error_kind : "unknown", m);
        break;
    }
    return 0;
}

/* One "| field | value |" row whose value is escaped trace text. */
static void row_text(struct buf *b, const char *field, const char *value)
{
    buf_printf(b, "| %s | ", field);
    md_put(b, value, INFO_MAX_TEXT);
    buf_puts(b, " |\n");
}

/* "k=v, k=v" of a list of trace key/values, escaped. */
static void row_kv(struct buf *b, const char *field, const struct trace_kv *kv,
                   size_t n)
{
    buf_printf(b, "| %s | ", field);
    if (n == 0)
        buf_puts(b, "-");
    for (size_t i = 0; i < n; i++) {
        buf_puts(b, i ? ", " : "");
        md_put(b, kv[i].key, INFO_MAX_TEXT);
        buf_puts(b, "=");
        md_put(b, kv[i].value, INFO_MAX_TEXT);
    }
    buf_puts(b, " |\n");
}

static void row_integrity(struct buf *b, const struct trace_info *t)
{
    buf_puts(b, "| integrity | ");
    if (t->damage) {
        buf_puts(b, "**damaged**: ");
        md_put(b, t->damage, 0);
        buf_puts(b, "; analyzed up to the damage");
    } else if (!t->has_footer) {
        buf_puts(b, "**no footer**: the recording did not end cleanly");
    } else {
        buf_puts(b, t->interrupted ? "complete, run interrupted" : "complete");
        buf_puts(b, " (footer reason: ");
        md_put(b, t->footer_reason, INFO_MAX_TEXT);
        buf_puts(b, ")");
        if (t->recording_stopped) {
            buf_puts(b, "; **recording stopped** at ");
            md_put(b, t->recording_stopped, INFO_MAX_TEXT);
            buf_printf(b, ": %llu later requests forwarded, not recorded",
                       (unsigned long long)t->unrecorded);
        }
    }
    buf_puts(b, " |\n");
}

/* "| retries | ... |": the --retry setting the trace was recorded with and
 * how many attempts a retry superseded (not counted as requests). */
static void row_retries(struct buf *b, const struct trace_info *t)
{
    const char *setting = trace_info_option(t, "retry");
    buf_puts(b, "| retries | --retry ");
    if (setting)
        md_put(b, setting, INFO_MAX_TEXT);
    else
        buf_puts(b, "not recorded");
    buf_printf(b,
               "; %llu retried attempt%s (sent again, not counted as "
               "requests) |\n",
               (unsigned long long)t->retried, t->retried == 1 ? "" : "s");
}

/* "| proxy | via http://p:3128 (from https_proxy) |", or "direct (...)",
 * when the recording named one (options proxy and proxy_from); nothing
 * when no proxy variable was set. */
static void row_proxy(struct buf *b, const struct trace_info *t)
{
    const char *proxy = trace_info_option(t, "proxy"),
               *from = trace_info_option(t, "proxy_from");
    if (!proxy || !from)
        return;
    buf_puts(b, "| proxy | ");
    if (strcmp(proxy, "none") != 0) {
        buf_puts(b, "via ");
        md_put(b, proxy, INFO_MAX_TEXT);
        buf_puts(b, " (from ");
    } else
        buf_puts(b, strcmp(from, "--no-proxy") == 0
                        ? "direct ("
                        : "direct (the host is in ");
    md_put(b, from, INFO_MAX_TEXT);
    buf_puts(b, ") |\n");
}

/* trace_sink: writes the block of a trace that has just been read. */
static void info_block(void *ctx, const struct trace_info *t)
{
    struct info_ctx *c = ctx;
    struct buf b;
    char tmp[512];
    buf_init(&b, 0);
    buf_puts(&b, c->blocks++ ? "\n### tokentrace trace: "
                             : "### tokentrace trace: ");
    md_put(&b, t->file, 0);
    buf_printf(&b, " (trace %u)\n\n| field | value |\n|---|---|\n", t->index);
    row_text(&b, "trace id", t->trace_id);
    if (t->real_zero_ns > 0)
        buf_printf(&b, "| recorded | %s (UTC) |\n",
                   clock_format_utc(t->real_zero_ns, tmp, sizeof(tmp)));
    else
        buf_puts(&b, "| recorded | unknown |\n");
    if (t->first_start_ns >= 0 && t->last_end_ns > t->first_start_ns)
        buf_printf(&b, "| duration | %.3f s (first start to last end) |\n",
                   (double)(t->last_end_ns - t->first_start_ns) / 1e9);
    row_text(&b, "recorder version", t->tool_version);
    buf_printf(&b, "| trace format | version %u |\n",
               (unsigned)t->format_version);
    buf_puts(&b, "| analyzer | tokentrace-analyze " TT_VERSION " |\n");
    if (t->n_shared)
        row_kv(&b, "shared", t->shared, t->n_shared);
    else
        buf_puts(&b, "| shared | no: the prompts and replies are as recorded "
                     "(tokentrace-analyze share writes a copy without them) "
                     "|\n");
    row_text(&b, "recorder host", t->host);
    if (t->endpoint)
        endpoint_origin(t->endpoint, tmp, sizeof(tmp));
    row_text(&b, "endpoint", t->endpoint ? tmp : NULL);
    row_proxy(&b, t);
    row_text(&b, "API", t->api);
    buf_puts(&b, "| models | ");
    for (size_t i = 0; i < t->n_models; i++) {
        buf_puts(&b, i ? ", " : "");
        md_put(&b, t->models[i], INFO_MAX_TEXT);
    }
    buf_puts(&b, t->n_models ? " |\n" : "- |\n");
    row_kv(&b, "labels", t->labels, t->n_labels);
    row_text(&b, "workload", t->workload);
    row_kv(&b, "options", t->options, t->n_options);
    buf_printf(&b, "| requests | %llu (%llu ok, %llu failed",
               (unsigned long long)c->requests, (unsigned long long)c->ok,
               (unsigned long long)(c->requests - c->ok - c->interrupted));
    if (c->interrupted)
        buf_printf(&b, ", %llu interrupted",
                   (unsigned long long)c->interrupted);
    buf_printf(&b, "), %llu warmup |\n", (unsigned long long)c->warmup);
    buf_puts(&b, "| failed by kind | ");
    if (c->n_kinds > 1)
        qsort(c->kinds, c->n_kinds, sizeof(*c->kinds), cmp_kinds);
    for (size_t i = 0; i < c->n_kinds; i++) {
        buf_puts(&b, i ? ", " : "");
        md_put(&b, c->kinds[i].kind, INFO_MAX_TEXT);
        buf_printf(&b, ": %llu", (unsigned long long)c->kinds[i].n);
        if (c->kinds[i].message) {
            buf_puts(&b, c->kinds[i].server ? " (the server said: " : " (");
            md_put(&b, c->kinds[i].message, INFO_MAX_TEXT);
            buf_puts(&b, ")");
        }
    }
    buf_puts(&b, c->n_kinds ? " |\n" : "- |\n");
    row_retries(&b, t);
    buf_printf(&b, "| chunks | %llu (%llu body bytes) |\n",
               (unsigned long long)t->chunks, (unsigned long long)t->bytes);
    row_integrity(&b, t);
    if (fwrite(b.data, 1, b.len, stdout) != b.len)
        c->write_failed = 1;
    buf_free(&b);
    for (size_t i = 0; i < c->n_kinds; i++) {
        free(c->kinds[i].kind);
        free(c->kinds[i].message);
    }
    free(c->kinds);
    c->kinds = NULL;
    c->n_kinds = 0;
    c->requests = c->ok = c->warmup = c->interrupted = 0;
}

static void info_help(void)
{
    printf(
        "usage: tokentrace-analyze info TRACE...\n"
        "\n"
        "Prints a markdown block per trace to paste into a bug report: "
        "recorder\n"
        "and trace format version, when it was recorded (UTC), the endpoint "
        "as\n"
        "scheme://host:port only, API kind, models, labels, workload, run\n"
        "options, whether it was written by `share` (text replaced by "
        "filler),\n"
        "request counts with failures by kind, the --retry setting\n"
        "and the attempts it sent again, chunks and bytes, and\n"
        "integrity (complete, no footer, or damaged at byte N). Text from the\n"
        "trace is markdown-escaped. Traces never hold API keys.\n"
        "\n"
        "exit codes: 0 ok, 1 a trace was damaged (its block is still printed)\n"
        "or unreadable, 2 usage error\n"
        "example:\n"
        "  tokentrace-analyze info week48.ttrace >> bug-report.md\n");
}

int cmd_info(int argc, char **argv)
{
    struct analyze_options o;
    struct info_ctx c;
    struct trace_info **infos = NULL;
    size_t n_infos = 0;
    int rc = analyze_options_parse(argc, argv, 0, 0, "info", &o);
    if (rc || o.help) {
        if (o.help)
            info_help();
        free(o.traces);
        return rc;
    }
    memset(&c, 0, sizeof(c));
    rc = load_trace_files(o.traces, o.n_traces, &o.load, info_count, info_block,
                          &c, &infos, &n_infos);
    if (fflush(stdout) != 0 || c.write_failed) {
        log_error("info: cannot write the output");
        rc = 1;
    }
    load_free_infos(infos, n_infos);
    free(c.kinds);
    free(o.traces);
    return rc;
}
