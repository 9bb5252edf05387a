#!/usr/bin/env bash
# The OpenAI Responses API end to end: the recorder posts to /v1/responses
# with "input" and "max_output_tokens", tokentrace-replay streams its
# events (text, reasoning summary, usage in response.completed,
# response.incomplete at max_output_tokens, response.failed and the error
# event), and the analyzer reads them: token events, reasoning, usage,
# finish, the server's error message; the doctor agrees.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

start_replay --synthetic 'ttft=20ms,tpot=2ms,tokens=12' \
    --fault reasoning@m-reason --fault no-usage@m-nousage \
    --fault response-failed@m-failed --fault error-mid-stream@m-err \
    --fault no-stream@m-full --fault multi-token-chunks@m-multi \
    --fault split-utf8@m-utf8 --fault crlf@m-crlf --fault data-nospace@m-nospace
models=(ok m-reason m-nousage m-failed m-err m-full m-multi m-utf8 m-crlf m-nospace)
margs=()
for m in "${models[@]}"; do margs+=(-m "$m"); done

out="$T/r.ttrace"
"$TT_RECORD" -u "$URL" --api openai-responses "${margs[@]}" -n 2 --classes short-short \
    -c 8 --idle-timeout 2 -o "$out" 2>"$T/rec.err" || fail "exit $?: $(cat "$T/rec.err")"
grep -q "requests: 14 ok, 6 failed" "$T/rec.err" || fail "recorder counts: $(cat "$T/rec.err")"
d=$(dump "$out")
check_complete "$d" 20
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.api')" openai-responses "header api"
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.url')" "$URL/v1/responses" "url"

"$TT_ANALYZE" requests --format json "$out" >"$T/req.json" || fail "requests exit $?"
# row MODEL FILTER: the filter over the two requests of MODEL, unique values
row() { jq -rs --arg m "$1" "map(select(.model==\$m))|map($2)|unique|map(tostring)|join(\",\")" "$T/req.json"; }

# a healthy stream: 12 tokens, one per event, counted by usage
assert_eq "$(row ok '"\(.ok) \(.token_source) \(.output_tokens) \(.token_events) \(.finish_reason)"')" \
    "true usage 12 12 completed" "healthy stream"
assert_eq "$(row ok '.input_tokens > 0 and .input_tokens == .input_tokens_est')" true "input tokens from usage"
assert_eq "$(row ok '.ttft_ms >= 19 and .latency_ms >= 41')" true "TTFT and latency (the server's schedule)"
# reasoning summary deltas are reasoning events; the answer comes later
assert_eq "$(row m-reason '"\(.ok) \(.token_events) \(.reasoning_events)"')" "true 12 6" "reasoning events"
assert_eq "$(row m-reason '.ttft_content_ms > .ttft_ms')" true "answer after the reasoning"
# no usage in response.completed: the chunks count
assert_eq "$(row m-nousage '"\(.ok) \(.token_source) \(.output_tokens)"')" "true chunks 12" "no usage"
# shapes that must not change a thing
for m in m-multi m-utf8 m-crlf m-nospace; do
    assert_eq "$(row "$m" '"\(.ok) \(.output_tokens) \(.finish_reason)"')" "true 12 completed" "$m"
done
# errors inside the stream, with the server's words
assert_eq "$(row m-failed '"\(.ok) \(.error_kind)"')" "false stream_error" "response.failed"
assert_eq "$(row m-failed '.error_message|test("The model failed to generate a response [(]replay fault response-failed[)]")')" true "response.failed message"
assert_eq "$(row m-err '"\(.ok) \(.error_kind)"')" "false stream_error" "error event"
assert_eq "$(row m-err '.error_message|test("replay fault error-mid-stream")')" true "error event message"
# no-stream: one JSON response object, which is not a stream
assert_eq "$(row m-full '"\(.ok) \(.error_kind)"')" "false not_streamed" "no-stream"

# response.incomplete at max_output_tokens: a length finish
"$TT_RECORD" -q -u "$URL" --api openai-responses -m ok -n 2 --classes short-short \
    --max-tokens 5 -o "$T/inc.ttrace" || fail "incomplete run exit $?"
"$TT_ANALYZE" requests --format json "$T/inc.ttrace" >"$T/req.json"
assert_eq "$(row ok '"\(.ok) \(.output_tokens) \(.finish_reason)"')" "true 5 max_output_tokens" "incomplete"
"$TT_ANALYZE" summary --format json "$T/inc.ttrace" >"$T/sum.json"
assert_eq "$(jq -r '.overall.finish|"\(.length) \(.stop)"' "$T/sum.json")" "2 0" "finish category"
assert_eq "$(dump "$T/inc.ttrace" >/dev/null; jqs "$T/inc.ttrace.jsonl" '[.[]|select(.kind=="request")|.body|fromjson|.max_output_tokens]|unique|join(",")')" 5 "max_output_tokens sent"

# the prefix cache (cache=N) sees the Responses API's input: the second
# request of the same prompt reports cached input tokens
start_replay --synthetic 'ttft=5ms,tpot=1ms,tokens=4,cache=100000'
"$TT_RECORD" -q -u "$URL" --api openai-responses -m m -n 2 -c 1 --classes long-short \
    -o "$T/cache.ttrace" || fail "cache run exit $?"
d=$(dump "$T/cache.ttrace")
assert_eq "$(jqs "$d" '[.[]|select(.kind=="chunk")|.data // ""|capture("\"cached_tokens\":(?<n>[0-9]+)")|.n|tonumber]|(.[0] == 0 and .[-1] > 0)')" \
    true "cached_tokens in response.completed"
# and the analyzer reads them (usage.input_tokens_details.cached_tokens)
"$TT_ANALYZE" requests --format json "$T/cache.ttrace" >"$T/req.json" || fail "cache requests exit $?"
assert_eq "$(jq -rs 'map(.cached_tokens)|(.[0] == 0 and .[-1] > 0)' "$T/req.json")" \
    true "analyzer's cached_tokens from response.completed"
assert_eq "$(jq -rs '.[-1].cached_tokens < .[-1].input_tokens' "$T/req.json")" true "cached below input"
start_replay --synthetic 'ttft=20ms,tpot=2ms,tokens=12' --fault response-failed@m-failed

# the doctor: OK for the healthy model, FAIL naming response.failed's error
set +e
"$TT_RECORD" --check -u "$URL" --api openai-responses -m ok -m m-failed >"$T/check" 2>&1
set -e
grep -q "^endpoint: POST $URL/v1/responses (openai-responses" "$T/check" || fail "doctor endpoint: $(cat "$T/check")"
grep -q "^ok: OK: streams: .* 12 tokens (source: usage)" "$T/check" || fail "doctor ok: $(cat "$T/check")"
grep -q "^m-failed: FAIL stream-error: .*server_error \"The model failed" "$T/check" || fail "doctor failed: $(cat "$T/check")"
echo ok
