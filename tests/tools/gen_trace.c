/* gen_trace: the one synthetic-trace generator of the tests and benchmarks:
 * valid tokentrace files with known timing, no network involved. Several
 * modes; each writes, for the same arguments, the same bytes as ever.
 *
 * usage: gen_trace OUT.ttrace [requests] [tokens] [ttft_ms] [tpot_ms]
 *                  [jitter_ms] [seed] [NAME=VALUE...]
 *        gen_trace --mix OUT [-n REQUESTS] [-c CONCURRENCY] [-m MODEL]...
 *                  [-k CLASS]... [-z REAL_ZERO_NS] [-f FAIL_EVERY] [-s SEED]
 *                  [-l KEY=VALUE]... [-M DISTINCT_MODELS]
 *                  [-E DISTINCT_ERROR_KINDS]   (gen_trace_mix.c)
 *        gen_trace --replay OUT.ttrace DIR  (gen_trace_replay.c)
 *        gen_trace --definitions OUT  (gen_trace_defs.c)
 *        gen_trace --script [--max-tokens N] [--api KIND] OUT MODEL FILE...
 * (gen_trace_script.c)
 *
 * The default mode: each request streams `tokens` OpenAI chat chunks: the
 * first token at start + ttft, the others tpot apart; usage and [DONE] at
 * the end. Request i uses model "model-a" (odd) or "model-b" (even) and
 * class short-short.
 *
 * Optional, all off by default (the defaults give the same file as ever):
 *   jitter=MS     (or 6th argument) each request's TTFT gets an extra
 *                 uniform [0, MS) ms and each gap between tokens an extra
 *                 uniform [0, MS/10) ms, from a PRNG seeded by
 *   seed=N        (or 7th argument; default 1)
 *   real_s=S      CLOCK_REALTIME of time zero, Unix seconds (default
 *                 1764460800, 2025-11-30T00:00:00Z)
 *   model_a=NAME, model_b=NAME   the two model names
 *   class=NAME    the declared class of every request
 *   label=K=V     a header label (repeatable)
 *   fail_every=N  every Nth request fails: HTTP 500, an error body, no token
 *   warmup=N      the first N requests are warmup requests
 *   trace_id=HEX  the trace id (default: 8 hex digits hashed from the
 *                 options, so other options make another trace)
 *   endpoint=URL  the header's endpoint (default http://generator.invalid)
 *   no_footer=1   end without a footer, as a killed recorder would
 *   usage_extra=N usage counts N more output tokens than the chunks carry
 *                 (a server holding back tokens and merging them)
 *   lag_us=N      the footer's recorder event-loop lateness: p50 N/4,
 *                 p99 and max N microseconds, 100 samples
 *   version=N     trace format version (default 1, the bytes as ever; 2
 *                 ends every record with its CRC-32C) */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_trace.h"
#include "rng.h"
#include "trace.h"

#define MAX_LABELS 8

struct gen_options {
    char default_id[9]; /* gen_trace_id_of_args */
    long n, tokens;
    int64_t ttft_ns, tpot_ns, jitter_ns;
    uint64_t seed;
    int64_t real_zero_ns;
    const char *models[2];
    const char *class_name;
    const char *trace_id;
    const char *endpoint;
    struct trace_kv labels[MAX_LABELS];
    size_t n_labels;
    long fail_every, warmup;
    bool no_footer;
    long usage_extra, lag_us;
    unsigned version;
};

static long number(const char *s)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || end == s || v < 0) {
        fprintf(stderr, "gen_trace: bad number '%s'\n", s);
        exit(2);
    }
    return v;
}

