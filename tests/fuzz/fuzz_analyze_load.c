/* fuzz_analyze_load: the analyzer's loader (analyze/load/load.c: trace reader
 * -> stream reconstruction -> per-request metrics) on arbitrary trace files.
 *
 * Input: the whole input is the file; its last byte picks the token mode
 * and the measured classification. Invariants checked beyond "no crash":
 * every request handed out has its strings and inter-token gaps readable,
 * ok requests have a token source and no error kind, failed ones an error
 * kind and no timings; every trace handed to the trace sink is one of those
 * returned; a trace marked damaged names the file and "byte N", and only
 * when the load reports failure. */
#include <math.h>
#include <string.h>

#include "fuzz_common.h"
#include "load.h"
#include "log.h"

struct fuzz_load {
    size_t requests, traces;
    double sum; /* keeps the reads from being optimized away */
};

/* Request sink: reads every field of m. */
static int on_request(void *ctx, const struct request_metrics *m)
{
    struct fuzz_load *f = ctx;
    f->requests++;
    FUZZ_CHECK(m->trace != NULL && m->model && m->class_name);
    FUZZ_CHECK(m->measured_class && m->token_source);
    FUZZ_CHECK(m->ok == (m->error_kind == NULL));
    if (m->error_kind)
        f->sum += (double)strlen(m->error_kind);
    if (m->error_message)
        f->sum += (double)strlen(m->error_message);
    f->sum += (double)(strlen(m->model) + strlen(m->class_name));
    FUZZ_CHECK(m->n_itl == 0 || m->itl_ms != NULL);
    FUZZ_CHECK(m->n_itl == 0 || (int64_t)m->n_itl < m->token_events);
    for (size_t i = 0; i < m->n_itl; i++)
        f->sum += m->itl_ms[i];
    if (!m->ok)
        FUZZ_CHECK(isnan(m->ttft_ms) && isnan(m->tpot_ms) && m->n_itl == 0);
    f->sum += m->ttft_ms + m->tpot_ms + m->latency_ms + m->tps +
              m->server_ttft_ms + m->stream_end_ms + m->tokens_per_chunk;
    return 0;
}

/* Trace sink: counts traces and reads their strings. */
static void on_trace(void *ctx, const struct trace_info *t)
{
    struct fuzz_load *f = ctx;
    f->traces++;
    FUZZ_CHECK(t->file != NULL);
    for (size_t i = 0; i < t->n_models; i++)
        f->sum += (double)strlen(t->models[i]);
    for (size_t i = 0; i < t->n_labels; i++)
        f->sum += (double)strlen(t->labels[i].key) +
                  (double)strlen(t->labels[i].value);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_load f = {0, 0, 0};
    struct load_options opt = {.tokens = TOKENS_AUTO};
    struct trace_info **infos = NULL;
    size_t n_infos = 0;
    const char *path = fuzz_file_put(data, size);
    int rc;
    log_set_quiet(LOG_QUIET_ALL);
    if (size > 0) {
        opt.tokens = (enum token_mode)(data[size - 1] % 3);
        opt.classify_measured = (data[size - 1] & 0x80) != 0;
    }
    rc =
        load_trace_file(path, &opt, on_request, on_trace, &f, &infos, &n_infos);
    FUZZ_CHECK(rc == 0 || rc == 1);
    FUZZ_CHECK(f.traces == n_infos);
    for (size_t i = 0; i < n_infos; i++) {
        const char *d = infos[i]->damage;
        FUZZ_CHECK(infos[i]->index == i);
        /* Damage is only ever the reader's "<file>: byte N: ..." message. */
        FUZZ_CHECK(!d || (rc == 1 && strncmp(d, path, strlen(path)) == 0 &&
                          strstr(d, ": byte ") != NULL));
    }
    load_free_infos(infos, n_infos);
    return 0;
}
