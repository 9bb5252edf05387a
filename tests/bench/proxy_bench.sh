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
#   PROXY_BENCH_UPSTREAM='ttft=50ms,tpot=10ms,tokens=200'  the replay
#                          server's --synthetic streams
#   PROXY_BENCH_REQUESTS=4 requests per stream in each run
#   PROXY_BENCH_DIRECT=1   also run the client straight at the replay
#                          server (proxy "direct"), in the same loop: the
#                          baseline of the client-side columns (its ITL
#                          p99 and the chunks it received late, the
#                          recorder's receive lag p99); the proxy columns
#                          are then empty
# The client columns (ITL p99, TTFT p50/p99) show what the proxy costs the
# request path too: a change that speeds chunks by starving new requests
# shows there.
set -euo pipefail
build=${1:-build}
out=${2:-out/bench-proxy}
bin=$build/bin
reps=${PROXY_BENCH_REPS:-1}
levels=${PROXY_BENCH_LEVELS:-1 10 50}
awakes=${PROXY_BENCH_KEEP_AWAKE:-auto}
upstream=${PROXY_BENCH_UPSTREAM:-ttft=50ms,tpot=10ms,tokens=200}
per_stream=${PROXY_BENCH_REQUESTS:-4}
proxies=("new=$bin/tokentrace-proxy")
[ -n "${PROXY_BENCH_OLD:-}" ] && proxies=("old=$PROXY_BENCH_OLD/tokentrace-proxy" "${proxies[@]}")
[ -n "${PROXY_BENCH_DIRECT:-}" ] && proxies=("direct=" "${proxies[@]}")
mkdir -p "$out"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT
wait_port() { for _ in $(seq 1 200); do [ -s "$1" ] && return; sleep 0.05; done; echo "no port in $1" >&2; exit 1; }

rm -f "$out/up.port"
"$bin/tokentrace-replay" --listen 127.0.0.1:0 --port-file "$out/up.port" -q \
    --synthetic "$upstream" &
pids+=($!)
wait_port "$out/up.port"
rows=$out/rows.tsv
printf 'rep\tproxy\tclient_awake\tstreams\tchunks\tp50_ms\tp99_ms\tmax_ms\tload_1m\tclient_itl_p99_ms\tclient_ok\tclient_ttft_p50_ms\tclient_ttft_p99_ms\n' | tee "$rows"
for rep in $(seq 1 "$reps"); do
    for c in $levels; do
        for ka in $awakes; do
            for p in "${proxies[@]}"; do
                name=${p%%=*} px_bin=${p#*=}
                run=$out/$name-$ka-c$c-r$rep
                target="http://127.0.0.1:$(cat "$out/up.port")"
                if [ -n "$px_bin" ]; then
                    rm -f "$out/px.port"
                    "$px_bin" --listen 127.0.0.1:0 --port-file "$out/px.port" -q -f \
                        -u "$target" -o "$run.ttrace" 2>"$run.err" &
                    px=$!
                    pids+=("$px")
                    wait_port "$out/px.port"
                    target="http://127.0.0.1:$(cat "$out/px.port")"
                fi
                "$bin/tokentrace-record" -u "$target" -m bench \
                    --keep-awake "$ka" --classes short-short -n $((c * per_stream)) -c "$c" -q --force -o "$run.client.ttrace"
                "$bin/tokentrace-analyze" summary --format json "$run.client.ttrace" >"$run.client.json"
                client=$(jq -r '.overall | [((.itl_ms.p99 // -1)*1000|round/1000), (.ok // -1),
                    ((.ttft_ms.p50 // -1)*1000|round/1000), ((.ttft_ms.p99 // -1)*1000|round/1000)] | @tsv' "$run.client.json")
                load=$(cut -d' ' -f1 /proc/loadavg)
                if [ -n "$px_bin" ]; then
                    kill -INT "$px"
                    wait "$px"
                    "$bin/tokentrace-analyze" summary --format json "$run.ttrace" >"$run.json"
                    inside=$(jq -r '.traces[0].proxy_added_latency_ms |
                        [.n, (.p50*1000|round/1000), (.p99*1000|round/1000), (.max*1000|round/1000)] | @tsv' "$run.json")
                else
                    inside=$(printf -- '-\t-\t-\t-')
                fi
                printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$rep" "$name" "$ka" "$c" "$inside" "$load" "$client" | tee -a "$rows"
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
    num = lambda v: float(v) if v not in ("-", "") else float("nan")
    m = {k: statistics.median(num(r[k]) for r in rs)
         for k in ("p50_ms", "p99_ms", "max_ms", "load_1m", "client_itl_p99_ms",
                       "client_ttft_p50_ms", "client_ttft_p99_ms")}
    med[(p, ka, c)] = m
    print(f"median\t{p}\t{ka}\t{c}\t{m['p50_ms']:.3f}\t{m['p99_ms']:.3f}\t{m['max_ms']:.3f}\t{m['load_1m']:.2f}\t{len(rs)}\tclient_itl_p99 {m['client_itl_p99_ms']:.3f}"
          f"\tclient_ttft p50 {m['client_ttft_p50_ms']:.3f} p99 {m['client_ttft_p99_ms']:.3f}")
for (p, ka, c), m in sorted(med.items(), key=lambda k: (k[0][2], k[0][1])):
    o = med.get(("old", ka, c))
    if p == "new" and o:
        print(f"ratio\tnew/old\t{ka}\t{c}\t" + "\t".join(f"{m[k] / o[k]:.2f}" if o[k] else "-"
                                              for k in ("p50_ms", "p99_ms", "max_ms")))
PY
