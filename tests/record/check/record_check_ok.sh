#!/usr/bin/env bash
# record_check_ok: --check on channels that stream: the OK line with TTFT,
# TPOT, tokens and their source; the warnings (several tokens per chunk,
# TTFT high with TPOT normal and the reverse) and notes; several models and
# the exit code; -o keeps the probes as a trace the analyzer reads, and the
# key appears nowhere.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/doctor_lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

KEY='sk-tt-check-SECRET-0123456789abcdef'
export TT_CHECK_KEY="$KEY"
unset OPENAI_API_KEY OPENAI_BASE_URL
start_replay --expect-key-env TT_CHECK_KEY \
    --synthetic 'ttft=80ms,tpot=10ms,tokens=16;model=slow-start,ttft=2500ms,tpot=5ms;model=slow-decode,ttft=40ms,tpot=150ms,tokens=8;model=waits,ttft=700ms' \
    --fault multi-token-chunks@packed --fault no-usage@nousage \
    --fault reasoning@thinker --fault keepalive@waits --fault http-404@missing

# One model that streams; the base URL with a trailing slash is normalized
# and warned about.
rec ok --check -u "$URL/api/" -m good --api-key-env TT_CHECK_KEY
expect_rc 0 ok
has ok.out "note: removed the trailing slash from the base URL: the base is $URL/api"
has ok.out "endpoint: POST $URL/api/v1/chat/completions"
has ok.out 'key: $TT_CHECK_KEY (set, 35 characters)'
has ok.out "good: OK: streams: TTFT "
has ok.out "TPOT "
has ok.out ", 16 tokens (source: usage), 16 token events"
has ok.out "hint: ready to record: tokentrace-record -u $URL/api --api-key-env TT_CHECK_KEY -m good"
has ok.out "result: 1 of 1 model stream"
between "$(ttft_of ok good)" 80 600 "TTFT of the probe"
tpot=$(sed -n 's/.*TPOT \([0-9]*\)\.[0-9] ms.*/\1/p' "$T/ok.out")
between "$tpot" 5 40 "TPOT of the probe"
# replay answers any name, and its list lacks 'good': warned once (a
# loaded machine may add a timing warning of its own)
assert_eq "$(grep -c 'warning: GET' "$T/ok.out")" 1 "model-list warnings"
has ok.out "warning: GET $URL/api/v1/models lists 3 models and not 'good'"

# Several tokens per chunk, no usage, reasoning, keep-alives.
rec shapes --check -u "$URL/api" -m packed -m nousage -m thinker -m waits \
    --api-key-env TT_CHECK_KEY
expect_rc 0 shapes
has shapes.out "packed: OK: streams: TTFT"
has shapes.out "16 tokens (source: usage), 4 token events"
has shapes.out "warning: several tokens per chunk: usage counts 16 tokens in 4 token events (4.0 per event)"
has shapes.out "nousage: OK: streams: TTFT"
has shapes.out "16 tokens (source: chunks), 16 token events"
has shapes.out "note: no usage in the stream"
has shapes.out "note: 8 of 16 token events were reasoning"
has shapes.out "note: 3 keep-alive comments before or between events"
has shapes.out "result: 4 of 4 models stream"

# TTFT high while TPOT is normal, and the reverse.
rec balance --check -u "$URL/api" -m slow-start -m slow-decode \
    --api-key-env TT_CHECK_KEY
expect_rc 0 balance
has balance.out "is normal (connection set-up"
has balance.out "look at the network and first-packet path"
has balance.out "look at decoding settings and output length"
[ "$(grep -c 'warning: TTFT' "$T/balance.out")" -eq 1 ] || fail "one TTFT warning expected"
[ "$(grep -c 'warning: TPOT' "$T/balance.out")" -eq 1 ] || fail "one TPOT warning expected"
between "$(ttft_of balance slow-start)" 2500 4000 "TTFT of slow-start"

# Several models, one of them unknown: exit 1, a verdict line each, the
# working one still measured.
rec mixed --check -u "$URL/api" -m good -m missing --api-key-env TT_CHECK_KEY
expect_rc 1 mixed
has mixed.out "good: OK: streams"
has mixed.out "missing: FAIL unknown-model: unknown model (HTTP 404)"
has mixed.out "  fix: use a model id the gateway offers"
has mixed.out "result: 1 of 2 models stream; see the fix lines above"

# -o keeps the probes: a trace the analyzer reads, marked mode=check, with
# the same TTFT; the key is in no output and not in the trace.
rec traced --check -u "$URL/api" -m good -m packed --api-key-env TT_CHECK_KEY \
    -o "$T/probe.ttrace"
expect_rc 0 traced
"$TT_ANALYZE" check "$T/probe.ttrace" >/dev/null || fail "probe trace damaged"
d=$(dump "$T/probe.ttrace")
check_complete "$d" 2
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.options.mode')" check "header mode"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")|.class]|unique|join(",")')" check "probe class"
"$TT_ANALYZE" summary "$T/probe.ttrace" --by model --format json >"$T/probe.json" 2>/dev/null
want=$(ttft_of traced good)
got=$(jq -r '.groups[]|select(.model=="good")|.ttft_ms.p50|floor' "$T/probe.json")
between "$got" "$((want - 1))" "$((want + 2))" "analyzer TTFT of the probe (check said $want)"
assert_eq "$(jq -r '.groups[]|select(.model=="packed")|.output_tokens.p50' "$T/probe.json")" 16 "packed tokens"
# the hint keeps the flags the probe was sent with, quoted for the shell
rec body --check -u "$URL/api" -m good --api anthropic --api-key-env TT_CHECK_KEY \
    --extra-body '{"temperature":0,"stop":["it'"'"'s"]}'
has body.out "hint: ready to record: tokentrace-record -u $URL/api --api anthropic --api-key-env TT_CHECK_KEY --extra-body '{\"temperature\":0,\"stop\":[\"it'\\''s\"]}' -m good"
for f in ok.out ok.err shapes.out traced.out traced.err mixed.out body.out; do
    hasnt "$f" "$KEY"
done
if grep -aqF "$KEY" "$T/probe.ttrace" "$d"; then fail "the key is in the probe trace"; fi
echo "record_check_ok: ok"
