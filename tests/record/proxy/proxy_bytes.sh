#!/usr/bin/env bash
# curl -N through tokentrace-proxy to the replay server, for every API kind
# and several upstream faults: the client gets the upstream's status and
# exactly the bytes the upstream wrote (their count from --log-sends, their
# content from the proxy's own chunk records); the trace has one handed
# record per chunk and the recorder's error kinds; the analyzer reports the
# proxy's added latency.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"
. "$TT_SOURCE_DIR/tests/lib/proxy_lib.sh"

start_replay --synthetic 'ttft=20ms,tpot=2ms,tokens=24' --log-sends "$T/sends.tsv" \
    --fault reset-mid-stream@m-reset --fault http-429@m-429 --fault error-mid-stream@m-err \
    --fault stall@m-stall --fault split-utf8@m-utf8
start_proxy "$T/p.ttrace" --timeout 1500ms

# id path model -> client body in $T/c.ID, headers in $T/c.ID.h, curl's code
n=0
send() {
    local path=$1 model=$2 body
    n=$((n + 1))
    case $path in
    */messages) body='{"model":"'$model'","max_tokens":64,"stream":true,"messages":[{"role":"user","content":"hi"}]}' ;;
    */completions) [[ $path == */chat/* ]] &&
        body='{"model":"'$model'","stream":true,"messages":[{"role":"user","content":"hi"}]}' ||
        body='{"model":"'$model'","stream":true,"prompt":"hi"}' ;;
    esac
    set +e
    curl -sN -o "$T/c.$n" -D "$T/c.$n.h" -H 'Content-Type: application/json' \
        -H "X-Request-Id: px-$n" --data-binary "$body" "$PXURL$path"
    echo $? >"$T/c.$n.rc"
    set -e
}
# the cases: path model want_status want_kind want_curl_rc
cases=(
    "/v1/chat/completions m-ok 200 - 0"
    "/v1/completions m-ok 200 - 0"
    "/v1/messages m-ok 200 - 0"
    "/api/v1/chat/completions m-utf8 200 - 0"
    "/v1/chat/completions m-429 429 http_429 0"
    "/v1/chat/completions m-err 200 stream_error 0"
    "/v1/chat/completions m-reset 200 reset 18"
    "/v1/chat/completions m-stall 200 timeout 18"
)
for c in "${cases[@]}"; do
    read -r path model _ <<<"$c"
    send "$path" "$model"
done
sleep 1.2 # the replay server's send log is flushed once a second
stop_proxy
"$TT_ANALYZE" check "$T/p.ttrace" >"$T/check.out" || fail "check: $(cat "$T/check.out")"
d=$(dump "$T/p.ttrace")
check_complete "$d" ${#cases[@]}
i=0
for c in "${cases[@]}"; do
    i=$((i + 1))
    read -r path model status kind rc <<<"$c"
    what="$path $model"
    assert_eq "$(awk 'NR==1 {print $2}' "$T/c.$i.h")" "$status" "$what: status to the client"
    assert_eq "$(cat "$T/c.$i.rc")" "$rc" "$what: curl exit"
    chunk_bytes "$d" "$i" "$T/up.$i"
    cmp "$T/c.$i" "$T/up.$i" || fail "$what: client bytes differ from the upstream's"
    [ -s "$T/c.$i" ] || fail "$what: no bytes"
    if [ "$status" = 200 ]; then # the error statuses are not in the send log
        assert_eq "$(stat -c %s "$T/c.$i")" "$(sent_bytes "$T/sends.tsv" "px-$i")" "$what: bytes the upstream wrote"
    fi
    want_kind=$kind
    [ "$kind" = - ] && want_kind=null
    assert_eq "$(jqs "$d" ".[]|select(.kind==\"result\" and .id==$i)|.error_kind // \"null\"")" "$want_kind" "$what: error kind"
    assert_eq "$(jqs "$d" ".[]|select(.kind==\"result\" and .id==$i)|.http_status")" "$status" "$what: recorded status"
    # one handed record per chunk, in order, none before its receive
    assert_eq "$(jqs "$d" "[.[]|select(.kind==\"handed\" and .request_id==$i)] as \$h
        | [.[]|select(.kind==\"chunk\" and .request_id==$i)] as \$c
        | (\$h|map(.chunk))==[range(0;\$c|length)] and
          ([\$h, \$c]|transpose|map(.[0].recv_ns==.[1].t_ns and .[0].handed_ns>=.[0].recv_ns)|all)")" true "$what: handed records"
done
# each request records the API of its own path
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")|.api]|join(",")')" \
    "openai-chat,openai-completions,anthropic,openai-chat,openai-chat,openai-chat,openai-chat,openai-chat" "request apis"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")|.model]|join(",")')" \
    "m-ok,m-ok,m-ok,m-utf8,m-429,m-err,m-reset,m-stall" "request models"
# the upstream's own headers reach the client (Retry-After of the 429)
grep -qi '^retry-after: 2' "$T/c.5.h" || fail "429: Retry-After not passed on"
grep -qi '^x-request-id: px-1' "$T/c.1.h" || fail "X-Request-Id not echoed through the proxy"

# the analyzer: the API per request (anthropic parsed as anthropic), and
# the proxy's own added latency, in the table and in JSON
"$TT_ANALYZE" summary --width 300 "$T/p.ttrace" >"$T/sum.txt" 2>"$T/sum.err" || fail "summary: $(cat "$T/sum.err")"
grep -q "^proxy: time inside tokentrace-proxy per chunk p50 [0-9.]* ms, p99 [0-9.]* ms, max [0-9.]* ms ([0-9]* chunks)" "$T/sum.txt" ||
    fail "no proxy line: $(cat "$T/sum.txt")"
# the three API kinds' m-ok streams all parsed to tokens (none failed)
grep -Eq "^  proxy +3 +0% " "$T/sum.txt" || fail "m-ok row: $(cat "$T/sum.txt")"
"$TT_ANALYZE" summary --format json "$T/p.ttrace" >"$T/sum.json"
assert_eq "$(jq '.traces[0].proxy_added_latency_ms.n' "$T/sum.json")" \
    "$(jqs "$d" 'map(select(.kind=="handed"))|length')" "JSON proxy chunks"
assert_eq "$(jq '.traces[0].proxy_added_latency_ms | .p50 <= .p99 and .p99 <= .max and .p50 >= 0' "$T/sum.json")" true "JSON proxy percentiles"
# no upstream response at all: the one made-up reply, a minimal 502
"$TT_PROXY" --listen 127.0.0.1:0 --port-file "$T/dead.port" -u http://127.0.0.1:1 -o "$T/dead.ttrace" -f 2>"$T/dead.err" &
dp=$!
TT_PIDS+=("$dp")
for _ in $(seq 1 100); do [ -s "$T/dead.port" ] && break; sleep 0.05; done
code=$(curl -s -o "$T/dead.body" -w '%{http_code}' --data-binary '{"model":"x","stream":true}' "http://127.0.0.1:$(cat "$T/dead.port")/v1/chat/completions")
assert_eq "$code" 502 "refused upstream: status"
jq -e '.error.message|test("no response from the upstream \\(connect\\)")' "$T/dead.body" >/dev/null || fail "502 body: $(cat "$T/dead.body")"
kill -INT "$dp"
wait "$dp" || fail "proxy exit"
dd=$(dump "$T/dead.ttrace")
assert_eq "$(jqs "$dd" '.[]|select(.kind=="result")|"\(.http_status) \(.error_kind)"')" "0 connect" "refused upstream: recorded"
echo ok
