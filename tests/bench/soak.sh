#!/usr/bin/env bash
# soak.sh: a long recording at many streams against the replay server, with
# the resident memory of both processes sampled every SOAK_EVERY seconds, to
# show that it stays flat (docs/performance-history.md, "Soak").
#   tests/bench/soak.sh BUILD_DIR WORK_DIR
# Env: SOAK_SECONDS (600), SOAK_STREAMS (1000, a closed loop: each stream
# sends its next request when the last one ends), SOAK_EVERY (10),
# SOAK_RSS_LIMIT_MIB (64: the recorder's limit; exit 1 above it),
# SOAK_KEEP=1 keeps the trace (a few GB; deleted otherwise, after its size
# and its footer are read).
# Output: WORK_DIR/rss.tsv (seconds, recorder and server RSS in KiB) and a
# summary on stdout. The run stops by itself after SOAK_SECONDS (+ the
# requests in flight, ~5 s).
set -euo pipefail
build=$(realpath "${1:?build dir}")
work=$(realpath -m "${2:?work dir}")
secs=${SOAK_SECONDS:-600}
streams=${SOAK_STREAMS:-1000}
every=${SOAK_EVERY:-10}
limit=${SOAK_RSS_LIMIT_MIB:-64}
mkdir -p "$work"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
printf '{"class":"soak","prompt":"hello","max_tokens":100}\n' >"$work/wl.jsonl"
rm -f "$work/port"
"$build/bin/tokentrace-replay" --listen 127.0.0.1:0 --port-file "$work/port" -q \
    --synthetic 'ttft=100ms,tpot=50ms,tokens=100' &
srv=$!
rec=
cleanup() {
    [ -n "$rec" ] && kill "$rec" 2>/dev/null
    kill "$srv" 2>/dev/null || true
    wait 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 200); do [ -s "$work/port" ] && break; sleep 0.05; done
[ -s "$work/port" ] || { echo "soak: the replay server did not start" >&2; exit 1; }
"$build/bin/tokentrace-record" -u "http://127.0.0.1:$(cat "$work/port")" -m m \
    -w "$work/wl.jsonl" -c "$streams" --duration "$secs" -o "$work/soak.ttrace" \
    --force -q --progress never &
rec=$!
rss() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
printf 's\trecorder_kib\tserver_kib\n' >"$work/rss.tsv"
start=$(date +%s)
while kill -0 "$rec" 2>/dev/null; do
    r=$(rss "$rec")
    [ -n "$r" ] && [ "$r" != 0 ] &&
        printf '%d\t%s\t%s\n' $(( $(date +%s) - start )) "$r" "$(rss "$srv")" >>"$work/rss.tsv"
    sleep "$every"
done
rc=0
wait "$rec" || rc=$?
rec=
[ "$rc" = 0 ] || { echo "soak: tokentrace-record exited $rc" >&2; exit 1; }
footer=$("$build/bin/tokentrace-analyze" dump "$work/soak.ttrace" |
    jq -c 'select(.kind=="footer") | {requests, ok, failed, chunks, bytes,
      loop_lag_samples, loop_lag_p50_ns, loop_lag_p99_ns, loop_lag_max_ns}')
size=$(stat -c %s "$work/soak.ttrace")
[ "${SOAK_KEEP:-0}" = 1 ] || rm -f "$work/soak.ttrace"
awk -v limit="$limit" -v footer="$footer" -v size="$size" -v secs="$secs" \
    -v streams="$streams" 'NR > 1 {
        n++; r[n] = $2; s[n] = $3; t[n] = $1
        if ($2 > rmax) rmax = $2
        if ($3 > smax) smax = $3
        if (n == 1 || $2 < rmin) rmin = $2
    }
    END {
        # the first minute is the ramp-up (1,000 connections, buffers)
        for (i = 1; i <= n; i++) if (t[i] >= 60) { if (!m || r[i] < amin) amin = r[i]; if (r[i] > amax) amax = r[i]; m++ }
        printf "soak: %d s, %d streams: %d RSS samples\n", secs, streams, n
        printf "recorder RSS: min %.1f MiB, max %.1f MiB; after the first minute %.1f..%.1f MiB\n",
            rmin / 1024, rmax / 1024, amin / 1024, amax / 1024
        printf "replay server RSS: max %.1f MiB\n", smax / 1024
        printf "trace: %.1f MiB; footer %s\n", size / 1048576, footer
        if (rmax > limit * 1024) { printf "soak: recorder RSS above %d MiB\n", limit; exit 1 }
    }' "$work/rss.tsv"
