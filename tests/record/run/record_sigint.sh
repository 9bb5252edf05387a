#!/usr/bin/env bash
# Ctrl-C (SIGINT) and SIGTERM: exit 130, requests in flight are recorded as
# "interrupted", a footer says interrupted, the trace checks intact. A second
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
done

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
    1) grep -q "truncated" "$T/pipe.check" || fail "pipe trace damaged, not cut: $(cat "$T/pipe.check")" ;;
    *) fail "check exit $rc" ;;
esac
set +e; "$TT_ANALYZE" dump "$T/pipe.ttrace" >"$T/pipe.jsonl" 2>/dev/null; set -e
[ "$(count "$T/pipe.jsonl" header)" = 1 ] || fail "no header read back from the pipe"
[ "$(count "$T/pipe.jsonl" chunk)" -gt 10 ] || fail "no chunks read back from the pipe"
echo ok
