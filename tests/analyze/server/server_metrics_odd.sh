#!/usr/bin/env bash
# server_metrics_odd: two odd /metrics endpoints.
# 1. Gauges of NaN and +Inf (as a page may carry): the summary printed
#    them blank; now it says they are not numbers and how many samples
#    (JSON nonfinite), and a gauge with some finite samples leaves the
#    others out and says how many.
# 2. An endpoint that accepts the connection and never answers: its
#    scrapes were classed "connect" (no TCP connection), though the TCP
#    connection was made: now "timeout".
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/doctor_lib.sh"
mkdir -p "$T/pages"
cat >"$T/pages/odd_0.prom" <<'PROM'
# TYPE vllm:num_requests_running gauge
vllm:num_requests_running{engine="0"} NaN
# TYPE vllm:num_requests_waiting gauge
vllm:num_requests_waiting{engine="0"} +Inf
# TYPE vllm:kv_cache_usage_perc gauge
vllm:kv_cache_usage_perc{engine="0"} NaN
PROM
cat >"$T/pages/odd_1.prom" <<'PROM'
# TYPE vllm:num_requests_running gauge
vllm:num_requests_running{engine="0"} NaN
# TYPE vllm:num_requests_waiting gauge
vllm:num_requests_waiting{engine="0"} +Inf
# TYPE vllm:kv_cache_usage_perc gauge
vllm:kv_cache_usage_perc{engine="0"} 0.25
PROM
start_replay -q --synthetic 'ttft=5ms,tpot=1ms,tokens=4'
pf="$T/m.port"
python3 "$TT_SOURCE_DIR/tests/lib/metrics_server.py" "$pf" "$T/m.log" "$T/pages/odd" 2>"$T/m.err" &
TT_PIDS+=("$!")
wait_port_file "$pf" "$!" "$T/m.err" "metrics server"
"$TT_RECORD" -u "$URL" -m test -n 3 -c 1 -q --server-metrics "http://127.0.0.1:$(cat "$pf")/metrics" \
    --server-metrics-interval 150ms -o "$T/t.ttrace" || fail "record"
"$TT_ANALYZE" summary "$T/t.ttrace" >"$T/s.txt" 2>&1 || fail "summary"
grep -qE "^  running +not a number: NaN or Inf in all [0-9]+ samples" "$T/s.txt" ||
    fail "NaN gauge: $(grep running "$T/s.txt")"
grep -qE "^  waiting +not a number: NaN or Inf in all" "$T/s.txt" || fail "Inf gauge: $(grep waiting "$T/s.txt")"
grep -qE "^  KV cache +min 25.*more NaN or Inf, left out" "$T/s.txt" ||
    fail "partly NaN gauge: $(grep 'KV cache' "$T/s.txt")"
"$TT_ANALYZE" summary "$T/t.ttrace" --format json >"$T/s.json" || fail "summary json"
jq -e '[.. | objects | select(has("nonfinite"))] | length >= 3' "$T/s.json" >/dev/null ||
    fail "no nonfinite counts in JSON"

# 2: accepts, never answers
tcp_helper silent
"$TT_RECORD" -u "$URL" -m test -n 2 -c 1 -q --server-metrics "http://127.0.0.1:$HELPER_PORT/metrics" \
    --server-metrics-interval 200ms -o "$T/q.ttrace" 2>"$T/q.err" || fail "record: $(cat "$T/q.err")"
kinds=$("$TT_ANALYZE" dump "$T/q.ttrace" | jq -rs '[.[] | select(.kind == "server_metrics") | .error_kind] | unique | join(",")')
assert_eq "$kinds" "timeout" "error kind of a silent metrics endpoint"
echo "server_metrics_odd: ok"
