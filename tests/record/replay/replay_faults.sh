#!/usr/bin/env bash
# replay_faults: every --fault kind's behaviour as curl sees it: statuses,
# bodies, resets (curl 56), stalls and silence (curl 28 under --max-time),
# split UTF-8 that reassembles, CRLF, role-first, multi-token chunks,
# reasoning, keepalive, in-band errors, no usage, endless lines, "data:"
# without a space; fractions and @MODEL.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/replay_lib.sh"

faults=()
for k in http-401 http-403 http-404 http-429 http-500 html no-stream \
    reset-mid-stream stall split-utf8 crlf role-first multi-token-chunks \
    reasoning keepalive error-mid-stream no-usage accept-no-answer \
    headers-only endless-line data-nospace; do
    faults+=(--fault "$k@$k")  # each fault only for the model of its name
done
start_replay --synthetic 'ttft=30ms,tpot=5ms,tokens=10;model=keepalive,ttft=700ms' \
    "${faults[@]}" --fault http-500:0.5@half --log-sends "$T/sends.tsv"

# req MODEL OUT [curl args]: a streaming chat request for MODEL; prints rc.
req() { post /v1/chat/completions "$(chat_body "$1")" "$2" -H "X-Request-Id: $1" "${@:3}"; }
tokens_in() { data_json "$1" | jq -r 'select((.choices[0].delta.content // "") | length > 0)' | jq -s length; }

# --- error statuses ------------------------------------------------------------
for s in 401 403 404 429 500; do
    [ "$(req http-$s "$T/e$s")" = 0 ] || fail "http-$s: curl failed"
    assert_eq "$(status_of "$T/e$s")" "$s" "http-$s status"
    jq -e '.error.message | length > 0' "$T/e$s" >/dev/null || fail "http-$s: no error JSON"
done
assert_eq "$(header_of "$T/e429" Retry-After)" 2 "429 Retry-After"
assert_eq "$(jq -r .error.code "$T/e404")" model_not_found "404 code"
grep -q 'http-404' "$T/e404" || fail "404 does not name the model"
# The same fault on the messages API uses Anthropic's error shape.
post /v1/messages '{"model":"http-429","stream":true,"max_tokens":5}' "$T/m429" >/dev/null
assert_eq "$(status_of "$T/m429"):$(jq -r .error.type "$T/m429")" 429:rate_limit_error "messages 429"

# --- html / no-stream ------------------------------------------------------------
[ "$(req html "$T/html")" = 0 ] || fail "html: curl failed"
assert_eq "$(status_of "$T/html")" 200 "html status"
[[ "$(header_of "$T/html" Content-Type)" == text/html* ]] || fail "html content type"
head -c 15 "$T/html" | grepq '<!DOCTYPE html>' || fail "html body"
[ "$(req no-stream "$T/ns")" = 0 ] || fail "no-stream: curl failed"
assert_eq "$(header_of "$T/ns" Content-Type)" application/json "no-stream content type"
assert_eq "$(jq -r '.object + " " + (.usage.completion_tokens|tostring)' "$T/ns")" "chat.completion 10" "no-stream body"

# --- connection faults -------------------------------------------------------------
assert_eq "$(req reset-mid-stream "$T/rst")" 56 "reset-mid-stream curl exit"
assert_eq "$(tokens_in "$T/rst")" 3 "tokens before the reset"
assert_eq "$(req stall "$T/stall" --max-time 1)" 28 "stall curl exit"
assert_eq "$(tokens_in "$T/stall")" 3 "tokens before the stall"
grep -q DONE "$T/stall" && fail "stall sent [DONE]"
assert_eq "$(req accept-no-answer "$T/silent" --max-time 1)" 28 "accept-no-answer curl exit"
[ ! -s "$T/silent" ] && [ ! -s "$T/silent.h" ] || fail "accept-no-answer sent something"
assert_eq "$(req headers-only "$T/hdr" --max-time 1)" 28 "headers-only curl exit"
assert_eq "$(status_of "$T/hdr")" 200 "headers-only status"
[ ! -s "$T/hdr" ] || fail "headers-only sent a body"
assert_eq "$(req endless-line "$T/endless" --max-time 1)" 28 "endless-line curl exit"
[ "$(head -c 6 "$T/endless")" = "data: " ] || fail "endless-line does not start with data:"
[ "$(stat -c %s "$T/endless")" -gt 200000 ] || fail "endless-line sent too little"
[ "$(tr -cd '\n' <"$T/endless" | wc -c)" -eq 0 ] || fail "endless-line sent a newline"
# The server let go of every one of them.
wait_active 0

# --- stream shape faults --------------------------------------------------------------
[ "$(req split-utf8 "$T/utf8")" = 0 ] || fail "split-utf8: curl failed"
iconv -f UTF-8 -t UTF-8 "$T/utf8" >/dev/null || fail "split-utf8 body is not valid UTF-8"
assert_eq "$(data_json "$T/utf8" | jq -j '.choices[0].delta.content // ""')" \
    "héllo 世界 naïve café über 日本 grüße 😀 λόγος мир " "split-utf8 text"
