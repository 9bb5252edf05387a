/* server_metric_names: the one table of the Prometheus metric families
 * that matter, per server (vLLM, SGLang, TGI, llama.cpp), and what each
 * measures. The recorder keeps a scrape's lines of these families only;
 * the analyzer reads them by the same table (docs/server-metrics.md says
 * where each name was read from). */
#ifndef TT_SERVER_METRIC_NAMES_H
#define TT_SERVER_METRIC_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* What a family measures, server-neutral. */
enum server_quantity {
    SQ_RUNNING = 0,    /* requests running (in a batch), gauge */
    SQ_WAITING,        /* requests waiting (queued, deferred), gauge */
    SQ_KV_USAGE,       /* KV-cache in use, 0..1, gauge */
    SQ_TTFT,           /* time to first token, s, histogram */
    SQ_QUEUE,          /* time queued, s, histogram */
    SQ_PREFILL,        /* time in prefill, s, histogram */
    SQ_DECODE,         /* time in decode, s, histogram */
    SQ_E2E,            /* end-to-end request time, s, histogram */
    SQ_ITL,            /* inter-token latency or time per output token, s */
    SQ_PROMPT_TOKENS,  /* prompt tokens processed: counter, or histogram sum */
    SQ_GEN_TOKENS,     /* tokens generated: counter, or histogram sum */
    SQ_REQUESTS,       /* requests finished, counter */
    SQ_PROMPT_SECONDS, /* time spent on prompts, s, counter (llama.cpp) */
    SQ_GEN_SECONDS,    /* time spent generating, s, counter (llama.cpp) */
    SQ_COUNT
};

enum server_metric_type {
    SMT_GAUGE = 0,
    SMT_COUNTER = 1,
    SMT_HISTOGRAM = 2,
};

struct server_metric {
    const char *server; /* "vllm", "sglang", "tgi", "llamacpp" */
    const char *family; /* as in its # TYPE line */
    enum server_quantity quantity;
    enum server_metric_type type;
};

/* The table, in order of preference: for a quantity, the first family a
 * scrape has wins (vLLM's kv_cache_usage_perc before its older
 * gpu_cache_usage_perc). *n gets its length. */
const struct server_metric *server_metric_table(size_t *n);

/* The entry whose family the sample or TYPE-line name[0, len) belongs to
 * (the family itself, or it with _bucket, _sum, _count, _total or
 * _created), or NULL: a family that does not matter. */
const struct server_metric *server_metric_find(const char *name, size_t len);

/* A short name of a quantity ("running", "ttft", ...), for JSON keys. */
const char *server_quantity_name(enum server_quantity q);

#endif
