#!/usr/bin/env bash
# No client can lock the others out (issue 30, item 4; issue 29, item 3).
# At ulimit -n 256, with --allow-remote and a local token:
# 1. 300 half-open connections (half a request line each) no longer lock
#    out the token holder (they were kept 660 s): the holder is served
#    within a few tries, the half-open ones are closed after
#    --header-timeout, and the proxy says so and counts it;
# 2. 300 real streams at once: the ones it cannot serve get a 503 with a
#    reason, none is recorded as an upstream `connect` error, the proxy
#    neither busy-loops on accept() nor floods its stderr.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"
. "$TT_SOURCE_DIR/tests/lib/proxy_lib.sh"

start_replay --synthetic 'ttft=100ms,tpot=100ms,tokens=30'
export TT_TOKEN="tok-$RANDOM$RANDOM-localtoken"
pf="$T/px.port"
(ulimit -n 256 && exec "$TT_PROXY" --listen 127.0.0.1:0 --allow-remote --token-env TT_TOKEN \
    --header-timeout 2 --port-file "$pf" -u "$URL" -o "$T/p.ttrace" -f) 2>"$T/px.err" &
PROXY_PID=$!
TT_PIDS+=("$PROXY_PID")
PXERR="$T/px.err"
wait_port_file "$pf" "$PROXY_PID" "$PXERR" "proxy"
PXURL="http://127.0.0.1:$(cat "$pf")"
grep -q "up to 96 client connections at once (open-file limit 256)" "$PXERR" || fail "the cap is not said: $(cat "$PXERR")"
cpu() { awk '{print $14 + $15}' "/proc/$PROXY_PID/stat"; }
chat='{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}'
holder() {
    curl -s -o "$T/h.out" -w '%{http_code}' --max-time 5 -H "X-Tokentrace-Token: $TT_TOKEN" \
        -H 'Content-Type: application/json' --data-binary "$chat" "$PXURL/v1/chat/completions"
}

# 1. half-open connections
c0=$(cpu)
python3 "$TT_SOURCE_DIR/tests/lib/hostile_client.py" "${PXURL#http://}" halfopen 300 9 >"$T/half.out" &
hpid=$!
for _ in $(seq 1 100); do grep -q "^open" "$T/half.out" 2>/dev/null && break; sleep 0.05; done
sleep 1.2 # the attackers have waited over 1 s: at the cap they give way
served=
for try in 1 2 3 4 5 6; do
    code=$(holder) || true
    [ "$code" = 200 ] && { served=$try; break; }
    echo "holder try $try: $code $(head -c 200 "$T/h.out")" >&2
    sleep 0.5
done
[ -n "$served" ] || fail "the token holder is locked out by half-open connections"
wait "$hpid"
cat "$T/half.out" >&2
open=$(awk '$1=="open"{print $2}' "$T/half.out")
closed=$(awk '$1=="closed_by_peer"{print $2}' "$T/half.out")
echo "holder served at try $served; $open half-open accepted, $closed closed by the proxy within 9 s" >&2
assert_eq "$closed" "$open" "every half-open connection closed by the proxy"
grep -qE "header-timeout|connection cap|file descriptors" "$PXERR" || fail "nothing said: $(cat "$PXERR")"

# 2. 300 real streams at once
python3 - "${PXURL#http://}" "$TT_TOKEN" "$chat" >"$T/many.out" <<'PY'
import socket, sys, threading
host, port = sys.argv[1].split(":")
tok, body = sys.argv[2], sys.argv[3].encode()
res = []
def one():
    try:
        s = socket.create_connection((host, int(port)), timeout=20)
        s.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nX-Tokentrace-Token: %s\r\n"
                  b"Content-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"
                  % (tok.encode(), len(body)) + body)
        raw = b""
        while True:
            d = s.recv(65536)
            if not d:
                break
            raw += d
        line = raw.split(b"\r\n", 1)[0].decode() if raw else "closed"
        why = raw.split(b"\r\n\r\n", 1)[1][:200].decode(errors="replace") if b"503" in line.encode() else ""
        res.append((line, why))
    except OSError as e:
        res.append(("error " + type(e).__name__, ""))
ts = [threading.Thread(target=one) for _ in range(300)]
for t in ts: t.start()
for t in ts: t.join()
from collections import Counter
for k, v in Counter(r[0] for r in res).items():
    print("%d\t%s" % (v, k))
for r in res:
    if r[1]:
        print("why\t" + r[1].replace("\n", " "))
        break
PY
cat "$T/many.out" >&2
c1=$(cpu)
ok=$(awk -F'\t' '$2 ~ / 200 /{print $1}' "$T/many.out")
[ "${ok:-0}" -ge 50 ] || fail "only ${ok:-0} of 300 streams served"
! grep -q " 502 " "$T/many.out" || fail "a stream got a 502 (the upstream's failure) for the proxy's own limit"
if grep -q " 503 " "$T/many.out"; then
    grep -q "^why.*tokentrace-proxy: .*\(connection cap\|file descriptors\)" "$T/many.out" || fail "a 503 without its reason"
fi
lines=$(wc -l <"$PXERR")
ticks=$((c1 - c0))
echo "proxy stderr $lines lines; CPU $ticks ticks for both attacks" >&2
[ "$lines" -lt 1000 ] || fail "stderr flooded: $lines lines"
stop_proxy
d=$(dump "$T/p.ttrace")
assert_eq "$(jqs "$d" '[.[]|select(.kind=="result" and .error_kind=="connect")]|length')" 0 "streams recorded as upstream connect errors"
jqs "$d" '.[]|select(.kind=="footer")|.proxy_limits' >&2
[ "$(jqs "$d" '.[]|select(.kind=="footer")|(.proxy_limits.header_timeout // 0) + (.proxy_limits.waiting_connection_closed // 0)')" -ge 1 ] ||
    fail "no closed half-open connection counted"
echo ok
