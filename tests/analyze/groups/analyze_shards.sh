#!/usr/bin/env bash
# The shards of one run read as one run: two shards recorded against the
# replay server summarize to the counts of one process recording the same
# schedule (timings within noise); files or one cat'ed stream alike; the
# per-shard table (text, markdown, JSON); a missing shard and a second
# recording of one shard are named.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"

start_replay --synthetic 'ttft=30ms,tpot=4ms,tokens=6'
common=(-q -u "$URL" -m a -m b -n 6 --classes short-short,long-short -r 30 --seed 3)
"$TT_RECORD" "${common[@]}" -o "$T/one.ttrace" || fail "one exit $?"
at=$(date -u -d '+1.5 sec' +%Y-%m-%dT%H:%M:%S.%NZ)
"$TT_RECORD" "${common[@]}" --shard 0/2 --start-at "$at" -o "$T/s0.ttrace" &
p0=$!
"$TT_RECORD" "${common[@]}" --shard 1/2 --start-at "$at" -o "$T/s1.ttrace" || fail "shard 1 exit $?"
wait "$p0" || fail "shard 0 exit $?"
# the same shard recorded again (another trace id, the same run id)
"$TT_ANALYZE" dump "$T/s0.ttrace" >"$T/s0.jsonl"
rid=$(jq -r "select(.kind==\"header\")|.options.run_id" "$T/s0.jsonl")
"$TT_RECORD" "${common[@]}" --shard 0/2 --run-id "$rid" -o "$T/s0again.ttrace" ||
    fail "re-recording shard 0"

S() { "$TT_ANALYZE" summary --format json "$@"; }
S "$T/one.ttrace" >"$T/one.json"
S "$T/s0.ttrace" "$T/s1.ttrace" >"$T/two.json" 2>"$T/two.err"
cat "$T/s0.ttrace" "$T/s1.ttrace" | S - >"$T/cat.json"
counts='[.overall.requests, .overall.ok, .overall.failed, ([.groups[]|"\(.model)/\(.class)=\(.requests)"]|sort)]|tostring'
assert_eq "$(jq -r "$counts" "$T/two.json")" "$(jq -r "$counts" "$T/one.json")" "merged counts"
assert_eq "$(jq -r "$counts" "$T/cat.json")" "$(jq -r "$counts" "$T/one.json")" "cat'ed counts"
# timings: pooled, so the merged median lies between the shards' own
# medians (it would not if the shards' numbers were averaged or one shard
# lost); and near the one process's (generous: a loaded 2-core machine)
# (each alone is an incomplete run: exit 1)
S "$T/s0.ttrace" >"$T/a.json" 2>/dev/null || true
S "$T/s1.ttrace" >"$T/b.json" 2>/dev/null || true
jq -e -n --slurpfile a "$T/a.json" --slurpfile b "$T/b.json" --slurpfile m "$T/two.json" \
    '[$a[0].overall.ttft_ms.p50, $b[0].overall.ttft_ms.p50] as $s | $m[0].overall.ttft_ms.p50 as $x
     | ($x >= ($s|min) - 1e-9) and ($x <= ($s|max) + 1e-9)' >/dev/null ||
    fail "merged TTFT p50 $(jq .overall.ttft_ms.p50 "$T/two.json") outside the shards' $(jq .overall.ttft_ms.p50 "$T/a.json") .. $(jq .overall.ttft_ms.p50 "$T/b.json")"
jq -e -n --slurpfile a "$T/one.json" --slurpfile b "$T/two.json" \
    '($a[0].overall.ttft_ms.p50 - $b[0].overall.ttft_ms.p50) | fabs < 100' >/dev/null ||
    fail "merged TTFT p50 $(jq .overall.ttft_ms.p50 "$T/two.json") vs $(jq .overall.ttft_ms.p50 "$T/one.json")"
