#!/usr/bin/env bash
# proxy_bench.sh [BUILD] [OUT_DIR]: the time a chunk spends inside
# tokentrace-proxy (upstream receive to the client's socket, the trace's
# handed records) at 1, 10 and 50 concurrent streams: tokentrace-record
# (-c N) -> tokentrace-proxy -> tokentrace-replay (--synthetic, 10 ms per
# token, 64 tokens per stream) on loopback; `make -f Makefile.helpers
# bench-proxy`. Prints one TSV row per run with the load average, then
# the median of the runs per proxy and level (and new/old ratios).
#   PROXY_BENCH_REPS=N     runs per proxy and level (1)
#   PROXY_BENCH_OLD=DIR    a directory holding an older tokentrace-proxy:
#                          its runs interleave with this build's (old, new,
#                          old, new...), so both meet the same load
#   PROXY_BENCH_LEVELS="1 10 50"
#   PROXY_BENCH_KEEP_AWAKE="auto"  the client's --keep-awake modes to run
#                          (column client_awake): a sleeping client is
#                          woken inside the proxy's write to it
set -euo pipefail
build=${1:-build}
out=${2:-out/bench-proxy}
bin=$build/bin
reps=${PROXY_BENCH_REPS:-1}
levels=${PROXY_BENCH_LEVELS:-1 10 50}
awakes=${PROXY_BENCH_KEEP_AWAKE:-auto}
proxies=("new=$bin/tokentrace-proxy")
[ -n "${PROXY_BENCH_OLD:-}" ] && proxies=("old=$PROXY_BENCH_OLD/tokentrace-proxy" "${proxies[@]}")
mkdir -p "$out"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT
wait_port() { for _ in $(seq 1 200); do [ -s "$1" ] && return; sleep 0.05; done; echo "no port in $1" >&2; exit 1; }

rm -f "$out/up.port"
"$bin/tokentrace-replay" --listen 127.0.0.1:0 --port-file "$out/up.port" -q \
    --synthetic 'ttft=50ms,tpot=10ms,tokens=200' &
pids+=($!)
wait_port "$out/up.port"
rows=$out/rows.tsv
printf 'rep\tproxy\tclient_awake\tstreams\tchunks\tp50_ms\tp99_ms\tmax_ms\tload_1m\n' | tee "$rows"
for rep in $(seq 1 "$reps"); do
    for c in $levels; do
        for ka in $awakes; do
            for p in "${proxies[@]}"; do
                name=${p%%=*} px_bin=${p#*=}
                run=$out/$name-$ka-c$c-r$rep
                rm -f "$out/px.port"
                "$px_bin" --listen 127.0.0.1:0 --port-file "$out/px.port" -q -f \
                    -u "http://127.0.0.1:$(cat "$out/up.port")" -o "$run.ttrace" 2>"$run.err" &
                px=$!
                pids+=("$px")
                wait_port "$out/px.port"
                "$bin/tokentrace-record" -u "http://127.0.0.1:$(cat "$out/px.port")" -m bench \
                    --keep-awake "$ka" --classes short-short -n $((c * 4)) -c "$c" -q --force -o "$run.client.ttrace"
                kill -INT "$px"
                wait "$px"
                "$bin/tokentrace-analyze" summary --format json "$run.ttrace" >"$run.json"
                load=$(cut -d' ' -f1 /proc/loadavg)
                jq -r --arg r "$rep" --arg p "$name" --arg ka "$ka" --arg c "$c" --arg load "$load" \
                    '.traces[0].proxy_added_latency_ms |
                    [$r, $p, $ka, $c, .n, (.p50*1000|round/1000), (.p99*1000|round/1000),
                     (.max*1000|round/1000), $load] | @tsv' "$run.json" | tee -a "$rows"
            done
        done
    done
done
echo
python3 - "$rows" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
med = {}
for r in rows:
    med.setdefault((r["proxy"], r["client_awake"], int(r["streams"])), []).append(r)
print("median\tproxy\tclient_awake\tstreams\tp50_ms\tp99_ms\tmax_ms\tload_1m\truns")
for (p, ka, c), rs in sorted(med.items(), key=lambda k: (k[0][2], k[0][1], k[0][0] != "old")):
    m = {k: statistics.median(float(r[k]) for r in rs) for k in ("p50_ms", "p99_ms", "max_ms", "load_1m")}
    med[(p, ka, c)] = m
    print(f"median\t{p}\t{ka}\t{c}\t{m['p50_ms']:.3f}\t{m['p99_ms']:.3f}\t{m['max_ms']:.3f}\t{m['load_1m']:.2f}\t{len(rs)}")
for (p, ka, c), m in sorted(med.items(), key=lambda k: (k[0][2], k[0][1])):
    o = med.get(("old", ka, c))
    if p == "new" and o:
        print(f"ratio\tnew/old\t{ka}\t{c}\t" + "\t".join(f"{m[k] / o[k]:.2f}" if o[k] else "-"
                                              for k in ("p50_ms", "p99_ms", "max_ms")))
PY
