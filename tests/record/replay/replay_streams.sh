#!/usr/bin/env bash
# replay_streams: synthetic chat, completions and messages streams through
# curl are well-formed SSE with the right number of tokens, usage, ending;
# non-streamed replies; headers; routing and request errors; the key check.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/replay_lib.sh"

export REPLAY_TEST_KEY="sk-test-$RANDOM$RANDOM"
start_replay --synthetic 'ttft=20ms,tpot=2ms,tokens=7;model=short,tokens=2' \
    --expect-key-env REPLAY_TEST_KEY
AUTH=(-H "Authorization: Bearer $REPLAY_TEST_KEY")
PROMPT='abcdefghijklmnopqrstuvwxyz0123456789abcd' # 40 chars: 10 tokens

# --- chat ---------------------------------------------------------------
body='{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"system","content":"'$PROMPT'"},{"role":"user","content":"'$PROMPT'"}]}'
[ "$(post /v1/chat/completions "$body" "$T/chat" "${AUTH[@]}" -H 'X-Request-Id: trace1-7')" = 0 ] || fail "chat failed"
assert_eq "$(status_of "$T/chat")" 200 "chat status"
assert_eq "$(header_of "$T/chat" Content-Type)" text/event-stream "chat content type"
assert_eq "$(header_of "$T/chat" Cache-Control)" no-cache "cache-control"
assert_eq "$(header_of "$T/chat" X-Request-Id)" trace1-7 "X-Request-Id echo"
[[ "$(header_of "$T/chat" X-Replay-Request-Id)" =~ ^rr-[0-9]+$ ]] || fail "no X-Replay-Request-Id"
# Every event is "data: ..." followed by a blank line; the last is [DONE].
awk 'NR % 2 == 1 && !/^data: / {exit 1} NR % 2 == 0 && $0 != "" {exit 1}' "$T/chat" || fail "chat stream is not data/blank pairs"
assert_eq "$(grep -c '^data: ' "$T/chat")" 10 "chat events (7 tokens, finish, usage, DONE)"
assert_eq "$(tail -n 2 "$T/chat" | sed -n 1p)" "data: [DONE]" "chat last event"
data_json "$T/chat" | jq -e . >/dev/null || fail "chat data is not JSON"
assert_eq "$(data_json "$T/chat" | jq -r 'select(.choices[0].delta.content // "" | length > 0) | .object' | sort -u)" chat.completion.chunk "chat object"
assert_eq "$(data_json "$T/chat" | jq -r 'select(.choices[0].delta.content // "" | length > 0)' | jq -s length)" 7 "chat token events"
assert_eq "$(data_json "$T/chat" | sed -n 1p | jq -r .choices[0].delta.role)" assistant "first chunk role"
assert_eq "$(data_json "$T/chat" | sed -n 1p | jq -r .choices[0].delta.content)" "lorem " "first chunk content"
assert_eq "$(data_json "$T/chat" | jq -r 'select(.choices[0].finish_reason != null) | .choices[0].finish_reason')" stop "finish reason"
assert_eq "$(data_json "$T/chat" | jq -c 'select(.usage) | [.choices, .usage]')" '[[],{"prompt_tokens":20,"completion_tokens":7,"total_tokens":27}]' "chat usage"
assert_eq "$(data_json "$T/chat" | jq -j '.choices[0].delta.content // ""')" "lorem ipsum dolor sit amet consectetur adipiscing " "chat text"

# max_tokens caps the output and makes finish_reason "length"; no usage
# chunk without stream_options.include_usage.
[ "$(post /v1/chat/completions '{"model":"m","stream":true,"max_tokens":3}' "$T/cap" "${AUTH[@]}")" = 0 ] || fail "capped chat failed"
assert_eq "$(data_json "$T/cap" | jq -r 'select(.choices[0].delta.content // "" | length > 0)' | jq -s length)" 3 "capped tokens"
assert_eq "$(data_json "$T/cap" | jq -r '.choices[0].finish_reason // empty')" length "capped finish"
assert_eq "$(data_json "$T/cap" | jq -c 'select(.usage)')" "" "usage without include_usage"
# max_completion_tokens too; a model profile applies to its model only.
[ "$(post /v1/chat/completions '{"model":"m","stream":true,"max_completion_tokens":4}' "$T/cap2" "${AUTH[@]}")" = 0 ] || fail "chat failed"
assert_eq "$(data_json "$T/cap2" | jq -r 'select(.choices[0].delta.content // "" | length > 0)' | jq -s length)" 4 "max_completion_tokens"
[ "$(post /v1/chat/completions '{"model":"short","stream":true}' "$T/short" "${AUTH[@]}")" = 0 ] || fail "chat failed"
assert_eq "$(data_json "$T/short" | jq -r 'select(.choices[0].delta.content // "" | length > 0)' | jq -s length)" 2 "model profile tokens"

# --- completions -----------------------------------------------------------
[ "$(post /v1/completions '{"model":"m","prompt":"'$PROMPT'","stream":true,"stream_options":{"include_usage":true}}' "$T/cmpl" "${AUTH[@]}")" = 0 ] || fail "completions failed"
assert_eq "$(tail -n 2 "$T/cmpl" | sed -n 1p)" "data: [DONE]" "completions last event"
assert_eq "$(data_json "$T/cmpl" | jq -r 'select(.choices[0].text // "" | length > 0) | .object' | sort | uniq -c | awk '{print $1, $2}')" "7 text_completion" "completions token events"
assert_eq "$(data_json "$T/cmpl" | jq -c '.usage // empty')" '{"prompt_tokens":10,"completion_tokens":7,"total_tokens":17}' "completions usage"

