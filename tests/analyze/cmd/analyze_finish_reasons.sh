#!/usr/bin/env bash
# analyze_finish_reasons: how requests ended and what the summary says of
# it. finish_reason per request and counts per group (stop, length,
# error...); a warning when an --ignore-eos run ends before max_tokens;
# the recorder's self-check judged against each trace's own ITL and named
# by file; usage above the chunks by a little (tokens held back and
# merged) is a note, by a lot (packing) a warning; and the small things: "1
# request", an all-failed group without an empty metric table, rows that
# line up, "1 token event".
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

start_replay --synthetic 'ttft=5ms,tpot=1ms,tokens=6' --fault http-500@bad --fault no-tokens@empty
out="$T/f.ttrace"
"$TT_RECORD" -q -u "$URL" -m ok -m bad -n 2 --classes short-short -o "$out" 2>/dev/null || true
"$TT_RECORD" -q -u "$URL" -m ok -n 2 --classes short-short --max-tokens 3 -o "$T/len.ttrace" ||
    fail "record length"
"$TT_ANALYZE" requests --format json "$out" "$T/len.ttrace" >"$T/req.json"
assert_eq "$(jq -r 'select(.model=="ok")|.finish_reason' "$T/req.json" | sort | uniq -c | awk '{print $2"="$1}' | tr '\n' ' ')" \
    "length=2 stop=2 " "finish_reason per request"
assert_eq "$(jq -r 'select(.model=="bad")|.finish_reason' "$T/req.json" | sort -u)" null "no finish for a 500"
"$TT_ANALYZE" summary --format json "$out" "$T/len.ttrace" >"$T/s.json"
assert_eq "$(jq -c '.groups[]|select(.model=="ok")|.finish' "$T/s.json")" \
    '{"stop":2,"length":2,"tool_calls":0,"other":0,"none":0,"error":0}' "JSON counts"
assert_eq "$(jq -c '.groups[]|select(.model=="bad")|.finish.error' "$T/s.json")" 2 "failed ones count as error"
"$TT_ANALYZE" summary --detail "$out" "$T/len.ttrace" >"$T/s.txt"
grep -q '^  ended: stop=2 length=2$' "$T/s.txt" || fail "ended line: $(cat "$T/s.txt")"

# an all-failed group: its counts and errors, no empty metric table
awk '/^bad /{g=1;print;next} /^$/{g=0} g' "$T/s.txt" >"$T/bad.txt"
grep -q '^bad / short-short   requests 2, ok 0$' "$T/bad.txt" || fail "failed group: $(cat "$T/bad.txt")"
grep -q 'metric\|tokens from' "$T/bad.txt" && fail "empty table for a failed group: $(cat "$T/bad.txt")"
"$TT_ANALYZE" summary --detail --format markdown "$out" | awk '/^### bad/{g=1} /^### ok/{g=0} g' | grepq '| metric' &&
    fail "empty markdown table for a failed group"

# --ignore-eos that the server does not honour: 6 tokens of 20 asked
"$TT_RECORD" -q -u "$URL" -m ok -n 2 --classes short-short --max-tokens 20 --ignore-eos \
    -o "$T/eos.ttrace" || fail "record ignore-eos"
"$TT_ANALYZE" summary "$T/eos.ttrace" >/dev/null 2>"$T/eos.err"
grep -q "warning: ok / short-short: 2 of 2 requests of an --ignore-eos run ended before their max_tokens (finish: stop 2, length 0)" \
    "$T/eos.err" || fail "ignore-eos warning: $(cat "$T/eos.err")"
"$TT_ANALYZE" summary "$T/len.ttrace" 2>&1 >/dev/null | grepq "ignore-eos" && fail "warned without --ignore-eos"

