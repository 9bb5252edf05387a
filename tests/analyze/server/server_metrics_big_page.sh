#!/usr/bin/env bash
# server_metrics_big_page: a 48-engine vLLM /metrics page (about 385 KB:
# per-engine gauges and histograms) scraped with --server-metrics. The
# recorder kept 256 KiB of its lines and cut the rest at a line end
# without a word in the summary: the waiting queue summed 1,320 of the
# page's 1,920 (a family cut in two), and a family after the cut showed
# "not exposed". Now the whole page is kept (every family the page has is
# in the summary, the gauges sum to the page's totals), and a page over
# the cap is cut before a family, never inside one, and the summary says
# so.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
mkdir -p "$T/pages"
python3 - "$T/pages/big_0.prom" <<'PY'
import sys
engines, out = 48, []
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
PY
size=$(wc -c <"$T/pages/big_0.prom")
[ "$size" -gt 300000 ] || fail "the page is $size bytes, not a big one"
start_replay -q --synthetic 'ttft=5ms,tpot=1ms,tokens=4'
pf="$T/m.port"
python3 "$TT_SOURCE_DIR/tests/lib/metrics_server.py" "$pf" "$T/m.log" "$T/pages/big" 2>"$T/m.err" &
TT_PIDS+=("$!")
wait_port_file "$pf" "$!" "$T/m.err" "metrics server"
"$TT_RECORD" -u "$URL" -m test -n 3 -c 1 -q --server-metrics "http://127.0.0.1:$(cat "$pf")/metrics" \
    --server-metrics-interval 150ms -o "$T/t.ttrace" || fail "record"
"$TT_ANALYZE" summary "$T/t.ttrace" >"$T/s.txt" 2>&1 || fail "summary: $(cat "$T/s.txt")"
# the page's own totals
want_wait=$(grep '^vllm:num_requests_waiting{' "$T/pages/big_0.prom" | awk '{s += $2} END {print s}')
want_run=$(grep '^vllm:num_requests_running{' "$T/pages/big_0.prom" | awk '{s += $2} END {print s}')
grep -qE "^  waiting +min $want_wait +median $want_wait +max $want_wait " "$T/s.txt" ||
    fail "waiting is not the page's $want_wait: $(grep waiting "$T/s.txt")"
grep -qE "^  running +min $want_run " "$T/s.txt" || fail "running: $(grep running "$T/s.txt")"
grep -q "^  KV cache   min 50" "$T/s.txt" || fail "a family after 256 KiB is missing: $(grep 'KV cache' "$T/s.txt")"
if grep -q "not exposed" "$T/s.txt"; then
    grep "not exposed" "$T/s.txt" | grepq -v "requests\|tokens" &&
        fail "a family the page has is 'not exposed': $(grep 'not exposed' "$T/s.txt")"
fi
"$TT_ANALYZE" dump "$T/t.ttrace" | jq -e 'select(.kind == "server_metrics" and .truncated == true)' >/dev/null &&
    fail "a 385 KB page was cut"
echo "server_metrics_big_page: ok ($size bytes)"
