#!/usr/bin/env bash
# analyze_bad_times: a crafted trace with times that cannot be (a chunk
# stamped before its request's start) gets those requests flagged as
# bad_times, with a warning, while every other request keeps its numbers;
# clock zeros near the int64 limits give an "unknown" trend period, not a
# wrapped date (UBSan checks the arithmetic in the sanitizer build).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
"$TT_GEN_TRACE" --mix "$T/bad.ttrace" -n 20 -B 5
"$TT_ANALYZE" summary "$T/bad.ttrace" --format json >"$T/s.json" 2>"$T/s.err" ||
    { cat "$T/s.err"; fail "summary exited $?"; }
grep -q '4 requests with times that cannot be' "$T/s.err" || { cat "$T/s.err"; fail "no bad_times warning"; }
[ "$(jq '.overall.errors.bad_times' "$T/s.json")" = 4 ] || fail "want 4 bad_times in overall"
[ "$(jq '.overall.ok' "$T/s.json")" = 16 ] || fail "the other 16 requests must stay ok"
jq -e '.overall.ttft_ms.min > 0 and .overall.ttft_ms.n == 16' "$T/s.json" >/dev/null ||
    fail "a negative TTFT or a flagged request reached the statistics"
"$TT_ANALYZE" requests "$T/bad.ttrace" --format json >"$T/r.jsonl" 2>/dev/null
[ "$(jq -s '[.[] | select(.error_kind == "bad_times")] | length' "$T/r.jsonl")" = 4 ] ||
    fail "requests does not show the 4 bad_times"
# Clock zeros at the edge of int64: no overflow, the period is unknown.
"$TT_GEN_TRACE" --mix "$T/edge.ttrace" -n 4 -z 9223372036854775000
"$TT_ANALYZE" trend "$T/edge.ttrace" --format json >"$T/t.json" 2>"$T/t.err" ||
    { cat "$T/t.err"; fail "trend exited $?"; }
jq -e '[.rows[].period] | all(. == "unknown")' "$T/t.json" >/dev/null ||
    { cat "$T/t.json"; fail "an overflowing start is not an unknown period"; }
echo "analyze_bad_times: ok"
