#!/usr/bin/env python3
"""Writes the /metrics samples of tests/data/server_metrics/ (README.md).

Each server gets three snapshots of its Prometheus text page, as its own
code would print them: <server>_0.prom before a run (history from earlier
traffic), <server>_1.prom during it (requests running and waiting, KV cache
in use) and <server>_2.prom after it, where every histogram and counter has
grown by the observations below. The tests compare the analyzer's deltas
with these numbers. Run it again after changing them: the files are
committed, this script only says how they were made.
"""
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = "Qwen/Qwen2.5-0.5B-Instruct"

# What the run added (12 requests), per quantity, in seconds.
RUN_TTFT = [0.045, 0.051, 0.048, 0.062, 0.055, 0.047, 0.12, 0.049, 0.053,
            0.058, 0.044, 0.21]
RUN_QUEUE = [0.001, 0.002, 0.001, 0.015, 0.003, 0.001, 0.07, 0.002, 0.001,
             0.004, 0.001, 0.16]
RUN_PREFILL = [0.031, 0.035, 0.033, 0.04, 0.036, 0.032, 0.045, 0.034, 0.036,
               0.039, 0.03, 0.047]
RUN_DECODE = [0.38, 0.41, 0.4, 0.45, 0.39, 0.42, 0.5, 0.4, 0.41, 0.44, 0.37,
              0.55]
RUN_E2E = [t + d for t, d in zip(RUN_TTFT, RUN_DECODE)]
RUN_ITL = [0.005] * 200 + [0.006] * 30 + [0.009] * 10
RUN_PROMPT_TOKENS = [27, 31, 29, 1100, 1210, 1180, 28, 30, 1150, 26, 1190, 33]
RUN_GEN_TOKENS = [20] * 12

# Earlier traffic, already in the counters before the run.
OLD_TTFT = [0.05] * 30 + [0.3] * 5
OLD_QUEUE = [0.001] * 33 + [0.5] * 2
OLD_PREFILL = [0.04] * 35
OLD_DECODE = [0.6] * 35
OLD_E2E = [0.65] * 35
OLD_ITL = [0.007] * 600
OLD_PROMPT_TOKENS = [500] * 35
OLD_GEN_TOKENS = [18] * 35

VLLM_TTFT_B = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5,
               0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0,
               640.0, 2560.0]
VLLM_TPOT_B = [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75,
               1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0]
VLLM_LAT_B = [0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0,
              40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0]
SGL_TTFT_B = [0.1, 0.2, 0.4, 0.6, 0.8, 1, 2, 4, 6, 8, 10, 20, 40, 60, 80,
              100, 200, 400]
SGL_E2E_B = [0.1, 0.2, 0.4, 0.6, 0.8, 1, 2, 4, 6, 8, 10, 20, 40, 60, 80, 100,
             200, 400, 600, 1200, 1800, 2400]
SGL_ITL_B = [0.002, 0.004, 0.006, 0.008, 0.010, 0.015, 0.020, 0.025, 0.030,
             0.035, 0.040, 0.060, 0.080, 0.100, 0.200, 0.400, 0.600, 0.800,
             1.000, 2.000, 4.000, 6.000, 8.000]
SGL_QUEUE_B = [0.0, 0.1, 0.2, 0.5, 1, 2, 3, 4, 5, 10, 15, 20, 30, 40, 50, 60,
               70, 80, 90, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000,
               1200, 1400, 1600, 1800, 2000, 2500, 3000]
# TGI (router/src/server.rs, metrics-exporter-prometheus): every metric
# whose name ends in "duration" gets 35 buckets, 0.0001 x 1.5^k (k from 1);
# input lengths 100 buckets of max_input_tokens / 100, generated tokens 100
# of max_total_tokens / 100 (the defaults 4095 and 4096 here).
TGI_DUR_B = [0.0001 * 1.5 ** k for k in range(1, 36)]
TGI_IN_B = [4095 / 100.0 * (x + 1) for x in range(100)]
TGI_GEN_B = [4096 / 100.0 * (x + 1) for x in range(100)]


