#!/usr/bin/env bash
# A client that leaves before the first byte (issue 30, item 3): curl
# --max-time 1 against an upstream whose TTFT is 4 s. The proxy must
# cancel the upstream request when the client closes, not when the
# upstream's first byte arrives (it did: recorded client_cancelled after
# 4.002 s, and an upstream that never answers held it for --timeout): the
# replay server's stream ends within ~1.5 s and the result says
# client_cancelled with the time the client really left.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"
. "$TT_SOURCE_DIR/tests/lib/proxy_lib.sh"

start_replay --synthetic 'ttft=4000ms,tpot=10ms,tokens=20'
start_proxy "$T/p.ttrace"
chat='{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}'
active() { curl -s "$URL/_replay/stats" | jq .active_streams; }

t0=$(date +%s%N)
set +e
curl -sN --max-time 1 -o /dev/null -H 'Content-Type: application/json' \
    --data-binary "$chat" "$PXURL/v1/chat/completions"
rc=$?
set -e
assert_eq "$rc" 28 "curl stopped by --max-time"
gone=
for _ in $(seq 1 60); do
    [ "$(active)" = 0 ] && { gone=$(date +%s%N); break; }
    sleep 0.05
done
[ -n "$gone" ] || fail "the upstream still streams 3 s after the client left"
ms=$(((gone - t0) / 1000000))
echo "upstream closed ${ms} ms after the request" >&2
# the client left at 1 s; the upstream's first byte is due at 4 s
[ "$ms" -lt 2500 ] || fail "the upstream saw the close after $ms ms (the client left at 1000 ms)"
grep -q "#1 .*client_cancelled" "$PXERR" || fail "log: $(cat "$PXERR")"
stop_proxy
d=$(dump "$T/p.ttrace")
assert_eq "$(jqs "$d" '.[]|select(.kind=="result" and .id==1)|.error_kind')" client_cancelled "recorded kind"
took=$(jqs "$d" '(.[]|select(.kind=="request" and .id==1)|.start_ns) as $s | .[]|select(.kind=="result" and .id==1)|((.end_ns - $s) / 1000000 | floor)')
echo "recorded after $took ms" >&2
[ "$took" -ge 900 ] && [ "$took" -lt 2000 ] || fail "recorded client_cancelled after $took ms, not when the client left (1000 ms)"
echo ok