! grep -qE 'shards missing|read twice|disagree' "$T/two.err" || fail "a complete set warned: $(cat "$T/two.err")"
jq -e '.shards|length==1 and .[0].complete and .[0].count==2 and .[0].read==2
    and .[0].hosts==1 and .[0].wall_uncertainty_ms==0
    and ([.[0].shards[].index]==[0,1]) and ([.[0].shards[].requests]|add)==24
    and ([.[0].shards[].send_lag_p50_ms]|all(. != null))' "$T/two.json" >/dev/null ||
    fail "shards JSON: $(jq -c .shards "$T/two.json")"
jq -e 'has("shards")|not' "$T/one.json" >/dev/null || fail "an unsharded run has a shards key"
# the sum of the shards' requests is the pooled count, and the pooled p99
# is computed over all of them (not an average of the shards' p99)
assert_eq "$(jq '.overall.ttft_ms.n' "$T/two.json")" "$(jq '.overall.ttft_ms.n' "$T/one.json")" "pooled TTFT values"

# the table: a row per shard with its host
"$TT_ANALYZE" summary "$T/s1.ttrace" "$T/s0.ttrace" >"$T/two.txt"
grep -q '^shards of run .*: 2 of 2 read, complete, 1 host, start skew [0-9.]* ms, wall span' "$T/two.txt" || fail "no shard block: $(cat "$T/two.txt")"
host=$(hostname)
grep -qE "^  0/2 +${host:0:16} " "$T/two.txt" || fail "no row of shard 0: $(cat "$T/two.txt")"
grep -qE "^  1/2 +${host:0:16} " "$T/two.txt" || fail "no row of shard 1"
"$TT_ANALYZE" summary --format markdown "$T/s0.ttrace" "$T/s1.ttrace" | grepq '^| 1/2 |' || fail "markdown row"

# one shard missing: analyzed, with a warning naming it, and exit 1 (a
# run with a dead shard is no success)
rc=0; S "$T/s0.ttrace" >"$T/miss.json" 2>"$T/miss.err" || rc=$?; assert_eq "$rc" 1 "exit of S s0.ttrace"
grep -q 'shards missing (index 1)' "$T/miss.err" || fail "missing shard not named: $(cat "$T/miss.err")"
jq -e '.shards[0]|(.complete|not) and .missing==[1]' "$T/miss.json" >/dev/null || fail "missing in JSON"
{ "$TT_ANALYZE" summary "$T/s0.ttrace" 2>/dev/null || true; } | grepq 'missing: 1/2' || fail "missing line in the table"

# a shard twice (two recordings of index 0): named; a trace read twice is
# still the repeated-trace check's (same trace id: counted once). The
# second recording had no --start-at: not one run with the others, so it
# is refused unless merged anyway
rc=0; S "$T/s0.ttrace" "$T/s0again.ttrace" "$T/s1.ttrace" >"$T/dup.json" 2>"$T/dup.err" || rc=$?; assert_eq "$rc" 1 "exit of S s0.ttrace s0again.ttrace s1.ttrace"
grep -q "start differs" "$T/dup.err" || fail "the start instant is not named: $(cat "$T/dup.err")"
[ ! -s "$T/dup.json" ] || fail "a refused merge printed a summary"
rc=0; S --merge-anyway "$T/s0.ttrace" "$T/s0again.ttrace" "$T/s1.ttrace" >"$T/dup.json" 2>"$T/dup.err" || rc=$?; assert_eq "$rc" 1 "exit of S --merge-anyway s0.ttrace s0again.ttrace s1.ttrace"
grep -q 'shard 0/2 read twice' "$T/dup.err" || fail "duplicate not named: $(cat "$T/dup.err")"
jq -e '.shards[0]|(.complete|not) and .duplicate==[0]' "$T/dup.json" >/dev/null || fail "duplicate in JSON"
S "$T/s0.ttrace" "$T/s0.ttrace" "$T/s1.ttrace" >"$T/rep.json" 2>"$T/rep.err"
grep -q 'already read' "$T/rep.err" || fail "repeated trace not skipped"
jq -e '.shards[0].complete' "$T/rep.json" >/dev/null || fail "a repeated trace made a duplicate shard"
"$TT_ANALYZE" check "$T/s0.ttrace" "$T/s1.ttrace" | grepq '^run .*: 2 of 2 shards, one run: OK' || fail "check of a whole run"
echo ok