/* Applies one NAME=VALUE argument; exits 2 on an unknown one. */
static void named_arg(struct gen_options *o, char *a)
{
    char *eq = strchr(a, '=');
    const char *v = eq + 1;
    *eq = '\0';
    if (strcmp(a, "jitter") == 0)
        o->jitter_ns = number(v) * 1000000LL;
    else if (strcmp(a, "seed") == 0)
        o->seed = (uint64_t)number(v);
    else if (strcmp(a, "real_s") == 0)
        o->real_zero_ns = (int64_t)number(v) * 1000000000LL;
    else if (strcmp(a, "model_a") == 0)
        o->models[0] = v;
    else if (strcmp(a, "model_b") == 0)
        o->models[1] = v;
    else if (strcmp(a, "class") == 0)
        o->class_name = v;
    else if (strcmp(a, "trace_id") == 0)
        o->trace_id = v;
    else if (strcmp(a, "endpoint") == 0)
        o->endpoint = v;
    else if (strcmp(a, "fail_every") == 0)
        o->fail_every = number(v);
    else if (strcmp(a, "warmup") == 0)
        o->warmup = number(v);
    else if (strcmp(a, "no_footer") == 0)
        o->no_footer = number(v) != 0;
    else if (strcmp(a, "usage_extra") == 0)
        o->usage_extra = number(v);
    else if (strcmp(a, "lag_us") == 0)
        o->lag_us = number(v);
    else if (strcmp(a, "version") == 0)
        o->version = (unsigned)number(v);
    else if (strcmp(a, "label") == 0 && strchr(v, '=') &&
             o->n_labels < MAX_LABELS) {
        char *leq = strchr(v, '=');
        *leq = '\0';
        o->labels[o->n_labels].key = v;
        o->labels[o->n_labels++].value = leq + 1;
    } else {
        fprintf(stderr, "gen_trace: unknown option '%s'\n", a);
        exit(2);
    }
}

/* Positional numbers first (requests tokens ttft tpot jitter seed), then
 * NAME=VALUE options. */
static void parse_args(int argc, char **argv, struct gen_options *o)
{
    long *pos_long[] = {&o->n, &o->tokens};
    int i;
    o->n = 10;
    o->tokens = 20;
    o->ttft_ns = 100 * 1000000LL;
    o->tpot_ns = 10 * 1000000LL;
    o->seed = 1;
    o->real_zero_ns = 1764460800000000000LL; /* 2025-11-30T00:00:00Z */
    o->models[0] = "model-a";
    o->models[1] = "model-b";
    o->class_name = "short-short";
    gen_trace_id_of_args(argc, argv, 2, o->default_id);
    o->trace_id = o->default_id;
    o->endpoint = "http://generator.invalid";
    for (i = 2; i < argc && !strchr(argv[i], '='); i++) {
        long v = number(argv[i]);
        if (i < 4)
            *pos_long[i - 2] = v;
        else if (i == 4)
            o->ttft_ns = v * 1000000LL;
        else if (i == 5)
            o->tpot_ns = v * 1000000LL;
        else if (i == 6)
            o->jitter_ns = v * 1000000LL;
        else if (i == 7)
            o->seed = (uint64_t)v;
        else {
            fprintf(stderr, "gen_trace: too many numbers\n");
            exit(2);
        }
    }
    for (; i < argc; i++) {
        if (!strchr(argv[i], '=')) {
            fprintf(stderr, "gen_trace: expected NAME=VALUE, got '%s'\n",
                    argv[i]);
            exit(2);
        }
        named_arg(o, argv[i]);
    }
}

/* A uniform delay in [0, max_ns) (0 when max_ns is 0). */
static int64_t jitter(uint64_t *state, int64_t max_ns)
{
    return max_ns > 0 ? (int64_t)(rng_next(state) % (uint64_t)max_ns) : 0;
}

