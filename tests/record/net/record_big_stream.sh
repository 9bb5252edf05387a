#!/usr/bin/env bash
# record_big_stream: one stream of about 1 GB (100 MB under sanitizers),
# sent as fast as loopback carries it, is recorded whole into a trace file
# while the recorder's memory stays flat, and the analyzer's summary, check
# and requests read that trace with flat memory too. The server is the
# replay server with tpot=0 and 1024 tokens per event (its writes wait
# while 4 MiB are unsent, so it stays small as well). The trace is deleted
# at the end, pass or fail.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_bounds_lib.sh"

unset OPENAI_API_KEY
if [ -n "${TT_SANITIZE:-}" ]; then MB=100; else MB=1000; fi
# about 6.6 body bytes per token with 1024 tokens per event (measured);
# count 6.4 to be over MB
TOKENS=$((MB * 1000 * 1000 * 10 / 64))
BIG="$T/big.ttrace"
trap 'rc=$?; rm -f "$BIG"; (exit $rc); tt_cleanup' EXIT

# the trace is about MB megabytes; want twice that free, and 1 GB spare
free_mb=$(df -Pm "$T" | awk 'NR==2{print $4}')
if [ "$free_mb" -lt $((2 * MB + 1000)) ]; then
    echo "record_big_stream: skipped: $free_mb MB free in $T, want $((2 * MB + 1000)) MB"
    exit 0
fi

start_replay --synthetic "ttft=0,tpot=0,tokens=$TOKENS,tokens_per_chunk=1024"
# a class of its own sends no max_tokens: the profile's length applies
echo '{"class":"big","prompt":"Write for a long time."}' >"$T/big.jsonl"
t0=$(date +%s)
peak_kib "$T/rec.kib" "$TT_RECORD" -q -u "$URL" -m big -n 1 --workload "$T/big.jsonl" \
    --timeout 300 --idle-timeout 60 -o "$BIG" || fail "recorder exit $?"
t_rec=$(($(date +%s) - t0))
size=$(stat -c %s "$BIG")
[ "$size" -gt $((MB * 1000 * 1000)) ] || fail "trace of $size bytes, want over $MB MB"

# the analyzer reads it all: one ok request with every token, every byte
peak_kib "$T/info.kib" "$TT_ANALYZE" info "$BIG" >"$T/info.md" || fail "info failed"
body=$(sed -n 's/^| chunks | [0-9]* (\([0-9]*\) body bytes) |$/\1/p' "$T/info.md")
[ -n "$body" ] && [ "$body" -gt $((MB * 1000 * 1000)) ] || fail "body bytes '$body': $(cat "$T/info.md")"
grep -q "^| requests | 1 (1 ok, 0 failed)" "$T/info.md" || fail "info: $(cat "$T/info.md")"
peak_kib "$T/req.kib" "$TT_ANALYZE" requests --format json "$BIG" >"$T/req.jsonl" 2>/dev/null \
    || fail "requests failed"
assert_eq "$(jq -r '"\(.ok) \(.usage_output_tokens) \(.token_events)"' "$T/req.jsonl")" \
    "true $TOKENS $(((TOKENS + 1023) / 1024))" "requests: ok, tokens, token events"
peak_kib "$T/sum.kib" "$TT_ANALYZE" summary --format json "$BIG" >"$T/summary.json" 2>/dev/null \
    || fail "summary failed"
jq -e . "$T/summary.json" >/dev/null || fail "summary is not JSON"
peak_kib "$T/check.kib" "$TT_ANALYZE" check "$BIG" >"$T/check.txt" || fail "check: $(cat "$T/check.txt")"
grep -q ": OK$" "$T/check.txt" || fail "check: $(cat "$T/check.txt")"
rm -f "$BIG"

echo "record_big_stream: $size-byte trace, $body body bytes, recorded in ${t_rec} s;" \
    "peak RSS KiB: recorder $(cat "$T/rec.kib"), analyzer info $(cat "$T/info.kib")," \
    "requests $(cat "$T/req.kib"), summary $(cat "$T/sum.kib"), check $(cat "$T/check.kib")"
if [ -n "${TT_SANITIZE:-}" ]; then
    echo "record_big_stream: ok (memory bounds not checked under sanitizers)"
    exit 0
fi
# flat: a small fraction of the bytes that went through
for k in rec info req sum check; do
    [ "$(cat "$T/$k.kib")" -lt $((64 << 10)) ] || fail "$k peak RSS $(cat "$T/$k.kib") KiB, want < 64 MiB"
done
echo "record_big_stream: ok"