# --- messages (Anthropic) ---------------------------------------------------
[ "$(post /v1/messages '{"model":"claude-x","max_tokens":5,"stream":true,"messages":[{"role":"user","content":"'$PROMPT'"}]}' "$T/msg" -H "x-api-key: $REPLAY_TEST_KEY" -H 'anthropic-version: 2023-06-01')" = 0 ] || fail "messages failed"
# Each event is "event: X", "data: {...type: X...}", blank.
awk 'NR % 3 == 1 && !/^event: / {exit 1} NR % 3 == 2 && !/^data: / {exit 1} NR % 3 == 0 && $0 != "" {exit 1}' "$T/msg" || fail "messages stream is not event/data/blank triples"
names=$(sed -n 's/^event: //p' "$T/msg" | uniq -c | awk '{printf "%s%s*%s", sep, $2, $1; sep=" "}')
assert_eq "$names" "message_start*1 content_block_start*1 ping*1 content_block_delta*5 content_block_stop*1 message_delta*1 message_stop*1" "messages event sequence"
paste -d' ' <(sed -n 's/^event: //p' "$T/msg") <(data_json "$T/msg" | jq -r .type) | awk '$1 != $2 {exit 1}' || fail "event names and data types differ"
assert_eq "$(data_json "$T/msg" | jq -r 'select(.type == "message_start") | .message.usage.input_tokens')" 10 "messages input_tokens"
assert_eq "$(data_json "$T/msg" | jq -c 'select(.type == "message_delta") | [.delta.stop_reason, .usage.output_tokens]')" '["max_tokens",5]' "messages delta"
assert_eq "$(data_json "$T/msg" | jq -j 'select(.type == "content_block_delta") | .delta.text')" "lorem ipsum dolor sit amet " "messages text"

# --- non-streamed ----------------------------------------------------------
[ "$(post /v1/chat/completions '{"model":"m","messages":[{"role":"user","content":"'$PROMPT'"}]}' "$T/full" "${AUTH[@]}")" = 0 ] || fail "non-streamed failed"
assert_eq "$(header_of "$T/full" Content-Type)" application/json "non-streamed content type"
assert_eq "$(jq -c '[.object, .choices[0].message.role, .choices[0].message.content, .usage.completion_tokens]' "$T/full")" '["chat.completion","assistant","lorem ipsum dolor sit amet consectetur adipiscing ",7]' "non-streamed chat"
[ "$(post /v1/messages '{"model":"m","max_tokens":100,"messages":[]}' "$T/fullm" -H "x-api-key: $REPLAY_TEST_KEY")" = 0 ] || fail "non-streamed messages failed"
assert_eq "$(jq -c '[.type, .content[0].type, .stop_reason, .usage.output_tokens]' "$T/fullm")" '["message","text","end_turn",7]' "non-streamed messages"

# --- routing and errors ------------------------------------------------------
# A gateway-style base URL (any prefix before /v1) works.
[ "$(post /api/v1/chat/completions '{"model":"m","stream":true}' "$T/prefix" "${AUTH[@]}")" = 0 ] || fail "prefixed path failed"
assert_eq "$(status_of "$T/prefix")" 200 "prefixed path"
post /v1/nothing '{}' "$T/404" "${AUTH[@]}" >/dev/null
assert_eq "$(status_of "$T/404")" 404 "unknown path"
assert_eq "$(jq -r .error.type "$T/404")" invalid_request_error "404 error JSON"
post /v1/chat/completions '{"model": "m", "stream": tru' "$T/400" "${AUTH[@]}" >/dev/null
assert_eq "$(status_of "$T/400")" 400 "malformed JSON"
jq -e '.error.message | length > 0' "$T/400" >/dev/null || fail "400 without error.message"
post /v1/chat/completions '{"model":"m","max_tokens":0}' "$T/400b" "${AUTH[@]}" >/dev/null
assert_eq "$(status_of "$T/400b")" 400 "max_tokens 0"
curl -s -D "$T/405.h" -o "$T/405" "${AUTH[@]}" "$URL/v1/chat/completions"
assert_eq "$(status_of "$T/405")" 405 "GET on chat"
curl -s "$URL/v1/models" -o "$T/models"
assert_eq "$(jq -c '[.data[].id]' "$T/models")" '["short"]' "models list"

# --- key check ----------------------------------------------------------------
post /v1/chat/completions '{"model":"m","stream":true}' "$T/nokey" >/dev/null
assert_eq "$(status_of "$T/nokey")" 401 "missing key"
assert_eq "$(jq -r .error.code "$T/nokey")" invalid_api_key "401 error code"
post /v1/chat/completions '{"model":"m","stream":true}' "$T/badkey" -H "Authorization: Bearer wrong" >/dev/null
assert_eq "$(status_of "$T/badkey")" 401 "wrong key"
post /v1/chat/completions '{"model":"m","stream":true}' "$T/rawkey" -H "Authorization: $REPLAY_TEST_KEY" >/dev/null
assert_eq "$(status_of "$T/rawkey")" 401 "key without Bearer"
post /v1/messages '{"model":"m","stream":true}' "$T/msgkey" >/dev/null
assert_eq "$(status_of "$T/msgkey")" 401 "messages without x-api-key"
assert_eq "$(jq -r .type "$T/msgkey")" error "Anthropic-style 401"
if grep -rq -- "$REPLAY_TEST_KEY" "$T"/replay.* "$T"/*.h "$T"/nokey "$T"/badkey; then
    fail "the key was printed"
fi
echo "replay_streams: ok"