def fmt(v):
    """A float as prometheus_client writes it (repr, 1.0 not 1)."""
    if v == math.inf:
        return "+Inf"
    r = repr(float(v))
    return r


def le_fmt(v):
    return fmt(v)


def hist_lines(name, labels, buckets, obs, le_first=True, style="python"):
    """Lines of one histogram series (cumulative buckets, sum, count)."""
    out = []
    for b in buckets + [math.inf]:
        n = sum(1 for o in obs if o <= b + 1e-12)
        le = le_fmt(b) if style == "python" else (
            "+Inf" if b == math.inf else "%g" % b)
        if style == "python":
            lab = "le=\"%s\"" % le
            if labels:
                lab = (labels + "," + lab) if not le_first else (
                    lab + "," + labels)
            out.append("%s_bucket{%s} %s" % (name, lab, fmt(n)))
        else:
            lab = "le=\"%s\"" % le
            out.append("%s_bucket{%s} %d" % (name, lab, n))
    s = sum(obs)
    if style == "python":
        br = "{%s}" % labels if labels else ""
        out.append("%s_sum%s %s" % (name, br, fmt(s)))
        out.append("%s_count%s %s" % (name, br, fmt(len(obs))))
    else:
        out.append("%s_sum %s" % (name, repr(round(s, 9))))
        out.append("%s_count %d" % (name, len(obs)))
    return out


def py_hist(name, doc, labels, buckets, obs, created, le_first=False):
    lines = ["# HELP %s %s" % (name, doc), "# TYPE %s histogram" % name]
    lines += hist_lines(name, labels, buckets, obs, le_first)
    lines.append("%s_created{%s} %s" % (name, labels, fmt(created)))
    return lines


def py_counter(name, doc, labels_values, created):
    lines = ["# HELP %s_total %s" % (name, doc),
             "# TYPE %s_total counter" % name]
    lines = ["# HELP %s %s" % (name, doc), "# TYPE %s counter" % name]
    for labels, v in labels_values:
        lines.append("%s_total{%s} %s" % (name, labels, fmt(v)))
    for labels, _ in labels_values:
        lines.append("%s_created{%s} %s" % (name, labels, fmt(created)))
    return lines


def py_gauge(name, doc, labels, v):
    return ["# HELP %s %s" % (name, doc), "# TYPE %s gauge" % name,
            "%s{%s} %s" % (name, labels, fmt(v))]


def python_process_noise():
    """What prometheus_client adds on every page: GC and process."""
    return [
        "# HELP python_gc_objects_collected_total Objects collected during gc",
        "# TYPE python_gc_objects_collected_total counter",
        "python_gc_objects_collected_total{generation=\"0\"} 18423.0",
        "python_gc_objects_collected_total{generation=\"1\"} 4120.0",
        "python_gc_objects_collected_total{generation=\"2\"} 1107.0",
        "# HELP python_info Python platform information",
        "# TYPE python_info gauge",
        "python_info{implementation=\"CPython\",major=\"3\",minor=\"12\","
        "patchlevel=\"3\",version=\"3.12.3\"} 1.0",
        "# HELP process_resident_memory_bytes Resident memory size in bytes.",
        "# TYPE process_resident_memory_bytes gauge",
        "process_resident_memory_bytes 2.147483648e+09",
        "# HELP process_open_fds Number of open file descriptors.",
        "# TYPE process_open_fds gauge",
        "process_open_fds 73.0",
    ]


STATES = [  # running, waiting, kv, part of the run's observations included
    (0, 0, 0.0, 0.0),
    (4, 2, 0.3125, 0.5),
    (0, 0, 0.015625, 1.0),
]


def part(run, frac):
    return run[:int(round(len(run) * frac))]


