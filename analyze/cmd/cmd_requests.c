/* cmd_requests: `tokentrace-analyze requests TRACE...`: one row per request
 * with every per-request metric, as CSV (header row, RFC 4180) or JSON Lines,
 * for spreadsheets, DuckDB and jq. Rows stream out as requests are read. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_options.h"
#include "buf.h"
#include "commands.h"
#include "doc_out.h"
#include "json_writer.h"
#include "log.h"
#include "shard_gate.h"
#include "stage_window.h"
#include "text_out.h"

enum row_mode { ROW_CSV_HEADER, ROW_CSV, ROW_JSON };

/* One row being written: the same calls produce the CSV header, a CSV row or
 * a JSON object, so names and values cannot drift apart. */
struct row {
    struct buf *b;
    enum row_mode mode;
    unsigned col;
};

struct requests_ctx {
    enum row_mode mode;
    bool measured; /* --classify measured: class is the measured class */
    /* the stages' transient requests, read ahead (NULL: from stdin, not
     * known; warned at the first stage request) */
    const struct stage_window *window;
    bool warned_stdin;
    struct buf line;
    int write_failed;
};

/* Decimals of every millisecond value: nanosecond resolution. */
#define MS_DECIMALS 6

static void row_key(struct row *r, const char *name)
{
    if (r->col++)
        buf_puts(r->b, ",");
    if (r->mode == ROW_JSON)
        buf_printf(r->b, "\"%s\":", name);
    else if (r->mode == ROW_CSV_HEADER)
        buf_puts(r->b, name);
}

/* A string column; NULL is undefined (empty field, JSON null). */
static void row_str(struct row *r, const char *name, const char *v)
{
    row_key(r, name);
    if (r->mode == ROW_JSON)
        json_put_cstr(r->b, v);
    else if (r->mode == ROW_CSV)
        csv_put_field(r->b, v);
}

/* A number column; NaN is undefined. */
static void row_num(struct row *r, const char *name, double v)
{
    row_key(r, name);
    if (r->mode == ROW_CSV)
        num_put(r->b, v, MS_DECIMALS);
    else if (r->mode == ROW_JSON) {
        if (isfinite(v))
            num_put(r->b, v, MS_DECIMALS);
        else
            buf_puts(r->b, "null");
    }
}

/* An integer column, undefined unless known. */
static void row_int(struct row *r, const char *name, long long v, bool known)
{
    row_key(r, name);
    if (r->mode == ROW_CSV_HEADER)
        return;
    if (known)
        buf_printf(r->b, "%lld", v);
    else if (r->mode == ROW_JSON)
        buf_puts(r->b, "null");
}

static void row_bool(struct row *r, const char *name, bool v)
{
    row_key(r, name);
    if (r->mode != ROW_CSV_HEADER)
        buf_puts(r->b, v ? "true" : "false");
}

/* Milliseconds from the trace's time zero to t (NaN when t is unknown). */
static double ms_from_zero(const struct request_metrics *m, int64_t t)
{
    if (t < 0)
        return NAN;
    return (double)(t - m->trace->mono_zero_ns) / 1e6;
}

/* The TTFT waterfall's columns (analyze/metrics/waterfall.h): the
 * timeline in ms from start, then TTFT's attribution; null where not
 * measured. */
static void row_waterfall(struct row *r, const struct waterfall *w)
{
    bool role = !isnan(w->first_token_ms);
    row_num(r, "wf_libcurl_start_ms", w->libcurl_start_ms);
    row_str(r, "wf_conn", w->conn);
    row_num(r, "wf_dns_ms", w->dns_ms);
    row_num(r, "wf_connect_ms", w->connect_ms);
    row_num(r, "wf_tls_ms", w->tls_ms);
    row_num(r, "wf_connect_late_ms", w->measured ? w->connect_late_ms : NAN);
    row_num(r, "wf_sent_ms", w->sent_ms);
    row_bool(r, "wf_sent_full", w->sent_full);
    row_num(r, "wf_headers_ms", w->headers_ms);
    row_num(r, "wf_first_byte_ms", w->first_byte_ms);
    row_num(r, "wf_first_event_ms", w->first_event_ms);
    row_int(r, "wf_role_chunks", w->role_chunks, role);
    row_int(r, "wf_comments", (long long)w->comments, role);
    row_int(r, "wf_pings", (long long)w->pings, role);
    row_num(r, "tcp_rtt_ms", w->rtt_ms);
    row_num(r, "tcp_rttvar_ms", w->rttvar_ms);
    row_num(r, "server_ms", w->server_ms);
    row_str(r, "server_source",
            w->server_source ? waterfall_server_name(w->server_source) : NULL);
    row_num(r, "ttft_client_ms", w->measured ? w->client_ms : NAN);
    row_num(r, "ttft_network_ms", w->measured ? w->network_ms : NAN);
    row_num(r, "ttft_gateway_ms", w->measured ? w->gateway_ms : NAN);
    row_num(r, "headers_to_token_ms", w->measured ? w->after_headers_ms : NAN);
    row_num(r, "ttft_stream_rest_ms", w->measured ? w->stream_rest_ms : NAN);
    row_num(r, "ttft_unaccounted_ms", w->measured ? w->unaccounted_ms : NAN);
    row_bool(r, "clocks_disagree", w->clocks_disagree);
    row_num(r, "wf_proxy_in_ms", w->proxy_in_ms);
    row_num(r, "wf_proxy_out_ms", w->proxy_out_ms);
    row_num(r, "wf_proxy_client_ttft_ms", w->proxy_client_ttft_ms);
}

