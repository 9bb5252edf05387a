#!/usr/bin/env bash
# The proxy's own limits under attack (issue 30, items 5 and 6, and the
# secret cap): each one is refused with a status and a reason the client
# can read, said on the proxy's stderr, counted in the footer's
# proxy_limits and, for a request on an API path, recorded as a result
# of kind proxy_refused; none of them stalls the other streams.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"
. "$TT_SOURCE_DIR/tests/lib/proxy_lib.sh"

pf="$T/echo.port"
python3 "$TT_SOURCE_DIR/tests/lib/echo_upstream.py" >"$pf" 2>"$T/echo.err" &
TT_PIDS+=("$!")
for _ in $(seq 1 100); do [ -s "$pf" ] && break; sleep 0.05; done
[ -s "$pf" ] || fail "echo_upstream.py did not start: $(cat "$T/echo.err")"
URL="http://127.0.0.1:$(head -1 "$pf")/v1"
start_proxy "$T/p.ttrace"
chat='{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}'
limit() { jqs "$d" ".[]|select(.kind==\"footer\")|.proxy_limits.$1 // 0"; }

# 1. more credentials than the proxy masks (30 cookies): said and counted,
#    not silently stored
cookies=$(for i in $(seq 1 30); do printf 'c%d=cookievalue%04d-%d; ' "$i" "$i" "$RANDOM"; done)
code=$(curl -s -o "$T/r1" -w '%{http_code}' -H 'Content-Type: application/json' \
    -H "Cookie: ${cookies%; }" --data-binary "$chat" "$PXURL/v1/chat/completions")
assert_eq "$code" 404 "the echo's 404 passes"
grep -q "credential(s) more than the proxy masks" "$PXERR" || fail "no warning: $(cat "$PXERR")"

stop_proxy
d=$(dump "$T/p.ttrace")
[ "$(limit credentials_unmasked)" -ge 8 ] || fail "credentials_unmasked: $(limit credentials_unmasked)"
echo ok
