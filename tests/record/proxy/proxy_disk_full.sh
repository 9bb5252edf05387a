#!/usr/bin/env bash
# The disk fills up under the proxy (issue 30, item 6): at ulimit -f the
# trace's writes fail; the proxy used to exit and cut every agent's
# stream. It must keep forwarding, stop recording and say so loudly (at
# once, and at the end with the count of requests it did not record).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"
. "$TT_SOURCE_DIR/tests/lib/proxy_lib.sh"

start_replay --synthetic 'ttft=0,tpot=0,tokens=3000'
pf="$T/px.port"
(ulimit -f 64 && exec "$TT_PROXY" --listen 127.0.0.1:0 --port-file "$pf" -u "$URL" \
    -o "$T/p.ttrace" -f) 2>"$T/px.err" &
PROXY_PID=$!
TT_PIDS+=("$PROXY_PID")
PXERR="$T/px.err"
wait_port_file "$pf" "$PROXY_PID" "$PXERR" "proxy"
PXURL="http://127.0.0.1:$(cat "$pf")"
chat='{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}'
direct=$(curl -s -H 'Content-Type: application/json' --data-binary "$chat" "$URL/v1/chat/completions" | wc -c)
for i in 1 2 3 4; do
    n=$(curl -s --max-time 20 -H 'Content-Type: application/json' --data-binary "$chat" \
        "$PXURL/v1/chat/completions" | wc -c)
    assert_eq "$n" "$direct" "request $i: every byte through the proxy"
    sleep 0.3 # a flush (every 100 ms) meets the full file
done
kill -0 "$PROXY_PID" || fail "the proxy exited: $(cat "$PXERR")"
grep -q "RECORDING STOPPED" "$PXERR" || fail "not said: $(cat "$PXERR")"
kill -INT "$PROXY_PID"
rc=0
wait "$PROXY_PID" || rc=$?
assert_eq "$rc" 1 "exit status of a proxy whose trace is incomplete"
grep -E "recording stopped there and [1-9][0-9]* request\(s\) after it were forwarded, not recorded" "$PXERR" >&2 ||
    fail "the end does not count the unrecorded requests: $(tail -3 "$PXERR")"
echo ok