def vllm(k):
    running, waiting, kv, frac = STATES[k]
    lab = "engine=\"0\",model_name=\"%s\"" % MODEL
    c = 1764572400.5
    L = python_process_noise()
    L += py_gauge("vllm:num_requests_running",
                  "Number of requests in model execution batches.", lab,
                  float(running))
    L += py_gauge("vllm:num_requests_waiting",
                  "Number of requests waiting to be processed.", lab,
                  float(waiting))
    L += py_gauge("vllm:gpu_cache_usage_perc",
                  "GPU KV-cache usage. 1 means 100 percent usage."
                  "DEPRECATED: Use vllm:kv_cache_usage_perc instead.", lab,
                  kv)
    L += py_gauge("vllm:kv_cache_usage_perc",
                  "KV-cache usage. 1 means 100 percent usage.", lab, kv)
    L += py_counter("vllm:prefix_cache_queries",
                    "Prefix cache queries, in terms of number of queried "
                    "tokens.", [(lab, 17500.0 + 900 * k)], c)
    ptok = OLD_PROMPT_TOKENS + part(RUN_PROMPT_TOKENS, frac)
    gtok = OLD_GEN_TOKENS + part(RUN_GEN_TOKENS, frac)
    L += py_counter("vllm:prompt_tokens",
                    "Number of prefill tokens processed.",
                    [(lab, float(sum(ptok)))], c)
    L += py_counter("vllm:generation_tokens",
                    "Number of generation tokens processed.",
                    [(lab, float(sum(gtok)))], c)
    n_old, n_run = len(OLD_TTFT), len(part(RUN_TTFT, frac))
    L += py_counter("vllm:request_success",
                    "Count of successfully processed requests.",
                    [(lab + ",finished_reason=\"stop\"", float(n_old)),
                     (lab + ",finished_reason=\"length\"", float(n_run)),
                     (lab + ",finished_reason=\"abort\"", 0.0)], c)
    L += py_hist("vllm:request_prompt_tokens",
                 "Number of prefill tokens processed.", lab,
                 [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000,
                  10000, 20000], ptok, c)
    L += py_hist("vllm:time_to_first_token_seconds",
                 "Histogram of time to first token in seconds.", lab,
                 VLLM_TTFT_B, OLD_TTFT + part(RUN_TTFT, frac), c)
    L += py_hist("vllm:time_per_output_token_seconds",
                 "Histogram of time per output token in seconds.", lab,
                 VLLM_TPOT_B, OLD_ITL + part(RUN_ITL, frac), c)
    L += py_hist("vllm:e2e_request_latency_seconds",
                 "Histogram of e2e request latency in seconds.", lab,
                 VLLM_LAT_B, OLD_E2E + part(RUN_E2E, frac), c)
    L += py_hist("vllm:request_queue_time_seconds",
                 "Histogram of time spent in WAITING phase for request.", lab,
                 VLLM_LAT_B, OLD_QUEUE + part(RUN_QUEUE, frac), c)
    L += py_hist("vllm:request_inference_time_seconds",
                 "Histogram of time spent in RUNNING phase for request.",
                 lab, VLLM_LAT_B,
                 [a + b for a, b in zip(OLD_PREFILL, OLD_DECODE)], c)
    L += py_hist("vllm:request_prefill_time_seconds",
                 "Histogram of time spent in PREFILL phase for request.",
                 lab, VLLM_LAT_B, OLD_PREFILL + part(RUN_PREFILL, frac), c)
    L += py_hist("vllm:request_decode_time_seconds",
                 "Histogram of time spent in DECODE phase for request.", lab,
                 VLLM_LAT_B, OLD_DECODE + part(RUN_DECODE, frac), c)
    L += ["# HELP vllm:cache_config_info Information of the LLMEngine "
          "CacheConfig",
          "# TYPE vllm:cache_config_info gauge",
          "vllm:cache_config_info{block_size=\"16\",cache_dtype=\"auto\","
          "engine=\"0\",gpu_memory_utilization=\"0.9\",num_gpu_blocks="
          "\"27495\"} 1.0"]
    return L


