/* server_metric_names: which Prometheus families matter, per server. */
#include "server_metric_names.h"

#include <string.h>

#include "prom_text.h"

/* Read from each server's source (docs/server-metrics.md names the
 * files): vLLM vllm/v1/metrics/loggers.py, SGLang
 * python/sglang/srt/metrics/collector.py, TGI router/src/server.rs and
 * its metrics:: calls, llama.cpp tools/server/server.cpp (handle_metrics).
 */
static const struct server_metric table[] = {
    {"vllm", "vllm:num_requests_running", SQ_RUNNING, SMT_GAUGE},
    {"vllm", "vllm:num_requests_waiting", SQ_WAITING, SMT_GAUGE},
    {"vllm", "vllm:kv_cache_usage_perc", SQ_KV_USAGE, SMT_GAUGE},
    {"vllm", "vllm:gpu_cache_usage_perc", SQ_KV_USAGE, SMT_GAUGE},
    {"vllm", "vllm:time_to_first_token_seconds", SQ_TTFT, SMT_HISTOGRAM},
    {"vllm", "vllm:request_queue_time_seconds", SQ_QUEUE, SMT_HISTOGRAM},
    {"vllm", "vllm:request_prefill_time_seconds", SQ_PREFILL, SMT_HISTOGRAM},
    {"vllm", "vllm:request_decode_time_seconds", SQ_DECODE, SMT_HISTOGRAM},
    {"vllm", "vllm:e2e_request_latency_seconds", SQ_E2E, SMT_HISTOGRAM},
    {"vllm", "vllm:inter_token_latency_seconds", SQ_ITL, SMT_HISTOGRAM},
    {"vllm", "vllm:time_per_output_token_seconds", SQ_ITL, SMT_HISTOGRAM},
    {"vllm", "vllm:prompt_tokens", SQ_PROMPT_TOKENS, SMT_COUNTER},
    {"vllm", "vllm:generation_tokens", SQ_GEN_TOKENS, SMT_COUNTER},
    {"vllm", "vllm:request_success", SQ_REQUESTS, SMT_COUNTER},
    {"sglang", "sglang:num_running_reqs", SQ_RUNNING, SMT_GAUGE},
    {"sglang", "sglang:num_queue_reqs", SQ_WAITING, SMT_GAUGE},
    {"sglang", "sglang:token_usage", SQ_KV_USAGE, SMT_GAUGE},
    {"sglang", "sglang:time_to_first_token_seconds", SQ_TTFT, SMT_HISTOGRAM},
    {"sglang", "sglang:queue_time_seconds", SQ_QUEUE, SMT_HISTOGRAM},
    {"sglang", "sglang:e2e_request_latency_seconds", SQ_E2E, SMT_HISTOGRAM},
    {"sglang", "sglang:inter_token_latency_seconds", SQ_ITL, SMT_HISTOGRAM},
    {"sglang", "sglang:time_per_output_token_seconds", SQ_ITL, SMT_HISTOGRAM},
    {"sglang", "sglang:prompt_tokens", SQ_PROMPT_TOKENS, SMT_COUNTER},
    {"sglang", "sglang:generation_tokens", SQ_GEN_TOKENS, SMT_COUNTER},
    {"sglang", "sglang:num_requests", SQ_REQUESTS, SMT_COUNTER},
    {"tgi", "tgi_batch_current_size", SQ_RUNNING, SMT_GAUGE},
    {"tgi", "tgi_queue_size", SQ_WAITING, SMT_GAUGE},
    {"tgi", "tgi_request_queue_duration", SQ_QUEUE, SMT_HISTOGRAM},
    {"tgi", "tgi_request_duration", SQ_E2E, SMT_HISTOGRAM},
    {"tgi", "tgi_request_mean_time_per_token_duration", SQ_ITL, SMT_HISTOGRAM},
    {"tgi", "tgi_request_input_length", SQ_PROMPT_TOKENS, SMT_HISTOGRAM},
    {"tgi", "tgi_request_generated_tokens", SQ_GEN_TOKENS, SMT_HISTOGRAM},
    {"tgi", "tgi_request_success", SQ_REQUESTS, SMT_COUNTER},
    {"llamacpp", "llamacpp:requests_processing", SQ_RUNNING, SMT_GAUGE},
    {"llamacpp", "llamacpp:requests_deferred", SQ_WAITING, SMT_GAUGE},
    {"llamacpp", "llamacpp:kv_cache_usage_ratio", SQ_KV_USAGE, SMT_GAUGE},
    {"llamacpp", "llamacpp:prompt_tokens_total", SQ_PROMPT_TOKENS, SMT_COUNTER},
    {"llamacpp", "llamacpp:tokens_predicted_total", SQ_GEN_TOKENS, SMT_COUNTER},
    {"llamacpp", "llamacpp:prompt_seconds_total", SQ_PROMPT_SECONDS,
     SMT_COUNTER},
    {"llamacpp", "llamacpp:tokens_predicted_seconds_total", SQ_GEN_SECONDS,
     SMT_COUNTER},
};

#define N_TABLE (sizeof table / sizeof table[0])

const struct server_metric *server_metric_table(size_t *n)
{
    *n = N_TABLE;
    return table;
}

/* The entry named exactly name[0, len), or NULL. */
static const struct server_metric *exact(const char *name, size_t len)
{
    for (size_t i = 0; i < N_TABLE; i++)
        if (strlen(table[i].family) == len &&
            memcmp(table[i].family, name, len) == 0)
            return &table[i];
    return NULL;
}

const struct server_metric *server_metric_find(const char *name, size_t len)
{
    const struct server_metric *m = exact(name, len);
    size_t fam;
    if (m)
        return m;
    fam = prom_family_len(name, len);
    return fam < len ? exact(name, fam) : NULL;
}

const char *server_quantity_name(enum server_quantity q)
{
    static const char *const names[SQ_COUNT] = {"running",
                                                "waiting",
                                                "kv_cache_usage",
                                                "ttft",
                                                "queue",
                                                "prefill",
                                                "decode",
                                                "e2e",
                                                "itl",
                                                "prompt_tokens",
                                                "generation_tokens",
                                                "requests",
                                                "prompt_seconds",
                                                "generation_seconds"};
    return q < SQ_COUNT ? names[q] : "?";
}
