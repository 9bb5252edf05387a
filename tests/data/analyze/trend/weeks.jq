# trend --format json of ny, sun, jan and mon48.ttrace
# (tests/analyze/trend/analyze_trend.sh): four traces in different ISO
# weeks, one crossing Sunday midnight. One jq expression a line, each
# must be true.
.command == "trend" and .by == "week"
[.traces[].trace_id] == ["jan", "mon", "sun", "newyear"]
[.rows[] | [.period, .model]] == [["2026-W01","model-a"],["2026-W01","model-b"],["2026-W48","model-a"],["2026-W48","model-b"],["2026-W49","model-a"],["2026-W49","model-b"],["2026-W53","model-a"],["2026-W53","model-b"]]
# W48 model-a: 2 from the Monday trace (TTFT 120) + ids 1,3,5,7 of Sunday (100).
.rows[2].ok == 6 and .rows[2].ttft_ms.n == 6 and .rows[2].ttft_ms.p50 == 100 and .rows[2].ttft_ms.p99 > 119
.rows[2].traces == [1, 3]
# W49: ids 9 (model-a) and 10 (model-b) of the Sunday trace.
.rows[3].ok == 6 and .rows[4].ok == 1 and .rows[5].ok == 1 and .rows[5].traces == [1]
.rows[6].tpot_ms.p50 == 8 and .rows[6].latency_ms.p50 == 112
all(.rows[]; .class == "short-short" and (.ttft_ms | has("n") and has("p50") and has("p99")))
