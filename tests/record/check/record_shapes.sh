#!/usr/bin/env bash
# record_shapes: stream shapes seen across gateways, served by the replay
# server, recorded, and checked in `tokentrace-analyze summary --format
# json`: TTFT counts the first real token (not a role chunk, a ping, a
# keep-alive or message_start), tokens come from usage when the stream has
# it (only in the last chunk) and from chunks when not, a finish chunk
# without text is not a token, several tokens per chunk are flagged,
# reasoning counts separately, "data:" without a space parses, and an error
# event after a 200 counts as stream_error. --check agrees.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/doctor_lib.sh"

unset OPENAI_API_KEY OPENAI_BASE_URL
printf '{"class":"shape","prompt":"Say a dozen words.","max_tokens":12}\n' >"$T/w.jsonl"
start_replay --synthetic 'ttft=100ms,tpot=10ms,tokens=64' \
    --fault no-usage@nousage --fault multi-token-chunks@packed \
    --fault reasoning@thinker --fault data-nospace@nospace \
    --fault role-first@rolefirst --fault crlf@crlf \
    --fault error-mid-stream@errs
models=(plain nousage packed thinker nospace rolefirst crlf errs)
args=()
for m in "${models[@]}"; do args+=(-m "$m"); done
rec run -u "$URL" "${args[@]}" -n 2 -w "$T/w.jsonl" -o "$T/shapes.ttrace" -q
expect_rc 0 run
"$TT_ANALYZE" summary "$T/shapes.ttrace" --by model --format json \
    >"$T/sum.json" 2>"$T/sum.err" || fail "summary failed: $(cat "$T/sum.err")"

# g MODEL JQ: a field of MODEL's group.
g() { jq -r --arg m "$1" ".groups[]|select(.model==\$m)|$2" "$T/sum.json"; }
# ttft_ok MODEL LOW: both requests ok, TTFT p50 from LOW ms to LOW+400 ms.
ttft_ok() {
    assert_eq "$(g "$1" .ok)" 2 "$1 ok"
    assert_eq "$(g "$1" '.errors|length')" 0 "$1 errors"
    between "$(g "$1" '.ttft_ms.min|floor')" "$2" "$(($2 + 400))" "$1 TTFT min"
    between "$(g "$1" '.ttft_ms.max|floor')" "$2" "$(($2 + 400))" "$1 TTFT max"
}

# usage only in the last chunk (the default shape)
ttft_ok plain 100
assert_eq "$(g plain .token_source)" usage "plain source"
assert_eq "$(g plain .output_tokens.p50)" 12 "plain tokens"
assert_eq "$(g plain .usage_disagrees)" 0 "plain usage vs chunks"
between "$(g plain '.tpot_ms.p50|floor')" 8 30 "plain TPOT"
# no usage anywhere: tokens from chunks; the finish chunk (no text) is not
# one of them
ttft_ok nousage 100
assert_eq "$(g nousage .token_source)" chunks "nousage source"
assert_eq "$(g nousage .output_tokens.p50)" 12 "nousage tokens (finish chunk not counted)"
# 4 tokens per chunk: usage counts, the disagreement is reported, the first
# chunk leaves with its 4th token
ttft_ok packed 130
assert_eq "$(g packed .token_source)" usage "packed source"
assert_eq "$(g packed .output_tokens.p50)" 12 "packed tokens"
assert_eq "$(g packed .usage_disagrees)" 2 "packed usage vs chunks"
assert_eq "$(g packed .tokens_per_chunk.p50)" 4 "packed tokens per chunk"
# reasoning_content before content: TTFT at the first reasoning token, the
# first answer token 6 tokens later
ttft_ok thinker 100
assert_eq "$(g thinker .reasoning_tokens.p50)" 6 "thinker reasoning tokens"
assert_eq "$(g thinker .output_tokens.p50)" 12 "thinker tokens"
between "$(g thinker '.ttft_content_ms.min|floor')" 160 560 "thinker first answer token"
# "data:" without the space, CRLF line ends, a role-only chunk at arrival
for m in nospace crlf rolefirst; do
    ttft_ok "$m" 100
    assert_eq "$(g "$m" .output_tokens.p50)" 12 "$m tokens"
    assert_eq "$(g "$m" .token_source)" usage "$m source"
done
grep -aq 'data:{"id"' "$T/shapes.ttrace" || fail "no data: without space was recorded"
# an error object as an SSE event after a 200
assert_eq "$(g errs .ok)" 0 "errs ok"
assert_eq "$(g errs .errors.stream_error)" 2 "errs stream_error"

# Anthropic: message_start and a ping before the first text_delta.
rec anth -u "$URL" -m plain --api anthropic -n 2 -w "$T/w.jsonl" -o "$T/anth.ttrace" -q
expect_rc 0 anth
grep -aq 'event: ping' "$T/anth.ttrace" || fail "no ping recorded"
"$TT_ANALYZE" summary "$T/anth.ttrace" --by model --format json >"$T/sum.json" 2>/dev/null
ttft_ok plain 100
assert_eq "$(g plain .token_source)" usage "anthropic source"
assert_eq "$(g plain .output_tokens.p50)" 12 "anthropic tokens"

# A gateway that sends ": keep-alive" every second before a late first
# token: the comments keep the stream alive (a 1.6 s idle limit does not
# fire) and are not tokens.
start_replay --synthetic 'ttft=2500ms,tpot=10ms,tokens=12,keepalive=1s'
rec ka -u "$URL" -m slow -n 1 -w "$T/w.jsonl" --idle-timeout 1.6s -o "$T/ka.ttrace" -q
expect_rc 0 ka
assert_eq "$(grep -ac ': keep-alive' "$T/ka.ttrace")" 2 "keep-alive comments recorded"
"$TT_ANALYZE" summary "$T/ka.ttrace" --by model --format json >"$T/sum.json" 2>/dev/null
assert_eq "$(g slow .ok)" 1 "keep-alive request ok"
between "$(g slow '.ttft_ms.p50|floor')" 2500 3500 "keep-alive TTFT"
assert_eq "$(g slow .output_tokens.p50)" 12 "keep-alive tokens"

# --check on the same shapes: OK, with the right numbers and notes.
rec check --check -u "$URL" -m slow --idle-timeout 1.6s
expect_rc 0 check
has check.out "slow: OK: streams: TTFT 25"
has check.out "12 tokens (source: usage), 12 token events"
has check.out "note: 2 keep-alive comments before or between events"
has check.out "warning: TTFT"
echo "record_shapes: ok"
