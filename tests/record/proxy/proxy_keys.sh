#!/usr/bin/env bash
# Keys through tokentrace-proxy: the client's own key is forwarded (the
# replay server checks it), or the proxy injects --key-env's; either way it
# is never in the trace, the proxy's log or the analyzer's output, also
# when the upstream echoes it in headers and body (the client still gets
# the upstream's bytes). A non-loopback --listen needs --allow-remote and a
# local token, which a client must send.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"
. "$TT_SOURCE_DIR/tests/lib/proxy_lib.sh"

export UPKEY="sk-proxytest-$RANDOM$RANDOM-0123456789abcdefABCDEF"
export PXTOKEN="local-token-$RANDOM$RANDOM-xyzXYZ0123"
start_replay --synthetic 'ttft=10ms,tpot=1ms,tokens=16' --expect-key-env UPKEY \
    --fault leaky-body@m-leak --fault leaky-headers@m-lh
chat='{"model":"MODEL","stream":true,"messages":[{"role":"user","content":"hi"}]}'
msgs='{"model":"m","max_tokens":32,"stream":true,"messages":[{"role":"user","content":"hi"}]}'
# post URL PATH BODY OUT [curl args]: prints the status
post() {
    local url=$1 path=$2 body=$3 out=$4; shift 4
    curl -sN -o "$out" -D "$out.h" -w '%{http_code}' -H 'Content-Type: application/json' "$@" \
        --data-binary "$body" "$url$path"
}
# the capture is zstd-compressed: its bytes are read decompressed
command -v zstd >/dev/null || fail "the zstd command is needed to read the capture's bytes"
nokey() { # FILE...: none holds either secret (a capture decompressed)
    for f in "$@"; do
        ! zstd -dcf "$f" | grepq -F "$UPKEY" || fail "the key is in $f"
        ! zstd -dcf "$f" | grepq -F "$PXTOKEN" || fail "the local token is in $f"
    done
}

