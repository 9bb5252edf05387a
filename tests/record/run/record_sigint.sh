#!/usr/bin/env bash
# Ctrl-C (SIGINT) and SIGTERM: exit 130, requests in flight are recorded as
# "interrupted" and counted apart from failures (recorder and summary), a
# footer says interrupted, the trace checks intact. A second
# Ctrl-C kills at once even while the recorder is stuck writing to a full
# pipe, and what reached the pipe still reads back.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

# 200 tokens at 10 ms: each request takes about 2 s.
start_replay --synthetic 'ttft=20ms,tpot=10ms,tokens=200'

for sig in INT TERM; do
    out="$T/$sig.ttrace"
    "$TT_RECORD" -u "$URL" -m a -m b -n 20 --classes short-long -c 3 \
        -o "$out" 2>"$T/$sig.err" &
    pid=$!
    # wait until the first chunks are on disk (flushed every 100 ms)
    for _ in $(seq 1 100); do
        [ -s "$out" ] && [ "$(stat -c %s "$out")" -gt 2000 ] && break
        sleep 0.05
    done
    sleep 0.3
    kill -"$sig" "$pid"
    set +e; wait "$pid"; rc=$?; set -e
    assert_eq "$rc" 130 "exit status after SIG$sig"
    "$TT_ANALYZE" check "$out" >"$T/$sig.check" || fail "SIG$sig: trace damaged: $(cat "$T/$sig.check")"
    d=$(dump "$out")
    n=$(count "$d" request)
    [ "$n" -ge 3 ] && [ "$n" -lt 40 ] || fail "SIG$sig: $n requests recorded"
    check_complete "$d" "$n"
    assert_eq "$(jqs "$d" '.[]|select(.kind=="footer")|"\(.interrupted) \(.reason)"')" "true signal" "SIG$sig footer"
    assert_eq "$(jqs "$d" '[.[]|select(.kind=="result")|.error_kind]|map(select(.=="interrupted"))|length')" 3 "SIG$sig: in-flight requests interrupted"
    assert_eq "$(jqs "$d" '[.[]|select(.kind=="result")|.error_kind // "ok"]|unique|join(",")')" "interrupted" "SIG$sig: nothing finished in time"
    grep -q "interrupted by a signal" "$T/$sig.err" || fail "SIG$sig: summary: $(cat "$T/$sig.err")"
    grep -q "requests: 0 ok, 0 failed, 3 interrupted (stopped by the signal, not failures)" "$T/$sig.err" ||
        fail "SIG$sig: interrupted counted apart: $(cat "$T/$sig.err")"
done

# Interrupted requests are neither server failures nor in the goodput's
# denominator: model ok streams, bad answers 500, slow never starts before
# the signal. The recorder's lines and summary (json, csv, table) keep the
# three apart.
start_replay --synthetic 'ttft=5ms,tpot=1ms,tokens=5;model=slow,ttft=60s' --fault http-500@bad
out="$T/mix.ttrace"
"$TT_RECORD" -u "$URL" -m ok -m bad -m slow -n 300 -c 3 -o "$out" 2>"$T/mix.err" &
pid=$!
for _ in $(seq 1 100); do
    [ -s "$out" ] && [ "$(stat -c %s "$out")" -gt 2000 ] && break
    sleep 0.05
done
sleep 0.5
kill -INT "$pid"
set +e; wait "$pid"; rc=$?; set -e
assert_eq "$rc" 130 "exit status of the mixed run"
d=$(dump "$out")
n_ok=$(jqs "$d" '[.[]|select(.kind=="result" and .error_kind==null)]|length')
n_bad=$(jqs "$d" '[.[]|select(.kind=="result" and .error_kind=="http_500")]|length')
n_int=$(jqs "$d" '[.[]|select(.kind=="result" and .error_kind=="interrupted")]|length')
[ "$n_ok" -ge 1 ] && [ "$n_bad" -ge 1 ] || fail "mixed run: $n_ok ok, $n_bad http_500"
assert_eq "$n_int" 3 "mixed run: the slow requests in flight interrupted"
grep -q "requests: $n_ok ok, $n_bad failed (http_500: $n_bad), $n_int interrupted (stopped by the signal, not failures)" "$T/mix.err" ||
    fail "mixed run: recorder's requests line: $(cat "$T/mix.err")"
