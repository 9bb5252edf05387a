# compare --format json of base.ttrace against slow.ttrace
# (tests/analyze/compare/analyze_compare.sh): gen_trace 40 20 100 10 10 1
# against 40 20 150 10 10 2, a 50 ms TTFT regression with jitter. One jq
# expression a line, each must be true.
.tool == "tokentrace" and .command == "compare" and .method.seed == 1
.comparisons | length == 1
[.comparisons[0].groups[] | .model] == ["model-a", "model-b"]
all(.comparisons[0].groups[]; .metrics.ttft_ms.verdict == "real" and .metrics.ttft_ms.direction == "slower")
all(.comparisons[0].groups[]; .metrics.ttft_ms.median_diff_ci.lo > 40 and .metrics.ttft_ms.median_diff_ci.hi < 60)
all(.comparisons[0].groups[]; .metrics.ttft_ms.diff.p50 > 40 and .metrics.ttft_ms.diff_pct.p50 > 35)
all(.comparisons[0].groups[]; .metrics.latency_ms.verdict == "real")
all(.comparisons[0].groups[]; .metrics.tpot_ms.verdict == "noise" and .metrics.itl_ms.verdict == "noise")
all(.comparisons[0].groups[]; .metrics.output_tokens.verdict == "noise")
all(.comparisons[0].groups[]; .metrics.itl_ms.median_diff_ci.samples == "per_request_median_itl")
all(.comparisons[0].groups[]; .metrics.itl_ms.median_diff_ci.samples_base == 20)
all(.comparisons[0].groups[]; .metrics.ttft_ms.base.p50 >= 100 and .metrics.ttft_ms.base.p50 < 110)
all(.comparisons[0].groups[]; .verdict | test("^model-.*: TTFT p50 \\+[0-9.]+ ms \\(\\+[0-9]+%, CI \\[\\+[0-9.]+, \\+[0-9.]+\\]\\) slower — real; TPOT noise; ITL noise; latency p50"))
