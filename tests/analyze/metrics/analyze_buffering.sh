#!/usr/bin/env bash
# analyze_buffering: a proxy that holds the stream and releases it every
# 80 ms (tests/lib/buffering_proxy.py) between the recorder and the replay
# server makes chunks of one token each arrive in bursts: summary warns
# that the stream looks buffered and `requests` marks the requests; the
# same server without the proxy is not flagged; the doctor (--check) says
# the same. Keep-alive comments are counted per request.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
start_replay -q --fault keepalive@slow \
    --synthetic 'ttft=20ms,tpot=5ms,tokens=40;model=slow,ttft=450ms,tpot=5ms,tokens=10'
python3 "$TT_SOURCE_DIR/tests/lib/buffering_proxy.py" "$T/proxy.port" "127.0.0.1:$PORT" 80 &
TT_PIDS+=("$!")
for _ in $(seq 1 100); do [ -s "$T/proxy.port" ] && break; sleep 0.05; done
[ -s "$T/proxy.port" ] || fail "proxy did not start"
PROXY="http://127.0.0.1:$(cat "$T/proxy.port")"

"$TT_RECORD" -u "$PROXY" -m m -n 2 -c 2 --classes short-short -o "$T/held.ttrace" -q 2>"$T/h.err" ||
    { cat "$T/h.err"; fail "record through the proxy"; }
# direct: a loaded machine can stall the replay server itself, and a
# stalled server's stream arrives in bursts exactly like a gateway's
# (nothing on the client's side tells them apart), so a direct run that
# looks buffered is recorded again, up to 3 times; a detector that flags
# a direct stream does it every time
for attempt in 1 2 3; do
    "$TT_RECORD" -u "$URL" -m m -m slow -n 2 -c 2 --classes short-short -o "$T/direct.ttrace" -q --force 2>"$T/d.err" ||
        { cat "$T/d.err"; fail "record direct"; }
    "$TT_ANALYZE" summary "$T/direct.ttrace" >/dev/null 2>"$T/direct.warn"
    ! grep -q "buffered" "$T/direct.warn" && break
    echo "analyze_buffering: direct attempt $attempt looked buffered" >&2
done

"$TT_ANALYZE" summary "$T/held.ttrace" >/dev/null 2>"$T/held.warn"
grep -q "requests look buffered on the way" "$T/held.warn" ||
    { cat "$T/held.warn"; fail "no buffering warning through the buffering proxy"; }
"$TT_ANALYZE" requests "$T/held.ttrace" --format json |
    jq -se '[.[] | select(.ok and (.warmup|not))] | length > 0 and all(.buffered and .burst_share >= 0.5)' >/dev/null ||
    fail "requests through the proxy not marked buffered"

"$TT_ANALYZE" summary "$T/direct.ttrace" >/dev/null 2>"$T/direct.warn"
"$TT_ANALYZE" requests "$T/direct.ttrace" --format json >"$T/direct.jsonl"
# A recorder that stalls (a loaded machine: its self-check says so) piles
# events up in the socket exactly like a gateway; only a calm run can show
# that the direct stream is not flagged.
lag=$("$TT_ANALYZE" summary "$T/direct.ttrace" --format json 2>/dev/null | jq '.traces[0].recorder_loop_lag_ms.max // 0')
if jq -en "$lag < 20" >/dev/null; then
    ! grep -q "buffered" "$T/direct.warn" || { cat "$T/direct.warn"; fail "warned without a proxy"; }
    jq -se '[.[] | select(.ok)] | length > 0 and all(.buffered | not)' "$T/direct.jsonl" >/dev/null ||
        fail "direct requests marked buffered"
else
    grep -q "buffered" "$T/direct.warn" && ! grep -q "the recorder itself woke up that late" "$T/direct.warn" &&
        { cat "$T/direct.warn"; fail "a buffering warning on a stalled recorder does not say so"; }
    echo "analyze_buffering: the recorder stalled ${lag} ms (loaded machine): direct check skipped" >&2
fi
# keep-alive comments (every 200 ms before a 450 ms TTFT) are counted
jq -se '[.[] | select(.model=="slow" and .ok)] | length > 0 and all(.keepalives >= 1)' "$T/direct.jsonl" >/dev/null ||
    fail "keep-alives not counted"
jq -se '[.[] | select(.model=="m")] | all(.keepalives == 0)' "$T/direct.jsonl" >/dev/null ||
    fail "keep-alives counted where none were sent"
# the doctor says so too, and only through the proxy
"$TT_RECORD" --check -u "$PROXY" -m m >"$T/check.held" 2>&1 || { cat "$T/check.held"; fail "check through the proxy"; }
grep -q "warning: the stream looks buffered on the way" "$T/check.held" ||
    { cat "$T/check.held"; fail "the doctor did not report buffering"; }
# (the doctor's own probe can stall on a loaded machine like the recording
# above: a report of buffering without the proxy must repeat 3 times)
for attempt in 1 2 3; do
    "$TT_RECORD" --check -u "$URL" -m m >"$T/check.direct" 2>&1 || { cat "$T/check.direct"; fail "check direct"; }
    ! grep -q "buffered" "$T/check.direct" && break
    echo "analyze_buffering: doctor attempt $attempt saw buffering without the proxy" >&2
done
if jq -en "$lag < 20" >/dev/null; then
    ! grep -q "buffered" "$T/check.direct" || { cat "$T/check.direct"; fail "the doctor reported buffering without a proxy"; }
fi
echo "analyze_buffering: ok"