/* Writes every column of one request (or the header for ROW_CSV_HEADER). */
static void row_fill(struct row *r, struct requests_ctx *c,
                     const struct request_metrics *m)
{
    row_int(r, "trace", m->trace->index, true);
    row_str(r, "file", m->trace->file);
    row_str(r, "trace_id", m->trace->trace_id);
    row_int(r, "id", m->id, true);
    row_str(r, "x_request_id", m->x_request_id);
    row_str(r, "model", m->model);
    row_str(r, "class", c->measured ? m->measured_class : m->class_name);
    row_str(r, "declared_class", m->class_name);
    row_str(r, "measured_class", m->measured_class);
    row_int(r, "prompt_index", m->prompt_index, m->prompt_index >= 0);
    row_bool(r, "warmup", m->warmup);
    row_bool(r, "ok", m->ok);
    row_str(r, "error_kind", m->error_kind);
    row_int(r, "http_status", m->http_status, m->http_status > 0);
    row_num(r, "scheduled_ms", ms_from_zero(m, m->scheduled_ns));
    row_num(r, "start_ms", ms_from_zero(m, m->start_ns));
    row_num(r, "first_token_ms", ms_from_zero(m, m->first_token_ns));
    row_num(r, "last_token_ms", ms_from_zero(m, m->last_token_ns));
    row_num(r, "end_ms", ms_from_zero(m, m->end_ns));
    row_num(r, "ttft_ms", m->ttft_ms);
    row_num(r, "ttft_content_ms", m->ttft_content_ms);
    row_num(r, "server_ttft_ms", m->server_ttft_ms);
    row_num(r, "tpot_ms", m->tpot_ms);
    row_num(r, "latency_ms", m->latency_ms);
    row_num(r, "stream_end_ms", m->stream_end_ms);
    row_int(r, "output_tokens", m->output_tokens, m->output_tokens >= 0);
    row_str(r, "token_source", m->token_source);
    row_int(r, "usage_output_tokens", m->usage_output_tokens,
            m->usage_output_tokens >= 0);
    row_int(r, "token_events", m->token_events, true);
    row_int(r, "reasoning_events", m->reasoning_events, true);
    row_int(r, "input_tokens", m->input_tokens, m->input_tokens >= 0);
    row_num(r, "tps", m->tps);
    row_num(r, "tokens_per_chunk", m->tokens_per_chunk);
    row_num(r, "send_lag_ms", m->send_lag_ms);
    row_num(r, "response_ttft_ms", m->response_ttft_ms);
    row_num(r, "response_latency_ms", m->response_latency_ms);
    row_int(r, "itl_n", (long long)m->n_itl, true);
    row_num(r, "itl_p50_ms", m->itl_p50_ms);
    row_num(r, "itl_max_ms", m->itl_max_ms);
    row_str(r, "error_message", m->error_message);
    /* appended later: after every older column, so positions stay */
    row_int(r, "attempt", m->attempt ? m->attempt : 1, true);
    row_int(r, "retry_of", m->retry_of, m->retry_of != 0);
    row_bool(r, "superseded", m->superseded);
    row_num(r, "tpot_classic_ms", m->tpot_classic_ms);
    row_num(r, "first_event_tokens", m->first_event_tokens);
    row_int(r, "input_tokens_est", m->input_tokens_est,
            m->input_tokens_est >= 0);
    row_str(r, "server_message", m->server_message);
    /* the server's own timings, where the stream carries them */
    row_num(r, "server_prompt_ms", m->server_prompt_ms);
    row_int(r, "server_prompt_n", m->server_prompt_n, m->server_prompt_n >= 0);
    row_int(r, "server_cache_n", m->server_cache_n, m->server_cache_n >= 0);
    row_num(r, "server_decode_ms", m->server_decode_ms);
    row_int(r, "server_predicted_n", m->server_predicted_n,
            m->server_predicted_n >= 0);
    row_num(r, "server_tpot_ms", m->server_tpot_ms);
    row_num(r, "client_overhead_ms", m->client_overhead_ms);
    row_str(r, "finish_reason", m->finish_reason);
    /* gateway forensics */
    row_num(r, "burst_share", m->burst_share);
    row_bool(r, "buffered", m->buffered);
    row_int(r, "keepalives", m->keepalives, true);
    /* capacity: the stage, and whether the request was sent in its
     * ramp-up or ended in its drain (left out of its numbers) */
    row_int(r, "stage", m->stage, m->stage != 0);
    row_key(r, "transient");
    if (r->mode != ROW_CSV_HEADER) {
        if (m->stage && c->window && !m->warmup && !m->superseded)
            buf_puts(r->b,
                     stage_window_transient(c->window, m->trace->index, m->id)
                         ? "true"
                         : "false");
        else if (r->mode == ROW_JSON)
            buf_puts(r->b, "null");
    }
    /* sessions (docs/workloads.md) and prompt caching */
    row_int(r, "session", m->session, m->session != 0);
    row_int(r, "turn", m->turn, m->turn != 0);
    row_int(r, "cached_tokens", m->cached_tokens, m->cached_tokens >= 0);
    row_num(r, "first_tool_ms", m->first_tool_ms);
    /* exact lengths (docs/workloads.md): asked against achieved */
    row_int(r, "asked_input_tokens", m->asked_input_tokens,
            m->asked_input_tokens > 0);
    row_num(r, "input_error_pct", m->input_error_pct);
    row_int(r, "asked_output_tokens", m->asked_output_tokens,
            m->asked_output_tokens > 0);
    row_waterfall(r, &m->waterfall);
}

