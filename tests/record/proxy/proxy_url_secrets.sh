#!/usr/bin/env bash
# Credentials in URLs through tokentrace-proxy (issue 30, the two critical
# leaks): an upstream URL with user:password@ or a query string is refused
# as tokentrace-record refuses it, naming neither secret; and every
# credential a client sends -- query parameter, key-looking path segment,
# x-goog-api-key, Cookie -- is masked in everything stored when a hostile
# upstream (tests/lib/echo_upstream.py) echoes it in its 404 body and
# headers, as OpenAI echoes the path ("Invalid URL (POST <path>)"): not in
# the trace, its share, requests, summary or the proxy's log. The client
# still gets the upstream's bytes as sent.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"
. "$TT_SOURCE_DIR/tests/lib/proxy_lib.sh"

PASS="pw-$RANDOM$RANDOM-secretpassword"
QK="qk-$RANDOM$RANDOM-querykey0123456789"
AK="ak-$RANDOM$RANDOM-apikeyparam012345"
SK="sk-$RANDOM$RANDOM-pathsegmentkey0123456789"
GK="gk-$RANDOM$RANDOM-googapikey0123456789"
CK="ck-$RANDOM$RANDOM-cookievalue0123456789"

# 1. the upstream URL: refused, the secret named nowhere
for u in "http://user:$PASS@127.0.0.1:9/v1" "http://127.0.0.1:9/v1?key=$QK"; do
    set +e
    timeout 5 "$TT_PROXY" --listen 127.0.0.1:0 -u "$u" -o "$T/refused.ttrace" -f >"$T/ref.out" 2>"$T/ref.err"
    rc=$?
    set -e
    assert_eq "$rc" 2 "-u with a credential is refused"
    [ ! -e "$T/refused.ttrace" ] || fail "a refused -u left a trace"
    ! grep -qF -e "$PASS" -e "$QK" "$T/ref.out" "$T/ref.err" || fail "the refusal prints the secret: $(cat "$T/ref.err")"
    grep -qi "credential\|query" "$T/ref.err" || fail "the refusal does not say why: $(cat "$T/ref.err")"
done

# 2. a client's credentials, echoed back by the upstream
pf="$T/echo.port"
python3 "$TT_SOURCE_DIR/tests/lib/echo_upstream.py" >"$pf" 2>"$T/echo.err" &
TT_PIDS+=("$!")
for _ in $(seq 1 100); do [ -s "$pf" ] && break; sleep 0.05; done
[ -s "$pf" ] || fail "echo_upstream.py did not start: $(cat "$T/echo.err")"
URL="http://127.0.0.1:$(head -1 "$pf")"
start_proxy "$T/px.ttrace"
chat='{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}'
post() { # PATH OUT [curl args]: prints the status
    local path=$1 out=$2; shift 2
    curl -s -o "$out" -w '%{http_code}' -H 'Content-Type: application/json' "$@" \
        --data-binary "$chat" "$PXURL$path"
}
assert_eq "$(post "/v1/chat/completions?key=$QK" "$T/c1")" 404 "query key"
assert_eq "$(post "/v1/chat/completions?foo=1&api-key=$AK" "$T/c2")" 404 "api-key parameter"
assert_eq "$(post "/v1/$SK/chat/completions" "$T/c3")" 404 "path segment key"
assert_eq "$(post /v1/chat/completions "$T/c4" -H "x-goog-api-key: $GK")" 404 "x-goog-api-key"
assert_eq "$(post /v1/chat/completions "$T/c5" -H "Cookie: session=$CK; theme=dark")" 404 "cookie"
stop_proxy
# the client got the echo as the upstream sent it
grep -qF "$QK" "$T/c1" || fail "the client did not get the upstream's bytes (query)"
grep -qF "$CK" "$T/c5" || fail "the client did not get the upstream's bytes (cookie)"
d=$(dump "$T/px.ttrace")
"$TT_ANALYZE" share "$T/px.ttrace" -o "$T/shared.ttrace" >"$T/share.out" 2>&1
"$TT_ANALYZE" dump "$T/shared.ttrace" >"$T/shared.jsonl"
"$TT_ANALYZE" requests "$T/px.ttrace" >"$T/req.txt" 2>&1
"$TT_ANALYZE" summary --detail "$T/px.ttrace" >"$T/sum.txt" 2>&1
command -v zstd >/dev/null || fail "the zstd command is needed to read the capture's bytes"
for f in "$T/px.ttrace" "$d" "$T/shared.ttrace" "$T/shared.jsonl" "$T/req.txt" "$T/sum.txt" "$PXERR" "$T/share.out"; do
    for k in "$QK" "$AK" "$SK" "$GK" "$CK"; do
        ! zstd -dcf "$f" | grepq -F "$k" || fail "a client's credential ${k%%-*} is in $(basename "$f")"
    done
done
# masked with its length kept: the chunks are the client's bytes, keys starred
chunk_bytes "$d" 1 "$T/c1.rec"
assert_eq "$(stat -c %s "$T/c1.rec")" "$(stat -c %s "$T/c1")" "masked body keeps its length"
