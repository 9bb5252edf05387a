#!/usr/bin/env bash
# replay_trace: --trace serves recorded streams back: per model round robin
# (all recordings for an unknown model), the recorded status, content type,
# Retry-After and exact body bytes, at the recorded delays (÷ --speed).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/replay_lib.sh"

"$TT_GEN_TRACE" --replay "$T/rec.ttrace" "$T"
start_replay --trace "$T/rec.ttrace" --log-sends "$T/sends.tsv"

# ask ID MODEL: a streaming chat request for MODEL, saved as $T/ID.
ask() {
    [ "$(post /v1/chat/completions '{"model":"'"$2"'","stream":true}' "$T/$1" -H "X-Request-Id: $1")" = 0 ] ||
        fail "request $1 failed"
}
ask a1 model-a
assert_eq "$(status_of "$T/a1")" 200 "recorded status"
assert_eq "$(header_of "$T/a1" Content-Type)" text/event-stream "recorded content type"
cmp "$T/a1" "$T/req1.body" || fail "model-a's first reply differs from recording 1"
ask a2 model-a
assert_eq "$(status_of "$T/a2")" 429 "second model-a recording is the 429"
assert_eq "$(header_of "$T/a2" Retry-After)" 7 "recorded Retry-After"
assert_eq "$(header_of "$T/a2" Content-Type)" application/json "429 content type"
cmp "$T/a2" "$T/req3.body" || fail "429 body differs"
ask a3 model-a
cmp "$T/a3" "$T/req1.body" || fail "round robin did not come back to recording 1"
ask b1 model-b
cmp "$T/b1" "$T/req2.body" || fail "model-b's first reply"
ask b2 model-b
assert_eq "$(status_of "$T/b2")" 200 "a request cut before its result replays as 200"
cmp "$T/b2" "$T/req4.body" || fail "model-b's second reply"
# model-c never got a response and model-x was never recorded: both take
# the next recording of all of them in order.
ask c1 model-c
cmp "$T/c1" "$T/req1.body" || fail "unknown model: first of all recordings"
ask x1 model-x
cmp "$T/x1" "$T/req2.body" || fail "unknown model: second of all recordings"
curl -s "$URL/v1/models" | jq -c '[.data[].id]' >"$T/models"
assert_eq "$(cat "$T/models")" '["model-a","model-b"]' "recorded models"

# Recorded delays: chunks of recording 1 at 100, 150, 200 ms.
gaps() {
    sends_of "$1" "$2" 3 | awk -F'\t' 'NR == 1 {t0 = $3}
        NR > 1 {printf "%s%d", (NR > 2 ? " " : ""), ($3 - t0) / 1e6 + 0.5}'
}
read -r g1 g2 <<<"$(gaps "$T/sends.tsv" a1)"
[ "$g1" -ge 35 ] && [ "$g1" -le 70 ] && [ "$g2" -ge 85 ] && [ "$g2" -le 120 ] ||
    fail "recorded timing not kept: gaps $g1 $g2 ms, want 50 100"
t=$(curl -sN -o /dev/null -w '%{time_total}' "$URL/v1/chat/completions" -d '{"model":"model-a","stream":true}')
# (that was recording 3, the 429 at 10 ms; the next model-a is recording 1)
t=$(curl -sN -o /dev/null -w '%{time_total}' "$URL/v1/chat/completions" -d '{"model":"model-a","stream":true}')
awk -v t="$t" 'BEGIN {exit !(t >= 0.2 && t < 1.5)}' || fail "recording 1 took ${t}s, want ~0.21"

# --speed 2 halves every delay.
start_replay --trace "$T/rec.ttrace" --speed 2 --log-sends "$T/fast.tsv"
ask f1 model-a
cmp "$T/f1" "$T/req1.body" || fail "--speed changed the bytes"
read -r g1 g2 <<<"$(gaps "$T/fast.tsv" f1)"
[ "$g1" -ge 15 ] && [ "$g1" -le 40 ] && [ "$g2" -ge 40 ] && [ "$g2" -le 65 ] ||
    fail "--speed 2: gaps $g1 $g2 ms, want 25 50"

# Faults that replace the whole reply still apply in trace mode.
start_replay --trace "$T/rec.ttrace" --fault http-500@model-b
ask e1 model-b
assert_eq "$(status_of "$T/e1")" 500 "fault in trace mode"
ask e2 model-a
cmp "$T/e2" "$T/req1.body" || fail "fault leaked to another model"

# A file that is not a trace is refused (exit 1, one line).
echo "not a trace" >"$T/junk"
expect_exit 1 "$TT_REPLAY" --listen 127.0.0.1:0 --trace "$T/junk"
echo "replay_trace: ok"
