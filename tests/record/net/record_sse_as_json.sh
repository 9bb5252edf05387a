#!/usr/bin/env bash
# record_sse_as_json: an event stream served as Content-Type:
# application/json (the replay fault sse-as-json) is recorded as a stream:
# the body decides (a "data:" line), not the header. The run warns and
# names the header, --check measures it and warns the same, the analyzer
# agrees (ok, TTFT measured); a real one-JSON reply (no-stream) is still
# not_streamed, and a plain stream carries no warning.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

start_replay --synthetic 'ttft=40ms,tpot=3ms,tokens=12' --fault sse-as-json@wrong --fault no-stream@buffered

for api in openai-chat anthropic; do
    out="$T/$api.ttrace"
    "$TT_RECORD" -u "$URL" -m wrong -n 2 -c 2 --classes short-short --api "$api" \
        -o "$out" 2>"$T/$api.err" || fail "$api: exit $? ($(cat "$T/$api.err"))"
    grep -q "requests: 2 ok, 0 failed" "$T/$api.err" || fail "$api: summary: $(cat "$T/$api.err")"
    grep -q "warning: 2 streams came with Content-Type: application/json instead of text/event-stream" "$T/$api.err" ||
        fail "$api: no header warning: $(cat "$T/$api.err")"
    d=$(dump "$out")
    assert_eq "$(jqs "$d" '[.[]|select(.kind=="result")|.error_kind]|unique|map(tostring)|join(",")')" null "$api: error kinds"
    # the analyzer takes the recorder's kind: ok, with a TTFT (the server
    # holds the first token 40 ms; a loaded machine adds to it, so no upper
    # bound)
    s=$("$TT_ANALYZE" summary --format json "$out") || fail "$api: summary exit $?"
    assert_eq "$(jq -r '.overall.ok // .groups[-1].ok' <<<"$s")" 2 "$api: analyzer ok"
    "$TT_ANALYZE" summary "$out" --detail >"$T/$api.sum" || fail "$api: summary exit"
    grep -q "not_streamed" "$T/$api.sum" && fail "$api: analyzer says not_streamed: $(cat "$T/$api.sum")"
    grep -qE "^ *TTFT \(ms\) +([3-9][0-9]|[1-9][0-9]{2,})\." "$T/$api.sum" || fail "$api: no TTFT row: $(cat "$T/$api.sum")"
done

# the doctor measures it and names the header
"$TT_RECORD" -u "$URL" -m wrong --check >"$T/check.out" 2>&1 || fail "check exit $? ($(cat "$T/check.out"))"
grep -q "wrong: OK: streams" "$T/check.out" || fail "check verdict: $(cat "$T/check.out")"
grep -q "warning: the stream came with Content-Type: application/json instead of text/event-stream" "$T/check.out" ||
    fail "check warning: $(cat "$T/check.out")"
grep -q "one JSON reply" "$T/check.out" && fail "check says one JSON reply: $(cat "$T/check.out")"

# a real one-JSON reply is still not streamed, and says so
expect_exit 1 "$TT_RECORD" -u "$URL" -m buffered -n 1 --classes short-short -o "$T/buf.ttrace" 2>"$T/buf.err"
assert_eq "$(jqs "$(dump "$T/buf.ttrace")" '.[]|select(.kind=="result")|.error_kind')" not_streamed "no-stream kind"
grep -q "Content-Type: application/json instead" "$T/buf.err" && fail "no-stream warned as mislabelled"
expect_exit 1 "$TT_RECORD" -u "$URL" -m buffered --check >"$T/check2.out" 2>&1
grep -q "FAIL not-streamed" "$T/check2.out" || fail "no-stream check: $(cat "$T/check2.out")"

# a plain stream: no warning
"$TT_RECORD" -u "$URL" -m plain -n 1 --classes short-short -o "$T/plain.ttrace" 2>"$T/plain.err" || fail "plain exit $?"
grep -q "Content-Type" "$T/plain.err" && fail "plain stream warned: $(cat "$T/plain.err")"
"$TT_RECORD" -u "$URL" -m plain --check >"$T/check3.out" 2>&1 || fail "plain check exit $?"
grep -q "Content-Type" "$T/check3.out" && fail "plain check warned: $(cat "$T/check3.out")"
exit 0