/* Writes the row built in c->line whole, or nothing and stops the rows
 * (write_failed) when building it ran out of memory or the write failed:
 * every row written is complete, and the exit says the rest is missing. */
static void flush_line(struct requests_ctx *c)
{
    if (!c->write_failed &&
        doc_out_write(stdout, &c->line,
                      c->mode == ROW_JSON ? "requests --format json"
                                          : "requests --format csv") != 0)
        c->write_failed = 1;
    buf_reset(&c->line);
}

/* request_sink: writes one row. */
static int requests_row(void *ctx, const struct request_metrics *m)
{
    struct requests_ctx *c = ctx;
    struct row r = {&c->line, c->mode, 0};
    if (m->stage && !c->window && !c->warned_stdin) {
        c->warned_stdin = true;
        log_warn("requests: stages read from stdin: whether a request was "
                 "transient (ramp-up, drain) needs a second read, so the "
                 "transient column is empty; give the trace as a file");
    }
    if (c->mode == ROW_JSON)
        buf_puts(&c->line, "{");
    row_fill(&r, c, m);
    buf_puts(&c->line, c->mode == ROW_JSON ? "}\n" : "\n");
    flush_line(c);
    return c->write_failed ? -1 : 0;
}

/* The CSV header row: the columns of a blank request. */
static void requests_header(struct requests_ctx *c)
{
    struct trace_info t;
    struct request_metrics m;
    struct row r = {&c->line, ROW_CSV_HEADER, 0};
    memset(&t, 0, sizeof(t));
    memset(&m, 0, sizeof(m));
    m.trace = &t;
    row_fill(&r, c, &m);
    buf_puts(&c->line, "\n");
    flush_line(c);
}