def sglang(k):
    running, waiting, kv, frac = STATES[k]
    lab = "model_name=\"%s\"" % MODEL
    c = 1764572400.25
    L = python_process_noise()
    L += py_counter("sglang:prompt_tokens",
                    "Number of prefill tokens processed.",
                    [(lab, float(sum(OLD_PROMPT_TOKENS +
                                     part(RUN_PROMPT_TOKENS, frac))))], c)
    L += py_counter("sglang:generation_tokens",
                    "Number of generation tokens processed.",
                    [(lab, float(sum(OLD_GEN_TOKENS +
                                     part(RUN_GEN_TOKENS, frac))))], c)
    L += py_counter("sglang:num_requests", "Number of requests processed.",
                    [(lab, float(len(OLD_TTFT) +
                                 len(part(RUN_TTFT, frac))))], c)
    L += py_gauge("sglang:num_running_reqs", "The number of running "
                  "requests.", lab, float(running))
    L += py_gauge("sglang:num_used_tokens", "The number of used tokens.",
                  lab, float(int(kv * 161721)))
    L += py_gauge("sglang:token_usage", "The token usage.", lab, kv)
    L += py_gauge("sglang:gen_throughput",
                  "The generation throughput (token/s).", lab,
                  180.5 if running else 0.0)
    L += py_gauge("sglang:num_queue_reqs",
                  "The number of requests in the waiting queue.", lab,
                  float(waiting))
    L += py_gauge("sglang:cache_hit_rate", "The prefix cache hit rate.", lab,
                  0.0075)
    L += py_hist("sglang:time_to_first_token_seconds",
                 "Histogram of time to first token in seconds.", lab,
                 SGL_TTFT_B, OLD_TTFT + part(RUN_TTFT, frac), c)
    L += py_hist("sglang:inter_token_latency_seconds",
                 "Histogram of inter-token latency in seconds.", lab,
                 SGL_ITL_B, OLD_ITL + part(RUN_ITL, frac), c)
    L += py_hist("sglang:e2e_request_latency_seconds",
                 "Histogram of End-to-end request latency in seconds", lab,
                 SGL_E2E_B, OLD_E2E + part(RUN_E2E, frac), c)
    L += py_hist("sglang:queue_time_seconds",
                 "Histogram of queueing time in seconds.", lab, SGL_QUEUE_B,
                 OLD_QUEUE + part(RUN_QUEUE, frac), c)
    return L


def tgi(k):
    """metrics-exporter-prometheus: no HELP for undescribed ones, counters
    and gauges as integers, histograms without _created."""
    running, waiting, kv, frac = STATES[k]
    L = []
    n = len(OLD_TTFT) + len(part(RUN_TTFT, frac))
    L += ["# TYPE tgi_request_count counter", "tgi_request_count %d" % n]
    L += ["# TYPE tgi_request_success counter", "tgi_request_success %d" % n]
    L += ["# TYPE tgi_batch_current_size gauge",
          "tgi_batch_current_size %d" % running]
    L += ["# TYPE tgi_queue_size gauge", "tgi_queue_size %d" % waiting]
    L += ["# TYPE tgi_batch_current_max_tokens gauge",
          "tgi_batch_current_max_tokens %d" % (running * 1600)]
    for name, b, obs in [
            ("tgi_request_duration", TGI_DUR_B,
             OLD_E2E + part(RUN_E2E, frac)),
            ("tgi_request_queue_duration", TGI_DUR_B,
             OLD_QUEUE + part(RUN_QUEUE, frac)),
            ("tgi_request_inference_duration", TGI_DUR_B,
             [a + b for a, b in zip(OLD_PREFILL + part(RUN_PREFILL, frac),
                                     OLD_DECODE + part(RUN_DECODE, frac))]),
            ("tgi_request_mean_time_per_token_duration", TGI_DUR_B,
             [0.0052] * n),
            ("tgi_request_input_length", TGI_IN_B,
             OLD_PROMPT_TOKENS + part(RUN_PROMPT_TOKENS, frac)),
            ("tgi_request_generated_tokens", TGI_GEN_B,
             OLD_GEN_TOKENS + part(RUN_GEN_TOKENS, frac))]:
        L.append("# TYPE %s histogram" % name)
        L += hist_lines(name, "", b, obs, style="rust")
    L += ["# TYPE tgi_batch_forward_duration histogram"]
    for method in ("prefill", "decode"):
        obs = [0.03] * (n if method == "prefill" else 20 * n)
        for b in TGI_DUR_B + [math.inf]:
            le = "+Inf" if b == math.inf else "%g" % b
            L.append("tgi_batch_forward_duration_bucket{method=\"%s\","
                     "le=\"%s\"} %d" % (method, le,
                                       sum(1 for o in obs if o <= b)))
        L.append("tgi_batch_forward_duration_sum{method=\"%s\"} %s"
                 % (method, repr(round(sum(obs), 9))))
        L.append("tgi_batch_forward_duration_count{method=\"%s\"} %d"
                 % (method, len(obs)))
    return L