# 1. forwarding the client's key
start_proxy "$T/fwd.ttrace"
assert_eq "$(post "$PXURL" /v1/chat/completions "${chat/MODEL/m}" "$T/ok" -H "Authorization: Bearer $UPKEY")" 200 "client key forwarded"
assert_eq "$(post "$PXURL" /v1/chat/completions "${chat/MODEL/m}" "$T/nokey")" 401 "no key: the upstream's 401"
assert_eq "$(post "$PXURL" /v1/messages "$msgs" "$T/anth" -H "x-api-key: $UPKEY")" 200 "x-api-key forwarded"
assert_eq "$(post "$PXURL" /v1/chat/completions "${chat/MODEL/m-leak}" "$T/leak" -H "Authorization: Bearer $UPKEY")" 200 "leaky body"
assert_eq "$(post "$PXURL" /v1/chat/completions "${chat/MODEL/m-lh}" "$T/lh" -H "Authorization: Bearer $UPKEY")" 200 "leaky headers"
stop_proxy
d=$(dump "$T/fwd.ttrace")
assert_eq "$(jqs "$d" '[.[]|select(.kind=="result")|.error_kind // "ok"]|join(",")')" "ok,http_401,ok,ok,ok" "kinds"
# the client got the upstream's bytes, key and all; the trace has them masked
grep -qF "$UPKEY" "$T/leak" || fail "the leaky body did not reach the client as sent"
chunk_bytes "$d" 4 "$T/leak.rec"
assert_eq "$(stat -c %s "$T/leak.rec")" "$(stat -c %s "$T/leak")" "masked body keeps its length"
stars=$(printf '%*s' ${#UPKEY} '' | tr ' ' '*')
python3 -c 'import sys; a=open(sys.argv[1],"rb").read(); b=open(sys.argv[2],"rb").read(); sys.exit(0 if a.replace(sys.argv[3].encode(), sys.argv[4].encode())==b else 1)' \
    "$T/leak" "$T/leak.rec" "$UPKEY" "$stars" || fail "the trace's body is not the client's with the key masked"
grep -qiF "$UPKEY" "$T/lh.h" || fail "the leaky headers did not reach the client"
assert_eq "$(jqs "$d" '.[]|select(.kind=="result" and .id==5)|.headers["set-cookie"]')" "[redacted]" "set-cookie redacted"
"$TT_ANALYZE" summary --detail "$T/fwd.ttrace" >"$T/sum.txt" 2>&1
"$TT_ANALYZE" requests "$T/fwd.ttrace" >"$T/req.txt" 2>&1
"$TT_ANALYZE" info "$T/fwd.ttrace" >"$T/info.txt" 2>&1
nokey "$T/fwd.ttrace" "$PXERR" "$d" "$T/sum.txt" "$T/req.txt" "$T/info.txt"
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.options.auth')" forwarded "auth option"

# 2. the proxy injects the key: the client holds none (bearer, or x-api-key
# on /v1/messages); whatever the client sends is replaced
export PXKEY=$UPKEY
start_proxy "$T/inj.ttrace" --key-env PXKEY
assert_eq "$(post "$PXURL" /v1/chat/completions "${chat/MODEL/m}" "$T/i1")" 200 "injected bearer"
assert_eq "$(post "$PXURL" /v1/messages "$msgs" "$T/i2")" 200 "injected x-api-key"
assert_eq "$(post "$PXURL" /v1/chat/completions "${chat/MODEL/m}" "$T/i3" -H 'Authorization: Bearer wrong')" 200 "client key replaced"
stop_proxy
di=$(dump "$T/inj.ttrace")
assert_eq "$(jqs "$di" '.[]|select(.kind=="header")|"\(.options.auth) \(.options.api_key_env)"')" "injected PXKEY" "auth options"
nokey "$T/inj.ttrace" "$PXERR" "$di"

# 3. remote access
expect_exit 2 "$TT_PROXY" --listen 0.0.0.0:0 -u "$URL" -o "$T/r.ttrace" 2>"$T/r1.err"
grep -q "not a loopback address" "$T/r1.err" || fail "remote refusal: $(cat "$T/r1.err")"
expect_exit 2 "$TT_PROXY" --listen 0.0.0.0:0 --allow-remote -u "$URL" -o "$T/r.ttrace" 2>"$T/r2.err"
grep -q -- "--allow-remote needs --token-env" "$T/r2.err" || fail "token demanded: $(cat "$T/r2.err")"
expect_exit 2 "$TT_PROXY" --allow-remote --token-env NO_SUCH_VAR_X -u "$URL" -o "$T/r.ttrace" 2>"$T/r3.err"
grep -q "NO_SUCH_VAR_X: the variable is not set" "$T/r3.err" || fail "unset token: $(cat "$T/r3.err")"
before=$(curl -s "$URL/_replay/stats" | jq .requests)
pf="$T/remote.port"
"$TT_PROXY" --listen 0.0.0.0:0 --allow-remote --token-env PXTOKEN --key-env PXKEY --port-file "$pf" \
    -u "$URL" -o "$T/remote.ttrace" 2>"$T/remote.err" &
rp=$!
TT_PIDS+=("$rp")
for _ in $(seq 1 100); do [ -s "$pf" ] && break; sleep 0.05; done
RURL="http://127.0.0.1:$(cat "$pf")"
assert_eq "$(post "$RURL" /v1/chat/completions "${chat/MODEL/m}" "$T/r-no")" 401 "no token: refused"
jq -e '.error.message|test("local token")' "$T/r-no" >/dev/null || fail "refusal body: $(cat "$T/r-no")"
assert_eq "$(post "$RURL" /v1/chat/completions "${chat/MODEL/m}" "$T/r-bad" -H "X-Tokentrace-Token: nope")" 401 "bad token: refused"
assert_eq "$(curl -s "$URL/_replay/stats" | jq .requests)" "$((before + 1))" "refused requests never reach the upstream (+1: this stats request)"
assert_eq "$(post "$RURL" /v1/chat/completions "${chat/MODEL/m}" "$T/r-ok" -H "X-Tokentrace-Token: $PXTOKEN")" 200 "token header"
assert_eq "$(post "$RURL" /v1/chat/completions "${chat/MODEL/m}" "$T/r-ok2" -H "Authorization: Bearer $PXTOKEN")" 200 "token as the client's key"
kill -INT "$rp"
wait "$rp" || fail "remote proxy exit"
dr=$(dump "$T/remote.ttrace")
assert_eq "$(count "$dr" result)" 2 "only the admitted requests are recorded"
nokey "$T/remote.ttrace" "$T/remote.err" "$dr"
echo ok
