#!/usr/bin/env bash
# End to end over loopback HTTP: the recorder measures two replay servers
# 50 ms apart in TTFT; compare calls it a real, slower TTFT and noise in
# TPOT; requests has a row per request; info shows only scheme://host:port.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
A=$TT_ANALYZE
export OPENAI_API_KEY=sk-test-not-a-real-key

start_replay --synthetic 'ttft=80ms,tpot=4ms,tokens=20'
URL1=$URL
start_replay --synthetic 'ttft=130ms,tpot=4ms,tokens=20'
URL2=$URL
"$TT_RECORD" -u "$URL1" -m m1 -n 16 -c 4 --classes short-short -o "$T/base.ttrace" -q
"$TT_RECORD" -u "$URL2/api" -m m1 -n 16 -c 4 --classes short-short -o "$T/new.ttrace" -q

"$A" compare "$T/base.ttrace" "$T/new.ttrace" --format json >"$T/c.json"
jq -e '.comparisons[0].groups | length == 1' "$T/c.json" >/dev/null || fail "one group"
jq -e '.comparisons[0].groups[0].metrics.ttft_ms | .verdict == "real" and .direction == "slower" and .median_diff_ci.lo > 20 and .median_diff_ci.hi < 90' \
    "$T/c.json" >/dev/null || fail "TTFT: $(jq -c '.comparisons[0].groups[0].metrics.ttft_ms' "$T/c.json")"
jq -e '.comparisons[0].groups[0].metrics.output_tokens.verdict == "noise"' "$T/c.json" >/dev/null || fail "tokens"

"$A" requests "$T/base.ttrace" --format json >"$T/r.jsonl"
assert_eq "$(wc -l <"$T/r.jsonl")" 16 "request rows"
jq -e -s 'all(.ok and .output_tokens == 20 and .ttft_ms >= 75 and (.trace_id as $t | .x_request_id | startswith($t + "-")))' "$T/r.jsonl" >/dev/null ||
    fail "request rows: $(head -1 "$T/r.jsonl")"

"$A" info "$T/new.ttrace" >"$T/i.md"
grep -qE '^\| endpoint \| http://127\.0\.0\.1:[0-9]+ \|$' "$T/i.md" || fail "endpoint: $(grep endpoint "$T/i.md")"
grep -q 'sk-test' "$T/i.md" && fail "the key shows up in info"
grep -q '^| integrity | complete' "$T/i.md" || fail "integrity"
# Every command's --help fits 80 columns (issue 32: dump --help and check
# --help were single lines of 250 and 560 characters).
for c in $("$TT_ANALYZE" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1; next } on && !/^  / { exit }'); do
    "$TT_ANALYZE" "$c" --help | awk -v c="$c" 'length > 80 {print c " --help: " $0; bad=1} END {exit bad}' ||
        fail "$c --help is wider than 80 columns"
done
echo ok