def llamacpp(k):
    """server.cpp's handle_metrics: HELP, TYPE, value for each, in the
    order of its table; values as std::stringstream prints doubles."""
    running, waiting, kv, frac = STATES[k]
    ptok = OLD_PROMPT_TOKENS + part(RUN_PROMPT_TOKENS, frac)
    gtok = OLD_GEN_TOKENS + part(RUN_GEN_TOKENS, frac)
    pms = sum(p * 0.25 for p in ptok)          # 0.25 ms per prompt token
    gms = sum(g * 5.5 for g in gtok)           # 5.5 ms per generated token

    def num(v):
        return ("%.6g" % v)

    rows = [
        ("counter", "prompt_tokens_total", "Number of prompt tokens "
         "processed.", num(sum(ptok))),
        ("counter", "prompt_seconds_total", "Prompt process time",
         num(pms / 1e3)),
        ("counter", "tokens_predicted_total", "Number of generation tokens "
         "processed.", num(sum(gtok))),
        ("counter", "tokens_predicted_seconds_total", "Predict process time",
         num(gms / 1e3)),
        ("counter", "n_decode_total", "Total number of llama_decode() calls",
         num(sum(gtok))),
        ("counter", "n_busy_slots_per_decode", "Average number of busy slots "
         "per llama_decode() call", num(1.7)),
        ("gauge", "prompt_tokens_seconds", "Average prompt throughput in "
         "tokens/s.", num(sum(ptok) / (pms / 1e3))),
        ("gauge", "predicted_tokens_seconds", "Average generation throughput "
         "in tokens/s.", num(sum(gtok) / (gms / 1e3))),
        ("gauge", "kv_cache_usage_ratio", "KV-cache usage. 1 means 100 "
         "percent usage.", num(kv)),
        ("gauge", "kv_cache_tokens", "KV-cache tokens.",
         num(int(kv * 8192))),
        ("gauge", "requests_processing", "Number of requests processing.",
         num(running)),
        ("gauge", "requests_deferred", "Number of requests deferred.",
         num(waiting)),
    ]
    L = []
    for typ, name, help_, v in rows:
        L += ["# HELP llamacpp:%s %s" % (name, help_),
              "# TYPE llamacpp:%s %s" % (name, typ),
              "llamacpp:%s %s" % (name, v)]
    return L


def main():
    for server, fn in (("vllm", vllm), ("sglang", sglang), ("tgi", tgi),
                       ("llamacpp", llamacpp)):
        for k in range(3):
            with open(os.path.join(HERE, "%s_%d.prom" % (server, k)), "w",
                      newline="\n") as f:
                f.write("\n".join(fn(k)) + "\n")


if __name__ == "__main__":
    main()
