#!/usr/bin/env bash
# keep_awake_cost: what keep-awake costs others (docs/performance.md,
# "Keep-awake: cost"). A CPU-bound neighbour (a fixed amount of work,
# pinned to CPU 0) runs alone, and beside a recording pinned to CPU 0 with
# each --keep-awake mode (16 streams, 50 ms TPOT, its server on CPU 1;
# auto, the default, is not given a CPU: it decides for itself),
# interleaved; prints the neighbour's wall time and the recorder's CPU per
# run, with the load average. Then, inside a cgroup with a 50% CPU quota
# (when one can be made), a recording beside a SCHED_IDLE spinner in the
# same cgroup against one without: the quota's throttling, which is why
# keep-awake stays off there.
#   tests/bench/keep_awake_cost.sh BUILD_DIR WORK_DIR [REPS]
set -euo pipefail
build=$(realpath "$1"); work=$(realpath -m "$2"); reps=${3:-3}
mkdir -p "$work"
rec=$build/bin/tokentrace-record rep=$build/bin/tokentrace-replay
an=$build/bin/tokentrace-analyze
pf=$work/port
sends=$work/sends.tsv
"$rep" --listen 127.0.0.1:0 --port-file "$pf" -q --keep-awake-cpu 1 --log-sends "$sends" \
    --synthetic 'ttft=100ms,tpot=50ms,tokens=100,align=50ms' &
srv=$!
trap 'kill $srv 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s "$pf" ] && break; sleep 0.05; done
url=http://127.0.0.1:$(cat "$pf")
work_unit() { taskset -c 0 python3 -c 'sum(i * i for i in range(12000000))'; }
load() { cut -d' ' -f1 /proc/loadavg; }
# what keep-awake did: the header's start mode, auto's end mode and changes
ka() { "$an" dump "$1" | jq -r 'select(.kind=="header") | .options.keep_awake' | tr '\n' ' '
    "$an" dump "$1" | jq -r 'select(.kind=="footer") | if .keep_awake_end then "> \(.keep_awake_end) (\(.keep_awake_changes))" else "" end'; }
# true p99 of a trace's per-chunk error, us (the send log is flushed every second)
true_p99() { sleep 1.2; python3 "$(dirname "$0")/ts_error.py" --sends "$sends" --trace "$1" \
    --analyze "$an" | jq -r '.error_us.p99 | floor'; }
record() { # MODE OUT: 16 streams of 100 tokens, ~5.1 s
    local extra=(--keep-awake "$1")
    case $1 in spin | poll) extra+=(--keep-awake-cpu 0) ;; esac
    /usr/bin/time -f '%U %S' -o "$2.cpu" "$rec" -u "$url" -m m -n 16 -c 16 \
        --classes short-long --max-tokens 100 -o "$2" --force -q "${extra[@]}"
}
echo "| rep | beside | neighbour wall s | recorder user+sys s | true p99 us | self-check p99 us (probe) | load | keep-awake |"
echo "|---|---|---|---|---|---|---|---|"
for r in $(seq "$reps"); do
    for mode in alone auto spin poll off; do
        l=$(load)
        if [ "$mode" = alone ]; then
            s=$(date +%s.%N); work_unit; e=$(date +%s.%N)
            echo "| $r | nothing | $(echo "$e - $s" | bc -l | cut -c1-5) | - | - | - | $l | - |"
            continue
        fi
        record "$mode" "$work/c.ttrace" &
        rp=$!
        sleep 0.3
        s=$(date +%s.%N); work_unit; e=$(date +%s.%N)
        wait "$rp"
        cpu=$(awk '{print $1 + $2}' "$work/c.ttrace.cpu")
        p99=$("$an" dump "$work/c.ttrace" | jq -r 'select(.kind=="footer") | (.wake_probe_p99_ns // 0) / 1000 | floor')
        echo "| $r | recorder $mode | $(echo "$e - $s" | bc -l | cut -c1-5) | $cpu | $(true_p99 "$work/c.ttrace") | $p99 | $l | $(ka "$work/c.ttrace") |"
    done
done
# the quota: a cgroup of our own with 50 ms per 100 ms
cg=""
if [ -w /sys/fs/cgroup/cpu ] && [ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
    cg=/sys/fs/cgroup/cpu/tt_ka_cost_$$
    mkdir "$cg" && echo 50000 >"$cg/cpu.cfs_quota_us"
    stat_file=$cg/cpu.stat
elif [ -w /sys/fs/cgroup ] && grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
    cg=/sys/fs/cgroup/tt_ka_cost_$$
    mkdir "$cg" && echo "50000 100000" >"$cg/cpu.max"
    stat_file=$cg/cpu.stat
fi
[ -n "$cg" ] || { echo "no writable cgroup: quota part skipped"; exit 0; }
sp=""
trap 'kill $srv $sp 2>/dev/null || true; sleep 0.2; rmdir "$cg" 2>/dev/null || true' EXIT
echo
echo "| rep | inside a 50% quota, beside | nr_throttled | throttled ms | true p99 us | self-check p99 us (probe) | load |"
echo "|---|---|---|---|---|---|---|"
in_cg() { sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" "$@"; }
for r in $(seq "$reps"); do
    for with in none spinner; do
        t0=$(awk '/^nr_throttled/ {print $2}' "$stat_file")
        u0=$(awk '/^throttled_(time|usec)/ {print $2}' "$stat_file")
        sp=""
        if [ "$with" = spinner ]; then
            # not through the function: $! must be the spinner itself
            sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" \
                taskset -c 0 chrt -i 0 sh -c 'while :; do :; done' &
            sp=$!
        fi
        l=$(load)
        in_cg taskset -c 0 "$rec" -u "$url" -m m -n 16 -c 16 --classes short-long \
            --max-tokens 100 -o "$work/q.ttrace" --force -q 2>/dev/null
        [ -z "$sp" ] || { kill "$sp"; wait "$sp" 2>/dev/null || true; sp=""; }
        t1=$(awk '/^nr_throttled/ {print $2}' "$stat_file")
        u1=$(awk '/^throttled_(time|usec)/ {print $2}' "$stat_file")
        unit=1000000; grep -q '^throttled_usec' "$stat_file" && unit=1000
        p99=$("$an" dump "$work/q.ttrace" | jq -r 'select(.kind=="footer") | (.wake_probe_p99_ns // 0) / 1000 | floor')
        echo "| $r | $with | $((t1 - t0)) | $(( (u1 - u0) / unit )) | $(true_p99 "$work/q.ttrace") | $p99 | $l |"
    done
done
