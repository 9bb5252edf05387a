#!/usr/bin/env bash
# sweep_lag.sh BUILD WORK [REPS] [SECONDS]: does a sweep's scheduling add
# send lag? At 1,000 requests/s (constant arrivals) against a light replay
# server, a plain open loop (-r 1000) and a two-stage sweep of the same
# rate (--sweep rate=999,1000: distinct names for --by stage) run interleaved REPS times for SECONDS of
# sending each; the send lag (start - intended send) p50/p99/max of each
# run and of each stage is printed, from `summary --format json` (docs/
# performance.md, "Sweep scheduling at 1,000 requests/s").
set -euo pipefail
BUILD=${1:?BUILD}
WORK=${2:?WORK}
REPS=${3:-3}
SECS=${4:-5}
B=$BUILD/bin
mkdir -p "$WORK"
"$B/tokentrace-replay" --listen 127.0.0.1:0 --port-file "$WORK/port" -q \
    --synthetic 'ttft=5ms,tpot=1ms,tokens=8' &
srv=$!
trap 'kill $srv 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s "$WORK/port" ] && break; sleep 0.05; done
URL="http://127.0.0.1:$(cat "$WORK/port")"
lag() { # TRACE BY -> "p50 p99 max" per group
    "$B/tokentrace-analyze" summary "$1" --by "$2" --format json 2>/dev/null |
        jq -r '.groups[]|"\(.[("'"$2"'")]) \(.send_lag_ms.p50) \(.send_lag_ms.p99) \(.send_lag_ms.max) n=\(.send_lag_ms.n)"'
}
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$REPS"); do
    "$B/tokentrace-record" -q -u "$URL" -m m --classes short-short --no-content \
        -r 1000 --arrival constant --duration "$SECS" -o "$WORK/plain.$r.ttrace" --force
    "$B/tokentrace-record" -q -u "$URL" -m m --classes short-short --no-content \
        --sweep rate=999,1000 --arrival constant --duration "$SECS" \
        -o "$WORK/sweep.$r.ttrace" --force
    echo "rep $r plain (model p50 p99 max ms): $(lag "$WORK/plain.$r.ttrace" model)"
    lag "$WORK/sweep.$r.ttrace" stage | sed "s/^/rep $r sweep stage /"
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