grep -q "the run was stopped early, but $n_bad requests\? failed" "$T/mix.err" ||
    fail "mixed run: the failed line counts server failures only: $(cat "$T/mix.err")"
"$TT_ANALYZE" summary "$out" --format json --slo ttft=10s >"$T/mix.json"
assert_eq "$(jq -r '.overall|"\(.requests) \(.ok) \(.failed) \(.interrupted) \(.errors|keys|join(","))"' "$T/mix.json")" \
    "$((n_ok + n_bad + n_int)) $n_ok $n_bad $n_int http_500" "summary json: interrupted apart from failed"
assert_eq "$(jq -r '.overall.goodput|"\(.met) \(.share)"' "$T/mix.json")" \
    "$n_ok $(jq -n "$n_ok / ($n_ok + $n_bad)")" "goodput: interrupted requests not in the denominator"
assert_eq "$(jq -r '[.groups[]|select(.model=="slow")]|"\(map(.failed)|add) \(map(.interrupted)|add)"' "$T/mix.json")" "0 3" "slow group: interrupted, not failed"
"$TT_ANALYZE" summary "$out" --format csv >"$T/mix.csv"
assert_eq "$(awk -F, '$1=="(all)" && $7=="ttft_ms" {print $3, $4, $5}' "$T/mix.csv")" \
    "$((n_ok + n_bad + n_int)) $n_ok $n_bad" "summary csv: failed without the interrupted"
"$TT_ANALYZE" summary "$out" --detail >"$T/mix.txt"
grep -q "($n_ok ok, $n_bad failed, $n_int interrupted" "$T/mix.txt" || fail "summary table: $(cat "$T/mix.txt")"
grep -q "errors: .*interrupted" "$T/mix.txt" && fail "summary table lists interrupted as an error: $(cat "$T/mix.txt")"

# A second Ctrl-C while blocked on a full pipe: killed at once.
start_replay --synthetic 'ttft=1ms,tpot=1ms,tokens=200'
mkfifo "$T/fifo"
"$TT_RECORD" -q -u "$URL" -m a -n 100000 --classes short-long -c 8 -o - >"$T/fifo" &
pid=$!
exec 3<"$T/fifo" # open the reading end, but do not read: the pipe fills
sleep 1.5
kill -INT "$pid"
sleep 0.5
kill -0 "$pid" 2>/dev/null || fail "the first Ctrl-C ended a recorder blocked on a full pipe?"
kill -INT "$pid"
# the second one must kill it
for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && { kill -9 "$pid"; fail "second Ctrl-C did not stop the recorder"; }
set +e; wait "$pid"; rc=$?; set -e
assert_eq "$rc" 130 "exit status after a second Ctrl-C"
cat <&3 >"$T/pipe.ttrace"
exec 3<&-
set +e; "$TT_ANALYZE" check "$T/pipe.ttrace" >"$T/pipe.check" 2>&1; rc=$?; set -e
case $rc in
    0) ;;
    # cut inside a record ("truncated"), or between two: every record
    # whole, no footer (a pipe buffer that ended on a record's end)
    1) grep -qE "truncated|INCOMPLETE: no footer" "$T/pipe.check" ||
        fail "pipe trace damaged, not cut: $(cat "$T/pipe.check")" ;;
    *) fail "check exit $rc" ;;
esac
set +e; "$TT_ANALYZE" dump "$T/pipe.ttrace" >"$T/pipe.jsonl" 2>/dev/null; set -e
[ "$(count "$T/pipe.jsonl" header)" = 1 ] || fail "no header read back from the pipe"
[ "$(count "$T/pipe.jsonl" chunk)" -gt 10 ] || fail "no chunks read back from the pipe"
echo ok
