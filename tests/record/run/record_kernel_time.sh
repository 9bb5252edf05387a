#!/usr/bin/env bash
# record_kernel_time: a chunk's time is the kernel's receive time
# (record/net/rx_stamp.h), so a recorder that is stopped while the server
# sends still stamps the bytes when they arrived: the recorder is frozen
# (SIGSTOP) before the first token is sent and thawed 1.8 s later; the
# first chunk's time is within 50 ms of the server's send (--log-sends),
# the footer's receive lag shows the hand-over was that late, and with
# --chunk-time user the same run stamps the thaw instead. --http2 keeps
# hand-over times and the header says why; a bad value is refused.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"

start_replay --synthetic 'ttft=1200ms,tpot=5ms,tokens=4' --log-sends "$T/sends.tsv"

# frozen MODE OUT: records one request, frozen from 0.4 s to 2.2 s after
# the recorder started; prints "stop_ns cont_ns" (CLOCK_MONOTONIC).
frozen() {
    python3 - "$TT_RECORD" "$URL" "$1" "$2" <<'PY'
import os, signal, subprocess, sys, time
rec, url, mode, out = sys.argv[1:5]
p = subprocess.Popen([rec, "-u", url, "-m", "m", "-n", "1", "-c", "1",
                      "--classes", "short-short", "--chunk-time", mode,
                      "-q", "-o", out])
time.sleep(0.4)
stop = time.monotonic_ns()
os.kill(p.pid, signal.SIGSTOP)
time.sleep(1.8)
cont = time.monotonic_ns()
os.kill(p.pid, signal.SIGCONT)
if p.wait(timeout=60) != 0:
    sys.exit("recorder failed")
print(stop, cont)
PY
}
dumpq() { "$TT_ANALYZE" dump "$1" | jq -r "$2"; }

# check MODE: one frozen run; exit 3 when the freeze missed the send (a
# machine so loaded the request left after 0.4 s): the caller retries.
check() {
    local mode=$1 out="$T/$1.ttrace" times stop cont start first rid send lag
    times=$(frozen "$mode" "$out")
    stop=${times% *} cont=${times#* }
    start=$(dumpq "$out" 'select(.kind=="request") | .start_ns')
    rid=$(dumpq "$out" 'select(.kind=="request") | .request_id')
    first=$(dumpq "$out" 'select(.kind=="chunk") | .t_ns' | sed -n 1p)
    send=$(awk -F'\t' -v r="$rid" '$1 == r && $2 == 0 { print $3 }' "$T/sends.tsv")
    [ -n "$send" ] || fail "$mode: no send logged for $rid"
    if [ "$start" -ge "$stop" ] || [ "$send" -le "$stop" ] || [ "$send" -ge "$cont" ]; then
        echo "$mode: the freeze (${stop}..${cont}) missed start $start / send $send; again" >&2
        return 3
    fi
    [ "$(dumpq "$out" 'select(.kind=="header") | .options.chunk_time')" = "$mode" ] ||
        fail "$mode: header chunk_time"
    lag=$(dumpq "$out" 'select(.kind=="footer") | .receive_lag_max_ns // -1')
    if [ "$mode" = kernel ]; then
        [ $((first - send)) -ge 0 ] && [ $((first - send)) -lt 50000000 ] ||
            fail "kernel: first chunk $((first - send)) ns after its send (frozen $((cont - stop)) ns)"
        [ "$lag" -ge $(((cont - send) * 9 / 10)) ] ||
            fail "kernel: receive lag max $lag ns, the hand-over was $((cont - send)) ns late"
        [ "$(dumpq "$out" 'select(.kind=="footer") | .receive_lag_samples')" = \
            "$(dumpq "$out" 'select(.kind=="footer") | .chunks')" ] ||
            fail "kernel: not every chunk has a kernel time"
    else
        [ "$first" -ge "$cont" ] || fail "user: first chunk at $first, before the thaw $cont"
        [ "$lag" = -1 ] || fail "user: a receive lag ($lag) without kernel times"
    fi
}
for mode in kernel user; do
    for try in 1 2 3; do
        rc=0
        check "$mode" || rc=$?
        [ "$rc" -eq 0 ] && break
        [ "$rc" -eq 3 ] || exit "$rc"
        [ "$try" -lt 3 ] || fail "$mode: the freeze never fell between the send and the first token"
    done
done

# summary: the frozen kernel run read a stream's events together (its
# receive lag is far over half its ITL): it says so in the header, a
# finding, --detail and JSON; the user run is judged by its self-check
summ() { "$TT_ANALYZE" summary --width 400 "$@" 2>/dev/null; }
summ "$T/kernel.ttrace" >"$T/k.txt"
head -n 1 "$T/k.txt" | grepq ", reads merged$" || fail "frozen: header $(head -n 1 "$T/k.txt")"
grep -q "a read may then take two of a stream's events" "$T/k.txt" || fail "frozen: no finding"
summ --detail "$T/kernel.ttrace" | grepq "recorder chunk times: the kernel's receive times;.*but over half" ||
    fail "frozen: no --detail line"
summ --format json "$T/kernel.ttrace" >"$T/k.json"
jq -e '.traces[0] | .chunk_time == "kernel" and .reads_merged == true and .recorder_receive_lag_ms.max >= 500' \
    "$T/k.json" >/dev/null || fail "frozen: JSON $(jq -c '.traces[0]' "$T/k.json")"
summ --format json "$T/user.ttrace" | jq -e '.traces[0] | .chunk_time == "user" and (has("reads_merged") | not)' \
    >/dev/null || fail "user: JSON"
summ --detail "$T/user.ttrace" | grepq "recorder chunk times: when libcurl handed the bytes over" ||
    fail "user: no --detail line"

# tokens 40 ms apart (for the calm run below: 'reads merged' then needs a
# receive lag p99 over 20 ms, which a loaded machine does not reach on
# three streams)
start_replay --synthetic 'ttft=5ms,tpot=40ms,tokens=4'
# --http2 keeps hand-over times, and the header says why
"$TT_RECORD" -u "$URL" -m m -n 1 --classes short-short --http2 -q -o "$T/h2.ttrace"
assert_eq "$(dumpq "$T/h2.ttrace" 'select(.kind=="header") | .options.chunk_time')" user "--http2 chunk_time"
dumpq "$T/h2.ttrace" 'select(.kind=="header") | .options.chunk_time_why' | grepq -- "--http2" ||
    fail "--http2: no chunk_time_why"
summ --detail "$T/h2.ttrace" | grepq "recorder chunk times: when libcurl handed the bytes over (--http2: " ||
    fail "--http2: no reason in --detail"
# an unhurried kernel run: kernel times, nothing merged
"$TT_RECORD" -u "$URL" -m m -n 3 --classes short-short -q -o "$T/calm.ttrace"
head -n 1 <(summ "$T/calm.ttrace") | grepq ", kernel times$" || fail "calm: header $(summ "$T/calm.ttrace" | sed -n 1p)"
summ --format json "$T/calm.ttrace" | jq -e '.traces[0] | .chunk_time == "kernel" and .reads_merged == false' \
    >/dev/null || fail "calm: JSON"
expect_exit 2 "$TT_RECORD" -u "$URL" -m m --chunk-time later -o "$T/bad.ttrace" 2>"$T/bad.err"
grep -q "chunk-time: 'later' is not kernel or user" "$T/bad.err" || fail "bad value: $(cat "$T/bad.err")"
echo "record_kernel_time: ok"