# one request: "1 request"
"$TT_RECORD" -q -u "$URL" -m ok -n 1 --classes short-short -o "$T/one.ttrace" || fail "record one"
"$TT_ANALYZE" summary --detail "$T/one.ttrace" | sed -n 1p | grepq '^1 trace, 1 request (1 ok, 0 failed)' ||
    fail "plural: $("$TT_ANALYZE" summary --detail "$T/one.ttrace" | sed -n 1p)"
"$TT_ANALYZE" summary "$T/one.ttrace" | sed -n 1p | grepq '^1 trace, 1 request, 0 failed' ||
    fail "plural, compact: $("$TT_ANALYZE" summary "$T/one.ttrace" | sed -n 1p)"
# the doctor says "1 token event"
"$TT_RECORD" -u "$URL" -m ok --max-tokens 1 --check >"$T/check.out" 2>&1 || fail "check: $(cat "$T/check.out")"
grep -q ', 1 token event$' "$T/check.out" || fail "check plural: $(cat "$T/check.out")"

# the self-check per trace: 2 ms late is too much for a 10 ms ITL, not for
# a 100 ms one; pooled, the slow trace would have hidden the fast one
"$TT_GEN_TRACE" "$T/fast.ttrace" 4 20 100 10 lag_us=2000 >/dev/null
"$TT_GEN_TRACE" "$T/slow.ttrace" 40 20 100 100 lag_us=2000 >/dev/null
"$TT_ANALYZE" summary --detail "$T/fast.ttrace" "$T/slow.ttrace" >"$T/lag.txt" 2>"$T/lag.err"
grep -q "^recorder self-check ($T/fast.ttrace, trace 0): .*: over 10% of the trace's ITL p50" "$T/lag.txt" ||
    fail "fast trace: $(cat "$T/lag.txt")"
grep "^recorder self-check ($T/slow.ttrace, trace 1): " "$T/lag.txt" | grepq "over 10%" &&
    fail "slow trace judged by the pooled ITL: $(cat "$T/lag.txt")"
grep -q "(trace):" "$T/lag.txt" && fail "literal (trace): $(cat "$T/lag.txt")"
assert_eq "$(grep -c "own event loop woke" "$T/lag.err")" 1 "one self-lag warning"

# usage above the chunks: +1.7% is merging (a note), +100% packing
"$TT_GEN_TRACE" "$T/merged.ttrace" 4 60 100 10 usage_extra=1 >/dev/null
"$TT_GEN_TRACE" "$T/packed.ttrace" 4 60 100 10 usage_extra=60 >/dev/null
"$TT_ANALYZE" summary "$T/merged.ttrace" >/dev/null 2>"$T/merged.err"
grep -q "tokentrace-analyze: .*usage counts +1.7% tokens against the chunks carrying text: tokens held back and sent merged" "$T/merged.err" ||
    fail "merged: $(cat "$T/merged.err")"
grep -q "warning:.*usage" "$T/merged.err" && fail "merging warned as packing: $(cat "$T/merged.err")"
"$TT_ANALYZE" summary "$T/packed.ttrace" >/dev/null 2>"$T/packed.err"
grep -q "warning: .*usage counts +100% tokens against the chunks carrying text: several tokens per chunk (packing); TPOT uses the usage count" \
    "$T/packed.err" || fail "packed: $(cat "$T/packed.err")"

# rows line up: every value column starts where the header's does
"$TT_RECORD" -q -u "$URL" -m ok -n 3 -r 50 --classes short-short -o "$T/open.ttrace" || fail "record open loop"
"$TT_ANALYZE" summary --detail "$T/open.ttrace" >"$T/open.txt"
grep -q "latency from sched" "$T/open.txt" || fail "no open-loop row: $(cat "$T/open.txt")"
# fixed-width columns: every row of the table as long as its header
assert_eq "$(awk '/^  metric/{t=1} /^$/{t=0} t && !/^  (ended|errors)/{print length($0)}' "$T/open.txt" | sort -u | wc -l)" 1 \
    "rows line up: $(cat "$T/open.txt")"
echo ok
