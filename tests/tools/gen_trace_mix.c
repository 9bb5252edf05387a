/* gen_trace_mix: gen_trace --mix, the traces of the plot tests: several
 * models and classes (names given on the command line, so tests can use
 * hostile or Chinese ones), varying output lengths, concurrency, failures
 * and a chosen wall-clock start. Deterministic for a given seed. (Formerly
 * the test_plot_gentrace tool; the header still names it, so the
 * traces stay byte for byte what they were.)
 *
 * usage: gen_trace --mix OUT [-n REQUESTS] [-c CONCURRENCY] [-m MODEL]...
 *          [-k CLASS]... [-z REAL_ZERO_NS] [-f FAIL_EVERY] [-s SEED]
 *          [-l KEY=VALUE]... [-D CLASS_STEP_MS] [-S SHIFT_MS]
 * -D MS: class k's TTFT is k x MS longer (classes that differ, so merging
 * them hides a change); -S MS: every TTFT MS longer (a planted change). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_trace.h"
#include "rng.h"
#include "trace.h"

#define MAX_NAMES 64

static long long num(const char *s)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    if (*end || end == s || v < 0) {
        fprintf(stderr, "gen_trace --mix: bad number '%s'\n", s);
        exit(2);
    }
    return v;
}

struct opts {
    char trace_id[9]; /* gen_trace_id_of_args */
    const char *out;
    long long n, conc, fail_every, real_zero;
    const char *models[MAX_NAMES], *classes[MAX_NAMES];
    struct trace_kv labels[MAX_NAMES];
    size_t n_models, n_classes, n_labels;
    uint64_t rng;              /* splitmix64 state, seeded by -s (default 1) */
    long long distinct_models; /* -M N: models model-0..N-1, round robin */
    long long distinct_kinds;  /* -E N: failures carry kinds kind-0..N-1 */
    long long bad_every;       /* -B K: every K-th request's first chunk
                                  is stamped 1 s before its start */
    long long class_step_ms;   /* -D MS: class k's TTFT + k x MS */
    long long shift_ms;        /* -S MS: every TTFT + MS */
};

/* The next pseudo-random value of this trace. */
static uint64_t rnd(struct opts *o)
{
    return rng_next(&o->rng);
}

static void parse(int argc, char **argv, struct opts *o)
{
    memset(o, 0, sizeof(*o));
    o->n = 40;
    o->conc = 4;
    o->real_zero = 1764460800000000000LL; /* 2025-11-30T00:00:00Z */
    o->rng = 1;
    gen_trace_id_of_args(argc, argv, 2, o->trace_id);
    if (argc < 2) {
        fprintf(stderr,
                "usage: gen_trace --mix OUT [-n N] [-c C] [-m MODEL]... "
                "[-k CLASS]... [-z NS] [-f K] [-s SEED] [-l K=V]... "
                "[-M DISTINCT_MODELS] [-E DISTINCT_ERROR_KINDS] "
                "[-B BAD_TIMES_EVERY] [-D CLASS_STEP_MS] [-S SHIFT_MS]\n");
        exit(2);
    }
    o->out = argv[1];
    for (int i = 2; i + 1 < argc; i += 2) {
        const char *f = argv[i], *v = argv[i + 1];
        if (strcmp(f, "-n") == 0)
            o->n = num(v);
        else if (strcmp(f, "-c") == 0)
            o->conc = num(v) ? num(v) : 1;
        else if (strcmp(f, "-f") == 0)
            o->fail_every = num(v);
        else if (strcmp(f, "-z") == 0)
            o->real_zero = num(v);
        else if (strcmp(f, "-s") == 0)
            o->rng = (uint64_t)num(v);
        else if (strcmp(f, "-M") == 0)
            o->distinct_models = num(v);
        else if (strcmp(f, "-E") == 0)
            o->distinct_kinds = num(v);
        else if (strcmp(f, "-B") == 0)
            o->bad_every = num(v);
        else if (strcmp(f, "-D") == 0)
            o->class_step_ms = num(v);
        else if (strcmp(f, "-S") == 0)
            o->shift_ms = num(v);
        else if (strcmp(f, "-m") == 0 && o->n_models < MAX_NAMES)
            o->models[o->n_models++] = v;
        else if (strcmp(f, "-k") == 0 && o->n_classes < MAX_NAMES)
            o->classes[o->n_classes++] = v;
        else if (strcmp(f, "-l") == 0 && o->n_labels < MAX_NAMES &&
                 strchr(v, '=')) {
            char *copy = strdup(v), *eq = strchr(copy, '=');
            *eq = '\0';
            o->labels[o->n_labels].key = copy;
            o->labels[o->n_labels++].value = eq + 1;
        } else {
            fprintf(stderr, "gen_trace --mix: unknown option '%s'\n", f);
            exit(2);
        }
    }
    if (o->n_models == 0) {
        o->models[o->n_models++] = "model-a";
        o->models[o->n_models++] = "model-b";
    }
    if (o->n_classes == 0)
        o->classes[o->n_classes++] = "short-short";
}