static void requests_help(void)
{
    printf(
        "usage: tokentrace-analyze requests TRACE... [--format csv|json]\n"
        "         [--tokens auto|usage|chunks] [--classify declared|measured]\n"
        "         [--all-attempts] [--merge-anyway]\n"
        "\n"
        "One row per request (warmup and failed requests included, see the\n"
        "warmup, ok and error_kind columns) with every per-request metric of\n"
        "docs/metrics.md, in the order the requests ended in each trace.\n"
        "A request the recorder retried (--retry) is its last attempt: "
        "attempt\n"
        "is its number (1 when never retried) and retry_of the id of the\n"
        "request's first attempt (empty/null on a first attempt).\n"
        "Times *_ms are milliseconds; "
        "scheduled/start/first_token/last_token/end\n"
        "are measured from the trace's time zero. Undefined values are empty\n"
        "(CSV) or null (JSON). itl_p50_ms/itl_max_ms are the median and "
        "largest\n"
        "gap between the request's token events. tpot_ms counts the tokens\n"
        "the first event carried (first_event_tokens) out of the span;\n"
        "tpot_classic_ms is (last - first) / (output_tokens - 1), as other\n"
        "tools report it (docs/metrics.md).\n"
        "input_tokens is the server's count (usage; empty when it reported\n"
        "none, as for most failed requests); input_tokens_est is the\n"
        "recorder's estimate of the prompt (about 4 characters a token).\n"
        "error_message is the recorder's description of a failure;\n"
        "server_message the server's own words (an error reply's message,\n"
        "or the error inside the stream), at most 200 bytes on one line.\n"
        "finish_reason is how the stream said it ended (finish_reason or\n"
        "stop_reason as the server wrote it: stop, length, end_turn...).\n"
        "stage is the --sweep / --search stage (empty outside one); transient\n"
        "is true for a stage's request sent during its ramp-up or ended\n"
        "during its drain, which capacity and summary --by stage leave out\n"
        "(docs/capacity.md; empty outside a stage and for warmup; the inputs\n"
        "are read twice for it, so from stdin it stays empty).\n"
        "session and turn: a session workload's session id and turn index\n"
        "(empty/null otherwise); cached_tokens the input tokens the server\n"
        "said it read from its prompt cache; first_tool_ms the time to the\n"
        "first tool-call token event (docs/metrics.md, \"Sessions\").\n"
        "asked_input_tokens, asked_output_tokens: what --input-tokens and\n"
        "--output-tokens asked; input_error_pct |input_tokens - asked| /\n"
        "asked in %% (docs/workloads.md, \"Exact lengths\").\n"
        "\n"
        "  --format F       csv (default; header row, RFC 4180 quoting; a "
        "text\n"
        "                   field starting with = + - @ gets a leading ' so\n"
        "                   spreadsheets do not run it) or json (JSON Lines,\n"
        "                   exact strings)\n"
        "  --tokens SRC     auto (usage when reported, else chunks), usage, "
        "chunks\n"
        "  --classify HOW   what the class column holds: declared (default) "
        "or\n"
        "                   measured; declared_class and measured_class are\n"
        "                   always there\n"
        "  --all-attempts   also a row for each attempt a retry superseded\n"
        "                   (superseded true; never counted as a request or\n"
        "                   a failure elsewhere); without it they are left "
        "out\n"
        "  --merge-anyway   pool shards of one run id that are not one run\n"
        "                   (their run_match differs; else refused, exit 1);\n"
        "                   said on stderr\n"
        "\n"
        "exit codes: 0 ok (a shard cut or missing is a warning), 1 a trace "
        "was\n"
        "damaged (rows before the damage are written) or unreadable, or its\n"
        "shards are not one run, 2 usage error\n"
        "examples:\n"
        "  tokentrace-analyze requests week48.ttrace > requests.csv\n"
        "  duckdb -c \"select model, median(ttft_ms) from 'requests.csv' group "
        "by 1\"\n"
        "  tokentrace-analyze requests run.ttrace --format json | jq "
        "'select(.ok|not)'\n");
}

int cmd_requests(int argc, char **argv)
{
    struct analyze_options o;
    struct requests_ctx c;
    struct trace_info **infos = NULL;
    size_t n_infos = 0;
    struct stage_window window;
    struct shard_gate gate;
    int rc, st;
    memset(&window, 0, sizeof window);
    rc = analyze_options_parse(argc, argv,
                               OPT_FORMAT | OPT_TOKENS | OPT_CLASSIFY |
                                   OPT_ATTEMPTS | OPT_MERGE,
                               1u << FMT_JSON | 1u << FMT_CSV, "requests", &o);
    if (rc || o.help) {
        if (o.help)
            requests_help();
        free(o.traces);
        return rc;
    }
    if (shard_gate_check(o.traces, o.n_traces, o.merge_anyway, &gate)) {
        free(o.traces); /* a run not one: said, nothing written */
        return 1;
    }
    memset(&c, 0, sizeof(c));
    buf_init(&c.line, 0);
    c.mode = o.format == FMT_JSON ? ROW_JSON : ROW_CSV;
    c.measured = o.load.classify_measured;
    {
        int was_quiet = log_quiet(); /* the second read says the warnings */
        log_set_quiet(LOG_QUIET_ALL);
        st = stage_window_load(&window, o.traces, o.n_traces, &o.load);
        log_set_quiet(was_quiet);
        if (st < 0) {
            log_error("requests: out of memory");
            rc = 1;
            goto done;
        }
        if (st != 2)
            c.window = &window;
    }
    if (c.mode == ROW_CSV)
        requests_header(&c);
    rc = load_trace_files(o.traces, o.n_traces, &o.load, requests_row, NULL, &c,
                          &infos, &n_infos);
    if (c.write_failed) {
        rc = 1; /* said by doc_out_write */
    } else if (fflush(stdout) != 0) {
        log_error("requests: cannot write the output");
        rc = 1;
    }
done:
    load_free_infos(infos, n_infos);
    stage_window_free(&window);
    buf_free(&c.line);
    free(o.traces);
    return rc;
}
