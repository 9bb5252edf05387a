# summary --format json of `gen_trace t.ttrace 10 20 100 10 label=week=48`
# (tests/analyze/cmd/analyze_summary.sh): 10 requests x 20 tokens, TTFT
# 100 ms, TPOT 10 ms, latency 100 + 10 * 19. One jq expression a line,
# each must be true.
.tool == "tokentrace" and .schema == 1
.traces | length == 1
.groups | length == 2
[.groups[].model] == ["model-a", "model-b"]
all(.groups[]; .class == "short-short" and .requests == 5 and .ok == 5)
all(.groups[]; .ttft_ms.p50 == 100 and .ttft_ms.p99 == 100 and .ttft_ms.n == 5)
all(.groups[]; .tpot_ms.p50 == 10 and .tpot_ms.max == 10)
all(.groups[]; .latency_ms.p50 == 290 and .latency_ms.min == 290)
all(.groups[]; .itl_ms.p50 == 10 and .itl_ms.n == 95)
all(.groups[]; .output_tokens.p50 == 20 and .input_tokens.p50 == 40)
all(.groups[]; .token_source == "usage" and .errors == {})
all(.groups[]; .goodput == null)
# Nothing left out at a distribution's cap (docs/metrics.md, "Capped
# distributions"): the key is always there, empty.
all(.groups[]; .dropped_values == {})
.overall.dropped_values == {}
# Every key of the stable interface.
all(.groups[]; has("model"))
all(.groups[]; has("class"))
all(.groups[]; has("requests"))
all(.groups[]; has("ok"))
all(.groups[]; has("errors"))
all(.groups[]; has("token_source"))
all(.groups[]; has("ttft_ms"))
all(.groups[]; has("tpot_ms"))
all(.groups[]; has("itl_ms"))
all(.groups[]; has("latency_ms"))
all(.groups[]; has("server_ttft_ms"))
all(.groups[]; has("output_tokens"))
all(.groups[]; has("input_tokens"))
all(.groups[]; has("tps"))
all(.groups[]; has("goodput"))
all(.groups[]; .ttft_ms | has("p50"))
all(.groups[]; .ttft_ms | has("p90"))
all(.groups[]; .ttft_ms | has("p95"))
all(.groups[]; .ttft_ms | has("p99"))
all(.groups[]; .ttft_ms | has("p999"))
all(.groups[]; .ttft_ms | has("mean"))
all(.groups[]; .ttft_ms | has("stddev"))
all(.groups[]; .ttft_ms | has("min"))
all(.groups[]; .ttft_ms | has("max"))
all(.groups[]; .ttft_ms | has("n"))
.overall | has("wall_s")
.overall | has("req_per_s")
.overall | has("output_tok_per_s")
.overall | has("ttft_ms")
.overall | has("tpot_ms")
.overall | has("itl_ms")
.overall | has("latency_ms")
.overall | has("requests")
.overall | has("ok")
.overall | has("errors")
# Back to back: 10 x 290 ms plus 9 gaps of 1 ms.
.overall.wall_s == 2.909
(.overall.req_per_s - 10 / 2.909 | fabs) < 0.001
(.overall.output_tok_per_s - 200 / 2.909 | fabs) < 0.01
.overall.ttft_ms.n == 10 and .overall.requests == 10
