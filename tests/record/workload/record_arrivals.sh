#!/usr/bin/env bash
# --arrivals FILE: an Azure-style CSV (TIMESTAMP as a date-time, context
# and generated tokens) and a Mooncake-style JSONL (timestamp in ms,
# input_length, output_length) are replayed on time: each request's
# intended send is its line's offset from the first (divided by --speed),
# it starts within a few ms of it, asks for the line's output tokens
# (max_tokens, and the replay server's usage agrees) with a prompt of
# about the line's input tokens. Malformed files are refused naming the
# line.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

A=$(tt_data record/arrivals)
start_replay --synthetic 'ttft=20ms,tpot=2ms,tokens=100'

offsets() { # JSONL -> scheduled offsets from the run's zero, ms
    jqs "$1" '(.[]|select(.kind=="header")|.mono_zero_ns) as $z
        | [.[]|select(.kind=="request")]|sort_by(.id)|map((.scheduled_ns - $z)/1000000|round|tostring)|join(",")'
}

"$TT_RECORD" -q -u "$URL" -m m --arrivals "$A/azure.csv" -o "$T/a.ttrace" || fail "azure exit $?"
d=$(dump "$T/a.ttrace")
check_complete "$d" 4
assert_eq "$(offsets "$d")" "0,250,500,1000" "azure offsets"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")]|sort_by(.id)|map(.max_tokens|tostring)|join(",")')" "5,3,7,2" "azure max_tokens"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")]|sort_by(.id)|map(.input_tokens_est|tostring)|join(",")')" "40,400,8,100" "azure input lengths"
# the prompt is about 4 characters a token
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")]|sort_by(.id)|.[1].body|fromjson|.messages[0].content|length|(. >= 1400 and . <= 1700)')" true "prompt length"
lag=$(jqs "$d" '[.[]|select(.kind=="request")|.start_ns - .scheduled_ns]|max')
[ "$lag" -lt 50000000 ] || fail "a request started $((lag / 1000000)) ms late"
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|"\(.options.loop) \(.options.speed) \(.workload)"')" "open 1 arrivals" "header"
"$TT_ANALYZE" summary "$T/a.ttrace" --format json >"$T/a.json" 2>/dev/null || fail "summary exit $?"
assert_eq "$(jq -r '.overall.output_tokens.max // .groups[0].output_tokens.max' "$T/a.json")" 7 "the server generated the lengths asked"

"$TT_RECORD" -q -u "$URL" -m m --arrivals "$A/mooncake.jsonl" --speed 2 -o "$T/m.ttrace" || fail "mooncake exit $?"
d=$(dump "$T/m.ttrace")
check_complete "$d" 3
assert_eq "$(offsets "$d")" "0,50,200" "mooncake offsets at speed 2"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")]|sort_by(.id)|map(.max_tokens|tostring)|join(",")')" "4,6,2" "mooncake max_tokens"

bad() { # WANT ARGS...
    local want=$1; shift
    expect_exit 2 "$TT_RECORD" -u "$URL" -m m "$@" -o "$T/bad.ttrace" 2>"$T/e"
    grep -qF -- "$want" "$T/e" || fail "want '$want': $(cat "$T/e")"
    [ ! -e "$T/bad.ttrace" ] || fail "a trace was written for: $*"
}
bad "$A/bad-tokens.csv:3: output tokens 'x' is not a count" --arrivals "$A/bad-tokens.csv"
bad "$A/backwards.jsonl:2: the time goes back" --arrivals "$A/backwards.jsonl"
bad "$A/no-timestamp.csv:1: a CSV header with a TIMESTAMP column" --arrivals "$A/no-timestamp.csv"
bad "cannot read" --arrivals "$T/none.csv"
# bounds: a time past int64 ns (was "the time goes back"), a gap of a year
# (was slept), a day February does not have (was taken as March 2)
printf '{"timestamp": 0}\n{"timestamp": 1e300}\n' >"$T/huge.jsonl"
bad "$T/huge.jsonl:2: \"timestamp\" 1e+300 ms is past the largest time" --arrivals "$T/huge.jsonl"
printf '{"timestamp": 0}\n{"timestamp": 10}\n{"timestamp": 31536000000}\n' >"$T/year.jsonl"
bad "$T/year.jsonl:3: 31536000 s after the arrival before it" --arrivals "$T/year.jsonl"
bad "$T/year.jsonl:3: 31536 s after the arrival before it (at --speed 1000)" --arrivals "$T/year.jsonl" --speed 1000
printf 'TIMESTAMP,ContextTokens,GeneratedTokens\n2023-02-28 10:00:00,5,2\n2023-02-30 10:00:00,5,2\n' >"$T/feb.csv"
bad "$T/feb.csv:3: timestamp '2023-02-30 10:00:00' is not seconds" --arrivals "$T/feb.csv"
printf 'TIMESTAMP,ContextTokens,GeneratedTokens\n1e300,5,2\n' >"$T/hugecsv.csv"
bad "$T/hugecsv.csv:2: timestamp '1e300' is not seconds" --arrivals "$T/hugecsv.csv"
bad "leave out -r" --arrivals "$A/azure.csv" -r 5
bad "--speed scales --arrivals" --speed 2
echo ok
