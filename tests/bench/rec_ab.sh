#!/usr/bin/env bash
# rec_ab.sh OLD_BIN [BUILD] [OUT_DIR]: an older tokentrace-record (in
# OLD_BIN) against this build's, alternating, at REC_AB_STREAMS streams
# that all start at once (10,000) against one tokentrace-replay of
# REC_AB_UPSTREAM (10 tokens 1 s apart): per run the recorder's CPU
# (user, sys), peak RSS (KiB), and how many results have a TCP RTT and
# how many failed. REC_AB_REPS repetitions (2).
set -euo pipefail
old=${1:?usage: rec_ab.sh OLD_BIN [BUILD] [OUT_DIR]}
build=${2:-build}
out=${3:-out/rec-ab}
streams=${REC_AB_STREAMS:-10000}
reps=${REC_AB_REPS:-2}
upstream=${REC_AB_UPSTREAM:-ttft=50ms,tpot=1000ms,tokens=10}
mkdir -p "$out"
rm -f "$out/up.port"
"$build/bin/tokentrace-replay" --listen 127.0.0.1:0 --port-file "$out/up.port" -q \
    --synthetic "$upstream" &
up=$!
trap 'kill $up 2>/dev/null || true' EXIT
for _ in $(seq 1 200); do [ -s "$out/up.port" ] && break; sleep 0.05; done
url="http://127.0.0.1:$(cat "$out/up.port")"
printf 'rep\trecorder\tuser_s\tsys_s\tmaxrss_kib\tresults\twith_rtt\tfailed\tload_1m\n'
for rep in $(seq 1 "$reps"); do
    for v in old new; do
        bin=$build/bin
        [ "$v" = old ] && bin=$old
        run=$out/$v-$rep
        /usr/bin/time -f '%U %S %M' -o "$run.time" "$bin/tokentrace-record" -u "$url" \
            -m m --classes short-short -n "$streams" -c "$streams" -q \
            --progress never --force -o "$run.ttrace" 2>"$run.err"
        counts=$("$build/bin/tokentrace-analyze" dump "$run.ttrace" |
            jq -s -r 'map(select(.kind == "result")) |
                [length, (map(select((.tcp_rtt_ns // 0) > 0)) | length),
                 (map(select(.error_kind != null)) | length)] | @tsv')
        read -r user sys rss <"$run.time"
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$rep" "$v" "$user" "$sys" "$rss" \
            "$counts" "$(cut -d' ' -f1 /proc/loadavg)"
    done
done
