#!/usr/bin/env bash
# proxy_bench.sh [BUILD] [OUT_DIR]: the time a chunk spends inside
# tokentrace-proxy (upstream receive to the client's socket, the trace's
# handed records) at 1, 10 and 50 concurrent streams: tokentrace-record
# (-c N) -> tokentrace-proxy -> tokentrace-replay (--synthetic, 10 ms per
# token, 200 tokens per stream) on loopback. Prints one TSV row per level
# with the load average; `make -f Makefile.helpers bench-proxy`.
set -euo pipefail
build=${1:-build}
out=${2:-out/bench-proxy}
bin=$build/bin
mkdir -p "$out"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT
wait_port() { for _ in $(seq 1 200); do [ -s "$1" ] && return; sleep 0.05; done; echo "no port in $1" >&2; exit 1; }

rm -f "$out/up.port"
"$bin/tokentrace-replay" --listen 127.0.0.1:0 --port-file "$out/up.port" -q \
    --synthetic 'ttft=50ms,tpot=10ms,tokens=200' &
pids+=($!)
wait_port "$out/up.port"
printf 'streams\tchunks\tp50_ms\tp99_ms\tmax_ms\tload_1m\n'
for c in 1 10 50; do
    rm -f "$out/px.port"
    "$bin/tokentrace-proxy" --listen 127.0.0.1:0 --port-file "$out/px.port" -q -f \
        -u "http://127.0.0.1:$(cat "$out/up.port")" -o "$out/proxy-c$c.ttrace" 2>"$out/proxy-c$c.err" &
    px=$!
    pids+=("$px")
    wait_port "$out/px.port"
    "$bin/tokentrace-record" -u "http://127.0.0.1:$(cat "$out/px.port")" -m bench \
        --classes short-short -n $((c * 4)) -c "$c" -q --force -o "$out/client-c$c.ttrace"
    kill -INT "$px"
    wait "$px"
    "$bin/tokentrace-analyze" summary --format json "$out/proxy-c$c.ttrace" >"$out/proxy-c$c.json"
    load=$(cut -d' ' -f1 /proc/loadavg)
    jq -r --arg c "$c" --arg load "$load" '.traces[0].proxy_added_latency_ms |
        [$c, .n, (.p50*1000|round/1000), (.p99*1000|round/1000), (.max*1000|round/1000), $load] | @tsv' \
        "$out/proxy-c$c.json"
done