# Each token left in two writes (20), then finish, usage, [DONE].
assert_eq "$(sends_of "$T/sends.tsv" split-utf8 23 | count_lines)" 23 "split-utf8 writes"

[ "$(req crlf "$T/crlf")" = 0 ] || fail "crlf: curl failed"
[ "$(grep -c $'\r$' "$T/crlf")" -eq "$(wc -l <"$T/crlf")" ] || fail "crlf: a line without \\r"
assert_eq "$(tokens_in "$T/crlf")" 10 "crlf tokens"

[ "$(req data-nospace "$T/nospace")" = 0 ] || fail "data-nospace: curl failed"
grep -q '^data: ' "$T/nospace" && fail "data-nospace: a 'data: ' line"
assert_eq "$(grep -c '^data:{' "$T/nospace")" 12 "data-nospace events (10 tokens, finish, usage)"
grep -qx 'data:\[DONE\]' "$T/nospace" || fail "data-nospace: no data:[DONE]"
assert_eq "$(sed -n 's/^data:{/{/p' "$T/nospace" | jq -r 'select((.choices[0].delta.content // "") | length > 0)' | jq -s length)" 10 "data-nospace tokens"

[ "$(req role-first "$T/role")" = 0 ] || fail "role-first: curl failed"
assert_eq "$(data_json "$T/role" | sed -n 1p | jq -c .choices[0].delta)" '{"role":"assistant","content":""}' "role-first first chunk"
assert_eq "$(data_json "$T/role" | sed -n 2p | jq -c .choices[0].delta)" '{"content":"lorem "}' "role-first second chunk"
# The role chunk leaves on arrival, a TTFT (30 ms) before the first token.
gap=$(sends_of "$T/sends.tsv" role-first 2 | awk -F'\t' '$2 <= 1 {t[$2] = $3} END {print int((t[1] - t[0]) / 1e6)}')
[ "$gap" -ge 20 ] || fail "role chunk only ${gap} ms before the first token"

[ "$(req multi-token-chunks "$T/multi")" = 0 ] || fail "multi-token-chunks: curl failed"
assert_eq "$(tokens_in "$T/multi")" 3 "multi-token chunks (4+4+2)"
assert_eq "$(data_json "$T/multi" | jq -r '.usage.completion_tokens // empty')" 10 "multi-token usage"

[ "$(req reasoning "$T/reason")" = 0 ] || fail "reasoning: curl failed"
assert_eq "$(data_json "$T/reason" | jq -r 'select(.choices[0].delta.reasoning_content) | 1' | count_lines)" 5 "reasoning chunks"
assert_eq "$(tokens_in "$T/reason")" 5 "answer chunks after reasoning"

[ "$(req keepalive "$T/ka")" = 0 ] || fail "keepalive: curl failed"
first_data=$(grep -n '^data: ' "$T/ka" | sed -n 1p | cut -d: -f1)
kas=$(head -n "$first_data" "$T/ka" | grep -c '^: keep-alive$' || true)
[ "$kas" -ge 3 ] || fail "only $kas keep-alive comments in a 700 ms TTFT"
assert_eq "$(tokens_in "$T/ka")" 10 "keepalive tokens"

[ "$(req error-mid-stream "$T/emid")" = 0 ] || fail "error-mid-stream: curl failed"
assert_eq "$(data_json "$T/emid" | jq -r '.error.type // empty')" server_error "in-band error"
assert_eq "$(tokens_in "$T/emid")" 3 "tokens before the error"
grep -q DONE "$T/emid" && fail "error-mid-stream sent [DONE]"

[ "$(req no-usage "$T/nousage")" = 0 ] || fail "no-usage: curl failed"
assert_eq "$(data_json "$T/nousage" | jq -c 'select(.usage)')" "" "no-usage usage chunk"
grep -q '^data: \[DONE\]' "$T/nousage" || fail "no-usage without [DONE]"

# A model without faults is untouched by all of the above.
[ "$(req clean "$T/clean")" = 0 ] || fail "clean: curl failed"
assert_eq "$(tokens_in "$T/clean")" 10 "clean tokens"

# --- fractions: seeded, both outcomes, repeatable ---------------------------------
codes() {
    for _ in $(seq 1 40); do
        curl -s -o /dev/null -w '%{http_code}\n' "$URL/v1/chat/completions" \
            -d '{"model":"half","max_tokens":1}'
    done | tr '\n' ' '
}
first=$(codes)
n500=$(tr ' ' '\n' <<<"$first" | grep -c 500 || true)
[ "$n500" -ge 8 ] && [ "$n500" -le 32 ] || fail "http-500:0.5 gave $n500 of 40"
start_replay --synthetic 'ttft=1ms,tpot=1ms,tokens=1' --fault http-500:0.5@half
assert_eq "$(codes)" "$first" "same seed, same faults"
echo "replay_faults: ok"
