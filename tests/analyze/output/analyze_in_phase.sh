#!/usr/bin/env bash
# analyze_in_phase: when a recording's streams arrive in phase (the replay
# server's align=, as a batching server sends its steps), the summary says
# the self-check cannot be trusted (header words, a finding, --detail, a
# JSON block) when its chunk times are hand-over times (--chunk-time user);
# a single stream never gets it, and neither does a trace without a
# self-check (gen_trace's) or one whose chunk times are the kernel's (the
# burst queue is not in them).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
A=$TT_ANALYZE
R=$TT_RECORD

start_replay --synthetic 'ttft=20ms,tpot=20ms,tokens=30,align=20ms'
"$R" -u "$URL" -m m --classes short-short -n 32 -c 32 -q --force --chunk-time user -o "$T/phase.ttrace"
"$R" -u "$URL" -m m --classes short-short -n 6 -c 1 -q --force --chunk-time user -o "$T/one.ttrace"
"$R" -u "$URL" -m m --classes short-short -n 32 -c 32 -q --force -o "$T/kernel.ttrace"

"$A" summary "$T/phase.ttrace" >"$T/phase.txt" 2>"$T/phase.err"
# A loaded machine may fail the self-check outright (its lag over 10% of
# the ITL): that verdict is the stronger one and replaces this one.
if head -2 "$T/phase.txt" | tr '\n' ' ' | grepq 'self-check *failed'; then
    grep -q '^self-check: the recorder woke up' "$T/phase.txt" || fail "failed without its finding"
    echo "note: the self-check failed outright under load; the in-phase words are checked in --detail and JSON"
else
    head -2 "$T/phase.txt" | tr '\n' ' ' | grepq 'self-check *untrusted (bursts)' ||
        fail "header words: $(head -2 "$T/phase.txt")"
    grep -q '^self-check: [0-9]*% of chunks came in runs of many streams (in phase' "$T/phase.txt" ||
        fail "finding: $(cat "$T/phase.txt")"
fi
"$A" summary --detail "$T/phase.ttrace" | grepq 'recorder self-check: [0-9]*% of chunks came with other streams.* within 0.2 ms (streams in phase)' ||
    fail "--detail line"
"$A" summary --format json "$T/phase.ttrace" >"$T/phase.json"
jq -e '.traces[0].self_check_in_phase | .share >= 0.25 and .chunks >= 100' "$T/phase.json" >/dev/null ||
    fail "JSON block: $(jq -c '.traces[0].self_check_in_phase' "$T/phase.json")"

"$A" summary "$T/one.ttrace" >"$T/one.txt" 2>&1
grep -q 'untrusted\|in phase' "$T/one.txt" && fail "one stream taken for streams in phase: $(cat "$T/one.txt")"
"$A" summary --format json "$T/one.ttrace" | jq -e '.traces[0] | has("self_check_in_phase") | not' >/dev/null ||
    fail "JSON block on one stream"

# kernel chunk times: the same streams in phase, no verdict against them
"$A" summary --width 300 "$T/kernel.ttrace" >"$T/kernel.txt" 2>&1
head -n 1 "$T/kernel.txt" | grepq 'kernel times' || fail "kernel: header $(head -n 1 "$T/kernel.txt")"
grep -q 'untrusted\|in phase' "$T/kernel.txt" && fail "kernel times taken for untrusted: $(cat "$T/kernel.txt")"
"$A" summary --format json "$T/kernel.ttrace" | jq -e '.traces[0] | has("self_check_in_phase") | not' >/dev/null ||
    fail "JSON block on kernel times"

# gen_trace's streams are in phase but carry no self-check: nothing to say
"$TT_GEN_TRACE" "$T/gen.ttrace" 40 30 100 10
"$A" summary "$T/gen.ttrace" | grepq 'untrusted\|in phase' && fail "a trace without a self-check"
echo "ok: streams in phase found; one stream and a trace without a self-check left alone"