/* The default mode: argv[1] OUT, then numbers and NAME=VALUE options. */
static int gen_trace_steady(int argc, char **argv)
{
    struct trace_writer *w;
    struct gen_options o;
    char chunk[256], rid[64];
    int64_t t0 = 1000000000LL, t = t0;
    uint64_t chunks = 0, failed = 0, rng;
    /* An option it does not know is not a file name: `gen_trace --help`
     * once wrote a trace named "--help" (and it was committed). */
    bool asked = argc >= 2 &&
                 (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0);
    if (argc < 2 || argv[1][0] == '-') {
        if (argc >= 2 && !asked)
            fprintf(stderr, "gen_trace: unknown option %s\n", argv[1]);
        fprintf(asked ? stdout : stderr,
                "usage: gen_trace OUT [requests] [tokens] [ttft_ms] "
                "[tpot_ms] [jitter_ms] [seed] [NAME=VALUE...]\n"
                "       gen_trace --mix OUT [-n N] [-c C] [-m MODEL]... "
                "[-k CLASS]... [-z NS] [-f K] [-s SEED] [-l K=V]...\n"
                "       gen_trace --replay OUT DIR\n"
                "       gen_trace --script [--max-tokens N] [--api KIND] OUT "
                "MODEL FILE...\n");
        return asked ? 0 : 2;
    }
    memset(&o, 0, sizeof(o));
    parse_args(argc, argv, &o);
    rng = o.seed;
    if (trace_writer_open(argv[1], true, &w) != TRACE_OK) {
        perror(argv[1]);
        return 1;
    }
    if (trace_writer_set_version(w, o.version ? o.version : 1) != TRACE_OK) {
        fprintf(stderr, "gen_trace: version=%u is not written\n", o.version);
        return 2;
    }
    struct trace_header h = {.tool_version = "gen_trace",
                             .trace_id = o.trace_id,
                             .host = "generator",
                             .command_line = "gen_trace",
                             .endpoint = o.endpoint,
                             .url =
                                 "http://generator.invalid/v1/chat/completions",
                             .api = "openai-chat",
                             .models = o.models,
                             .n_models = 2,
                             .labels = o.labels,
                             .n_labels = o.n_labels,
                             .workload = "builtin",
                             .mono_zero_ns = t0,
                             .real_zero_ns = o.real_zero_ns};
    trace_write_header(w, &h);
    for (long i = 1; i <= o.n; i++) {
        bool fail = o.fail_every > 0 && i % o.fail_every == 0;
        int64_t ttft = o.ttft_ns + jitter(&rng, o.jitter_ns);
        snprintf(rid, sizeof(rid), "%s-%ld", o.trace_id, i);
        struct trace_request q = {.id = (uint32_t)i,
                                  .model = o.models[(i + 1) % 2],
                                  .class_name = o.class_name,
                                  .prompt_index = 0,
                                  .input_tokens_est = 40,
                                  .max_tokens = o.tokens,
                                  .scheduled_ns = -1,
                                  .warmup = i <= o.warmup,
                                  .start_ns = t,
                                  .request_id = rid};
        trace_write_request(w, &q);
        int64_t tt = t + ttft, last = t + ttft - o.tpot_ns;
        int len;
        if (fail) {
            len = snprintf(chunk, sizeof(chunk),
                           "{\"error\":{\"message\":\"synthetic failure\"}}");
            trace_write_chunk(w, (uint32_t)i, tt, chunk, (size_t)len);
            chunks++;
            failed++;
            last = tt;
        }
        for (long k = 0; !fail && k < o.tokens; k++) {
            len = snprintf(chunk, sizeof(chunk),
                           "data: {\"choices\":[{\"index\":0,\"delta\":"
                           "{\"content\":\"tok%ld \"}}]}\n\n",
                           k);
            trace_write_chunk(w, (uint32_t)i, tt, chunk, (size_t)len);
            chunks++;
            last = tt;
            tt += o.tpot_ns + jitter(&rng, o.jitter_ns / 10);
        }
        if (!fail) {
            len = snprintf(
                chunk, sizeof(chunk),
                "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":40,"
                "\"completion_tokens\":%ld}}\n\ndata: [DONE]\n\n",
                o.tokens + o.usage_extra);
            trace_write_chunk(w, (uint32_t)i, last, chunk, (size_t)len);
            chunks++;
        }
        struct trace_kv hdr[] = {
            {"content-type", fail ? "application/json" : "text/event-stream"}};
        struct trace_result s = {
            .id = (uint32_t)i,
            .end_ns = last,
            .http_status = fail ? 500 : 200,
            .headers = hdr,
            .n_headers = 1,
            .chunks = fail ? 1 : (uint64_t)o.tokens + 1,
            .first_byte_ns = t + ttft,
            .attempt = 1,
            .phases = {-1, -1, -1, -1, -1, ttft, last - t}};
        trace_write_result(w, &s);
        t = last + 1000000;
    }
    struct trace_footer f = {.end_ns = t,
                             .requests = (uint64_t)o.n,
                             .ok = (uint64_t)o.n - failed,
                             .failed = failed,
                             .chunks = chunks,
                             .reason = "complete"};
    f.loop_lag_p50_ns = f.loop_lag_p99_ns = f.loop_lag_max_ns = -1;
    if (o.lag_us > 0) {
        f.loop_lag_p50_ns = o.lag_us * 250;
        f.loop_lag_p99_ns = f.loop_lag_max_ns = o.lag_us * 1000;
        f.loop_lag_samples = 100;
    }
    if (!o.no_footer)
        trace_write_footer(w, &f);
    return trace_writer_close(w) == TRACE_OK ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--mix") == 0)
        return gen_trace_mix(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "--replay") == 0)
        return gen_trace_replay(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "--script") == 0)
        return gen_trace_script(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "--definitions") == 0)
        return gen_trace_definitions(argc - 1, argv + 1);
    return gen_trace_steady(argc, argv);
}