int gen_trace_mix(int argc, char **argv)
{
    struct opts o;
    struct trace_writer *w;
    char chunk[256], rid[64], model[32], kind[32];
    int64_t t0 = 5000000000LL, lane_free[256];
    uint64_t chunks = 0, ok = 0;
    parse(argc, argv, &o);
    if (o.conc > 256)
        o.conc = 256;
    for (int i = 0; i < 256; i++)
        lane_free[i] = t0;
    if (trace_writer_open(o.out, true, &w) != TRACE_OK) {
        perror(o.out);
        return 1;
    }
    trace_writer_set_version(w, 1); /* the same bytes as ever */
    struct trace_header h = {.tool_version = "test_plot_gentrace",
                             .trace_id = o.trace_id,
                             .host = "generator",
                             .command_line = "test_plot_gentrace",
                             .endpoint = "http://generator.invalid",
                             .url =
                                 "http://generator.invalid/v1/chat/completions",
                             .api = "openai-chat",
                             .models = o.models,
                             .n_models = o.n_models,
                             .labels = o.labels,
                             .n_labels = o.n_labels,
                             .workload = "builtin",
                             .mono_zero_ns = t0,
                             .real_zero_ns = o.real_zero};
    trace_write_header(w, &h);
    for (long long i = 1; i <= o.n; i++) {
        size_t m = (size_t)(i - 1) % o.n_models,
               k = (size_t)((i - 1) / o.n_models) % o.n_classes;
        int lane = (int)((i - 1) % o.conc);
        int64_t start =
            lane_free[lane] + 1000000 + (int64_t)(rnd(&o) % 20) * 1000000;
        int64_t ttft = (80 + 60 * (int64_t)m + (int64_t)(rnd(&o) % 40) +
                        o.class_step_ms * (int64_t)k + o.shift_ms) *
                       1000000;
        int64_t tpot = (4 + 3 * (int64_t)m) * 1000000;
        long tokens = 8 + (long)(rnd(&o) % 120), tt;
        bool fail = o.fail_every && i % o.fail_every == 0;
        snprintf(rid, sizeof(rid), "%s-%lld", o.trace_id, i);
        snprintf(model, sizeof(model), "model-%lld",
                 o.distinct_models ? (i - 1) % o.distinct_models : 0);
        snprintf(kind, sizeof(kind), "kind-%lld",
                 o.distinct_kinds ? (i - 1) % o.distinct_kinds : 0);
        struct trace_request q = {.id = (uint32_t)i,
                                  .model =
                                      o.distinct_models ? model : o.models[m],
                                  .class_name = o.classes[k],
                                  .input_tokens_est = 40,
                                  .max_tokens = 256,
                                  .scheduled_ns = -1,
                                  .start_ns = start,
                                  .request_id = rid};
        trace_write_request(w, &q);
        int64_t t = start + ttft;
        if (!fail) {
            for (tt = 0; tt < tokens; tt++) {
                int len = snprintf(chunk, sizeof(chunk),
                                   "data: {\"choices\":[{\"index\":0,\"delta\":"
                                   "{\"content\":\"t%ld \"}}]}\n\n",
                                   tt);
                trace_write_chunk(w, (uint32_t)i,
                                  tt == 0 && o.bad_every && i % o.bad_every == 0
                                      ? start - 1000000000
                                      : t,
                                  chunk, (size_t)len);
                chunks++;
                t += tpot + (int64_t)(rnd(&o) % 3) * 500000;
            }
            int len = snprintf(
                chunk, sizeof(chunk),
                "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":40,"
                "\"completion_tokens\":%ld}}\n\ndata: [DONE]\n\n",
                tokens);
            trace_write_chunk(w, (uint32_t)i, t, chunk, (size_t)len);
            chunks++;
            ok++;
        }
        struct trace_result s = {
            .id = (uint32_t)i,
            .end_ns = t,
            .http_status = fail ? 500 : 200,
            .chunks = fail ? 0 : (uint64_t)tokens + 1,
            .first_byte_ns = fail ? -1 : start + ttft,
            .error_kind = fail && o.distinct_kinds ? kind : NULL,
            .attempt = 1,
            .phases = {-1, -1, -1, -1, -1, ttft, t - start}};
        trace_write_result(w, &s);
        lane_free[lane] = t;
    }
    struct trace_footer f = {.end_ns = t0,
                             .requests = (uint64_t)o.n,
                             .ok = ok,
                             .failed = (uint64_t)o.n - ok,
                             .chunks = chunks,
                             .reason = "complete"};
    trace_write_footer(w, &f);
    int rc = trace_writer_close(w) == TRACE_OK ? 0 : 1;
    for (size_t i = 0; i < o.n_labels; i++)
        free((char *)o.labels[i].key); /* the strdup'd "key=value" copy */
    return rc;
}
