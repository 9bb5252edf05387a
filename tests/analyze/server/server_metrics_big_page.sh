#!/usr/bin/env bash
# server_metrics_big_page: a 48-engine vLLM /metrics page (about 385 KB:
# per-engine gauges and histograms) scraped with --server-metrics. The
# recorder kept 256 KiB of its lines and cut the rest at a line end
# without a word in the summary: the waiting queue summed 1,320 of the
# page's 1,920 (a family cut in two), and a family after the cut showed
# "not exposed". Now the whole page is kept (every family the page has is
# in the summary, the gauges sum to the page's totals), and a page over
# the cap (now 4 MiB of kept lines) is cut before a family, never inside
# one, and the summary and JSON say so (the 700-engine page below).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
mkdir -p "$T/pages"
python3 "$TT_SOURCE_DIR/tests/lib/vllm_page.py" "$T/pages/big_0.prom" 48
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

# a page whose kept lines pass the 4 MiB cap (700 engines, the families
# in the order running, waiting, TTFT, E2E, ITL, queue, KV cache): cut
# before the family the cap falls in, the families before it whole, none
# summed partial, and the summary and JSON say so
mkdir -p "$T/huge"
python3 "$TT_SOURCE_DIR/tests/lib/vllm_page.py" "$T/huge/huge_0.prom" 700
hsize=$(wc -c <"$T/huge/huge_0.prom")
[ "$hsize" -gt 4500000 ] && [ "$hsize" -lt 16000000 ] || fail "the huge page is $hsize bytes"
hpf="$T/h.port"
python3 "$TT_SOURCE_DIR/tests/lib/metrics_server.py" "$hpf" "$T/h.log" "$T/huge/huge" 2>"$T/h.err" &
TT_PIDS+=("$!")
wait_port_file "$hpf" "$!" "$T/h.err" "metrics server (huge page)"
"$TT_RECORD" -u "$URL" -m test -n 2 -c 1 -q --server-metrics "http://127.0.0.1:$(cat "$hpf")/metrics" \
    --server-metrics-interval 300ms -o "$T/h.ttrace" 2>"$T/h.rec" || fail "record (huge page): $(cat "$T/h.rec")"
"$TT_ANALYZE" dump "$T/h.ttrace" >"$T/h.jsonl" || fail "dump (huge page)"
jq -se '[.[] | select(.kind == "server_metrics")] | length > 0 and all(.truncated == true)' "$T/h.jsonl" >/dev/null ||
    fail "a scrape over the cap is not marked truncated: $(jq -c 'select(.kind == "server_metrics") | del(.lines, .text)' "$T/h.jsonl" | sed -n 1p)"
"$TT_ANALYZE" summary "$T/h.ttrace" >"$T/h.txt" 2>&1 || fail "summary (huge page): $(cat "$T/h.txt")"
grep -q '^  cut .* scrapes passed the recorder.s cap of' "$T/h.txt" || fail "the summary does not say the scrapes were cut: $(cat "$T/h.txt")"
hwait=$(grep '^vllm:num_requests_waiting{' "$T/huge/huge_0.prom" | awk '{s += $2} END {print s}')
grep -qE "^  waiting +min $hwait +median $hwait +max $hwait " "$T/h.txt" ||
    fail "a family before the cut is not whole (want $hwait): $(grep waiting "$T/h.txt")"
"$TT_ANALYZE" summary --format json "$T/h.ttrace" >"$T/h.json" || fail "summary json (huge page)"
jq -e '[.. | objects | select(has("truncated") and has("samples_used")) | .truncated] | length > 0 and all(. > 0)' "$T/h.json" >/dev/null ||
    fail "JSON does not count the cut scrapes"
echo "server_metrics_big_page: ok ($size bytes; $hsize bytes cut at the cap)"
