#!/usr/bin/env python3
"""vllm_page.py OUT ENGINES: writes a vLLM /metrics page of ENGINES engines
(per-engine gauges and histograms, in the order running, waiting, TTFT,
E2E, ITL, queue time, KV cache): 48 engines are about 385 KB."""
import sys
engines, out = int(sys.argv[2]), []
def fam(name, kind, lines):
    out.append("# HELP %s x\n# TYPE %s %s\n" % (name, name, kind))
    out.extend(lines)
lab = lambda e: 'engine="%d",model_name="org/some-long-model-name-%02d"' % (e, e)
fam("vllm:num_requests_running", "gauge", ["vllm:num_requests_running{%s} %d\n" % (lab(e), 10) for e in range(engines)])
fam("vllm:num_requests_waiting", "gauge", ["vllm:num_requests_waiting{%s} %d\n" % (lab(e), 40) for e in range(engines)])
les = ["0.001", "0.005", "0.01", "0.02", "0.04", "0.06", "0.08", "0.1", "0.25", "0.5", "0.75",
       "1.0", "2.5", "5.0", "7.5", "10.0", "20.0", "40.0", "80.0", "160.0", "640.0", "2560.0", "+Inf"]
for h in ["vllm:time_to_first_token_seconds", "vllm:e2e_request_latency_seconds",
          "vllm:inter_token_latency_seconds", "vllm:request_queue_time_seconds"]:
    lines = []
    for e in range(engines):
        lines += ['%s_bucket{%s,le="%s"} %d\n' % (h, lab(e), le, 5 * (i + 1)) for i, le in enumerate(les)]
        lines += ["%s_sum{%s} 12.5\n" % (h, lab(e)), "%s_count{%s} %d\n" % (h, lab(e), 5 * len(les))]
    fam(h, "histogram", lines)
fam("vllm:kv_cache_usage_perc", "gauge", ["vllm:kv_cache_usage_perc{%s} 0.5\n" % lab(e) for e in range(engines)])
open(sys.argv[1], "w").write("".join(out))
