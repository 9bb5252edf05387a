#!/usr/bin/env bash
# proxy_max_tokens: the request record keeps the output cap the client's
# body asked for (max_completion_tokens, else max_tokens, else
# max_output_tokens; -1 when none), which summary --as sglang divides by
# when a stream has no usage (docs/definitions.md). Before, the proxy
# stored -1 whatever the body said.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"
. "$TT_SOURCE_DIR/tests/lib/proxy_lib.sh"

start_replay -q --synthetic 'ttft=5ms,tpot=1ms,tokens=6'
start_proxy "$T/p.ttrace"
post() {
    curl -sN -o /dev/null -H 'Content-Type: application/json' \
        --data-binary "$2" "$PXURL$1" || fail "curl $1"
}
post /v1/chat/completions '{"model":"m","stream":true,"max_tokens":77,"messages":[{"role":"user","content":"hi"}]}'
post /v1/chat/completions '{"model":"m","stream":true,"max_tokens":12,"max_completion_tokens":33,"messages":[{"role":"user","content":"hi"}]}'
post /v1/messages '{"model":"m","max_tokens":64,"stream":true,"messages":[{"role":"user","content":"hi"}]}'
post /v1/chat/completions '{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}'
post /v1/chat/completions '{"model":"m","stream":true,"max_tokens":1.5,"messages":[{"role":"user","content":"hi"}]}'
stop_proxy
got=$(jqs "$(dump "$T/p.ttrace")" '[.[] | select(.kind == "request")] | sort_by(.id) | map(.max_tokens) | join(" ")')
assert_eq "$got" "77 33 64 -1 -1" "max_tokens of the five requests"
echo "proxy_max_tokens: ok"
