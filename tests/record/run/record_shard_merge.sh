#!/usr/bin/env bash
# Shards that are not one run are not merged (issue 33), each case on two
# recorder processes: different seeds (or 1/3 beside 0/2) under one
# --run-id are refused by summary and check, naming the field and the
# shards, unless --merge-anyway (then text and JSON say so); without
# --start-at and --run-id the shards get no shared run id; a SIGKILLed
# shard makes the run incomplete (text, JSON, exit codes of summary and
# check), and so does a missing one; the start skew is measured from the
# headers; a --server-metrics endpoint that never answers does not make a
# shard late for --start-at; the scheduler variables' error names the
# right scheduler. requests, plot, compare (each side), trend and
# capacity make the same check (shard_gate) before they pool traces.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

start_replay --synthetic 'ttft=20ms,tpot=2ms,tokens=4'
base=(-q -u "$URL" -m a -n 8 --classes short-short -r 40)
S() { "$TT_ANALYZE" summary "$@"; }

# --- different seeds, one run id: refused, the field and both shards named
"$TT_RECORD" "${base[@]}" --seed 7 --shard 0/2 --run-id X -o "$T/s7.ttrace" &
p=$!
"$TT_RECORD" "${base[@]}" --seed 8 --shard 1/2 --run-id X -o "$T/s8.ttrace" || fail "seed 8 exit $?"
wait "$p" || fail "seed 7 exit $?"
rc=0; S "$T/s7.ttrace" "$T/s8.ttrace" >"$T/seed.out" 2>"$T/seed.err" || rc=$?; assert_eq "$rc" 1 "exit of S s7.ttrace s8.ttrace"
[ ! -s "$T/seed.out" ] || fail "a refused merge printed: $(cat "$T/seed.out")"
grep -q 'run X: its shards are not one run: seed differs: shard 0/2 (.*s7.ttrace) has 7, shard 1/2 (.*s8.ttrace) has 8' "$T/seed.err" ||
    fail "refusal does not name the field and shards: $(cat "$T/seed.err")"
rc=0; S --format json "$T/s7.ttrace" "$T/s8.ttrace" >/dev/null 2>&1 || rc=$?; assert_eq "$rc" 1 "exit of S --format json s7.ttrace s8.ttrace"
rc=0; "$TT_ANALYZE" check "$T/s7.ttrace" "$T/s8.ttrace" >"$T/seed.check" || rc=$?; assert_eq "$rc" 1 "exit of $TT_ANALYZE check s7.ttrace s8.ttrace"
grep -q '^run X: NOT ONE RUN: seed differs' "$T/seed.check" || fail "check: $(cat "$T/seed.check")"
# --merge-anyway: merged, and every output says so
S --merge-anyway "$T/s7.ttrace" "$T/s8.ttrace" >"$T/any.txt" 2>"$T/any.err" || fail "merge-anyway exit $?"
grep -q 'NOT ONE RUN, merged anyway (--merge-anyway): seed differs: shard 0/2 has 7, shard 1/2 has 8' "$T/any.txt" ||
    fail "text does not say merged anyway: $(cat "$T/any.txt")"
grep -q 'merged anyway' "$T/any.err" || fail "no warning"
S --merge-anyway --format json "$T/s7.ttrace" "$T/s8.ttrace" 2>/dev/null >"$T/any.json" || fail "json merge-anyway"
jq -e '.shards[0]|.one_run==false and .merged_anyway and .differs.field=="seed"
    and .differs.values==["7","8"] and .differs.shards==[0,1]' "$T/any.json" >/dev/null ||
    fail "JSON: $(jq -c '.shards[0]|del(.shards)' "$T/any.json")"
S --merge-anyway --format markdown "$T/s7.ttrace" "$T/s8.ttrace" 2>/dev/null | grepq 'NOT ONE RUN, merged anyway' ||
    fail "markdown does not say merged anyway"

# every other command that pools traces makes the same check: refused
# (exit 1, the field and both shards named, nothing written), merged with
# --merge-anyway (said); before: each pooled them silently, exit 0
seed_err='run X: its shards are not one run: seed differs: shard 0/2 (.*s7.ttrace) has 7, shard 1/2 (.*s8.ttrace) has 8'
A() { "$TT_ANALYZE" "$@"; }
for cmd in "requests" "trend" "capacity --slo ttft=1s" "plot -o $T/pl"; do
    rc=0; A $cmd "$T/s7.ttrace" "$T/s8.ttrace" >"$T/g.out" 2>"$T/g.err" || rc=$?
    assert_eq "$rc" 1 "exit of $cmd s7.ttrace s8.ttrace"
    [ ! -s "$T/g.out" ] || fail "$cmd: a refused merge printed: $(head -3 "$T/g.out")"
    grep -q "$seed_err" "$T/g.err" || fail "$cmd: refusal does not name the field and shards: $(cat "$T/g.err")"
    rc=0; A $cmd --merge-anyway "$T/s7.ttrace" "$T/s8.ttrace" >"$T/g.out" 2>"$T/g.err" || rc=$?
    [ "$rc" != 1 ] || fail "$cmd --merge-anyway: exit 1: $(cat "$T/g.err")"
    grep -q 'merged anyway (--merge-anyway) though its shards are not one run: seed differs' "$T/g.err" ||
        fail "$cmd --merge-anyway: no warning: $(cat "$T/g.err")"
done
A trend --merge-anyway "$T/s7.ttrace" "$T/s8.ttrace" 2>/dev/null | grepq '^shards: run X: NOT ONE RUN, merged anyway (--merge-anyway): seed differs: shard 0/2 has 7, shard 1/2 has 8' ||
    fail "trend's text does not say merged anyway"
A trend --merge-anyway --format json "$T/s7.ttrace" "$T/s8.ttrace" 2>/dev/null >"$T/g.json" || fail "trend json merge-anyway"
jq -e '.shard_check|.runs==1 and .one_run==false and .merged_anyway and .complete
    and (.problem|test("NOT ONE RUN, merged anyway .*seed differs"))' "$T/g.json" >/dev/null ||
    fail "trend JSON: $(jq -c .shard_check "$T/g.json")"
# compare pools each side: a side of both shards is refused; shard 0
# against shard 1 is two sides, not a merge
cat "$T/s7.ttrace" "$T/s8.ttrace" >"$T/s78.ttrace"
rc=0; A compare "$T/s78.ttrace" "$T/s7.ttrace" >"$T/g.out" 2>"$T/g.err" || rc=$?; assert_eq "$rc" 1 "exit of compare s78 s7"
grep -q 'run X: its shards are not one run: seed differs: shard 0/2 (.*s78.ttrace) has 7, shard 1/2 (.*s78.ttrace) has 8' "$T/g.err" ||
    fail "compare: $(cat "$T/g.err")"
rc=0; A plot --compare -o "$T/pc" "$T/s78.ttrace" "$T/s7.ttrace" >/dev/null 2>"$T/g.err" || rc=$?; assert_eq "$rc" 1 "exit of plot --compare s78 s7"
# (exit 1 all the same: the side s7.ttrace is half of run X)
rc=0; A compare --merge-anyway "$T/s78.ttrace" "$T/s7.ttrace" >"$T/g.out" 2>/dev/null || rc=$?; assert_eq "$rc" 1 "exit of compare --merge-anyway s78 s7"
grep -q '^shards: run X: NOT ONE RUN, merged anyway (--merge-anyway): seed differs: shard 0/2 has 7, shard 1/2 has 8' "$T/g.out" ||
    fail "compare's text does not say merged anyway: $(tail -2 "$T/g.out")"

# --- 1/3 beside 0/2 under one run id: the shard count differs
"$TT_RECORD" "${base[@]}" --seed 7 --shard 1/3 --run-id X -o "$T/s13.ttrace" || fail "1/3 exit $?"
rc=0; S "$T/s7.ttrace" "$T/s13.ttrace" >/dev/null 2>"$T/n.err" || rc=$?; assert_eq "$rc" 1 "exit of S s7.ttrace s13.ttrace"
grep -q 'shards differs: shard 0/2 (.*) has 2, shard 1/3 (.*) has 3' "$T/n.err" || fail "count: $(cat "$T/n.err")"

# --- no --start-at, no --run-id: no shared run id, never one run
"$TT_RECORD" "${base[@]:1}" --seed 7 --shard 0/2 -o "$T/o0.ttrace" 2>"$T/o0.err" || fail "own 0 exit $?"
"$TT_RECORD" "${base[@]}" --seed 7 --shard 1/2 -o "$T/o1.ttrace" || fail "own 1 exit $?"
grep -q 'without --start-at or --run-id: its run id is its own' "$T/o0.err" || fail "the recorder did not warn: $(cat "$T/o0.err")"
rc=0; S --format json "$T/o0.ttrace" "$T/o1.ttrace" >"$T/own.json" 2>"$T/own.err" || rc=$?; assert_eq "$rc" 1 "exit of S --format json o0.ttrace o1.ttrace"
jq -e '.shards|length==2 and all(.complete==false and .run_id_from=="own" and .read==1)' "$T/own.json" >/dev/null ||
    fail "own run ids: $(jq -c '[.shards[]|del(.shards)]' "$T/own.json")"
grep -q 'recorded without --start-at or --run-id' "$T/own.err" || fail "no warning: $(cat "$T/own.err")"

# --- a SIGKILLed shard: cut; and a missing one
at=$(date -u -d '+3 sec' +%Y-%m-%dT%H:%M:%S.%NZ)
long=(-q -u "$URL" -m a -n 60 --classes short-short -r 15 --seed 7 --start-at "$at")
"$TT_RECORD" "${long[@]}" --shard 0/2 -o "$T/k0.ttrace" &
p0=$!
"$TT_RECORD" "${long[@]}" --shard 1/2 -o "$T/k1.ttrace" &
p1=$!
# shard 1 is killed 1 s after the instant, about 2 s before its end
sleep 4
kill -KILL "$p1" || fail "shard 1 ended before it was killed"
wait "$p1" 2>/dev/null || true
wait "$p0" || fail "shard 0 exit $?"
rc=0; S "$T/k0.ttrace" "$T/k1.ttrace" >"$T/cut.txt" 2>"$T/cut.err" || rc=$?; assert_eq "$rc" 1 "exit of S k0.ttrace k1.ttrace"
grep -q '^shards of run .*: 2 of 2 read (1 CUT), INCOMPLETE' "$T/cut.txt" || fail "text: $(cat "$T/cut.txt")"
grep -q 'shard 1/2 (.*k1.ttrace) was cut: no footer' "$T/cut.err" || fail "no warning: $(cat "$T/cut.err")"
rc=0; S --format json "$T/k0.ttrace" "$T/k1.ttrace" >"$T/cut.json" 2>/dev/null || rc=$?; assert_eq "$rc" 1 "exit of S --format json k0.ttrace k1.ttrace"
jq -e '.shards[0]|.complete==false and .cut==[1] and ([.shards[]|.cut]==[false,true])' "$T/cut.json" >/dev/null ||
    fail "JSON: $(jq -c '.shards[0]' "$T/cut.json")"
rc=0; "$TT_ANALYZE" check "$T/k0.ttrace" "$T/k1.ttrace" >"$T/cut.check" || rc=$?; assert_eq "$rc" 1 "exit of $TT_ANALYZE check k0.ttrace k1.ttrace"
grep -q '^run .*: INCOMPLETE: 2 of its 2 shards read; cut (no footer, or stopped) 1/2' "$T/cut.check" ||
    fail "check: $(cat "$T/cut.check")"
rc=0; "$TT_ANALYZE" check "$T/k0.ttrace" >"$T/miss.check" || rc=$?; assert_eq "$rc" 1 "exit of $TT_ANALYZE check k0.ttrace"
grep -q '^run .*: INCOMPLETE: 1 of its 2 shards read; missing 1/2' "$T/miss.check" || fail "check: $(cat "$T/miss.check")"
rc=0; S "$T/k0.ttrace" >/dev/null 2>&1 || rc=$?; assert_eq "$rc" 1 "exit of S k0.ttrace"
# the other commands: the cut shard named on stderr; incomplete on
# stdout and exit 1 where the command has a verdict (trend, compare,
# capacity); requests and plot write what they read (exit 0). Before: no
# word, exit 0.
for cmd in "requests" "trend" "capacity --slo ttft=1s" "plot -o $T/pl"; do
    rc=0; A $cmd "$T/k0.ttrace" "$T/k1.ttrace" >"$T/g.out" 2>"$T/g.err" || rc=$?
    grep -q 'shard 1/2 (.*k1.ttrace) was cut: no footer' "$T/g.err" || fail "$cmd: no cut warning: $(cat "$T/g.err")"
    case $cmd in
    requests*|plot*) assert_eq "$rc" 0 "exit of $cmd k0 k1" ;;
    *) assert_eq "$rc" 1 "exit of $cmd k0 k1"
       grep -q '^shards: run .*: INCOMPLETE: 2 of its 2 shards read; cut 1/2' "$T/g.out" ||
           fail "$cmd: text does not say incomplete: $(cat "$T/g.out")" ;;
    esac
done
for cmd in "trend" "capacity --slo ttft=1s"; do
    rc=0; A $cmd --format json "$T/k0.ttrace" "$T/k1.ttrace" >"$T/g.json" 2>/dev/null || rc=$?
    assert_eq "$rc" 1 "exit of $cmd --format json k0 k1"
    jq -e '.shard_check|.runs==1 and .one_run and .complete==false and .incomplete_runs==1
        and (.problem|test("INCOMPLETE: 2 of its 2 shards read; cut 1/2"))' "$T/g.json" >/dev/null ||
        fail "$cmd JSON: $(jq -c .shard_check "$T/g.json")"
done
cat "$T/k0.ttrace" "$T/k1.ttrace" >"$T/k01.ttrace"
rc=0; A compare "$T/k01.ttrace" "$T/k0.ttrace" >"$T/g.out" 2>"$T/g.err" || rc=$?; assert_eq "$rc" 1 "exit of compare k01 k0"
grep -q '^shards: run .*: INCOMPLETE: 2 of its 2 shards read; cut 1/2' "$T/g.out" || fail "compare: $(cat "$T/g.out")"
grep -q 'shard 1/2 (.*) was cut: no footer' "$T/g.err" || fail "compare: no cut warning: $(cat "$T/g.err")"
rc=0; A compare --format json "$T/k01.ttrace" "$T/k0.ttrace" >"$T/g.json" 2>/dev/null || rc=$?; assert_eq "$rc" 1 "exit of compare --format json k01 k0"
jq -e '.shard_check|.complete==false and .incomplete_runs==2' "$T/g.json" >/dev/null || fail "compare JSON: $(jq -c .shard_check "$T/g.json")"

# half a run is not OK for check either
"$TT_ANALYZE" check "$T/s7.ttrace" >/dev/null 2>&1 && fail "check of half a run said OK"

# --- start skew, from each header: a relative --start-at launched 400 ms
# apart (one run id) starts 400 ms apart, not "± 0"
"$TT_RECORD" "${base[@]}" --seed 7 --shard 0/2 --run-id R --start-at +1.5s -o "$T/r0.ttrace" &
p=$!
sleep 0.4
"$TT_RECORD" "${base[@]}" --seed 7 --shard 1/2 --run-id R --start-at +1.5s -o "$T/r1.ttrace" || fail "r1 exit $?"
wait "$p" || fail "r0 exit $?"
S --format json "$T/r0.ttrace" "$T/r1.ttrace" >"$T/skew.json" 2>"$T/skew.err" || fail "skew summary exit $?"
# bounded by what the bug moved: 0 before; about the launch gap (400 ms,
# less or more by how fast each process starts and parses its flags) plus
# what a loaded machine adds to starting a process
jq -e '.shards[0].start_skew_ms > 150 and .shards[0].start_skew_ms < 5000' "$T/skew.json" >/dev/null ||
    fail "skew: $(jq -c '.shards[0]|del(.shards)' "$T/skew.json")"
grep -q 'started [0-9.]* ms apart (start skew)' "$T/skew.err" || fail "no skew warning: $(cat "$T/skew.err")"
S "$T/r0.ttrace" "$T/r1.ttrace" 2>/dev/null | grepq 'start skew [0-9.]* ms' || fail "no skew in the text"
# the header says how late each woke for its instant
jq -e '.options.start_late_us|tonumber >= 0' <("$TT_ANALYZE" dump "$T/r0.ttrace" | jq -c 'select(.kind=="header")') >/dev/null ||
    fail "no start_late_us"

# --- a --server-metrics endpoint that never answers: the shards still
# start on time (before: every shard exit 3, nothing sent)
python3 "$TT_SOURCE_DIR/tests/lib/silent_server.py" "$T/silent.port" &
TT_PIDS+=($!)
wait_port_file "$T/silent.port" "$!" /dev/null "silent server"
silent="http://127.0.0.1:$(cat "$T/silent.port")/metrics"
at=$(date -u -d '+1.5 sec' +%Y-%m-%dT%H:%M:%S.%NZ)
for i in 0 1; do
    "$TT_RECORD" "${base[@]:1}" --seed 7 --shard "$i/2" --start-at "$at" --server-metrics "$silent" \
        -o "$T/m$i.ttrace" 2>"$T/m$i.err" &
    eval "pm$i=\$!"
done
wait "$pm0" || fail "shard 0 with a silent metrics endpoint: exit $? $(cat "$T/m0.err")"
wait "$pm1" || fail "shard 1 with a silent metrics endpoint: exit $? $(cat "$T/m1.err")"
grep -qE 'scrape before the run was cut at [0-9]+ ms|no scrape before the run' "$T/m0.err" ||
    fail "no warning about the scrape: $(cat "$T/m0.err")"
S "$T/m0.ttrace" "$T/m1.ttrace" >/dev/null 2>&1 || fail "the two shards are not one whole run"
# a whole run passes every other command's check too, said in JSON
A trend --format json "$T/m0.ttrace" "$T/m1.ttrace" 2>/dev/null >"$T/g.json" || fail "trend of a whole run: exit $?"
jq -e '.shard_check|.runs==1 and .one_run and .complete and .problem==null' "$T/g.json" >/dev/null ||
    fail "whole run JSON: $(jq -c .shard_check "$T/g.json")"
A trend "$T/m0.ttrace" "$T/m1.ttrace" 2>/dev/null | grepq '^shards:' && fail "trend of a whole run printed a shards line"

# --- the scheduler variables' error names the right scheduler
expect_exit 2 env SLURM_PROCID=0 "$TT_RECORD" -q -u "$URL" -m a -n 1 -o "$T/sl.ttrace" 2>"$T/sl.err"
grep -q 'SLURM_NTASKS' "$T/sl.err" || fail "slurm error: $(cat "$T/sl.err")"
! grep -q "Job's completions" "$T/sl.err" || fail "the Slurm error talks about a Kubernetes Job: $(cat "$T/sl.err")"

# --- dump numbers traces as requests does: across every input
d=$("$TT_ANALYZE" dump "$T/s7.ttrace" "$T/k0.ttrace" "$T/s8.ttrace" | jq -sc '[.[]|select(.kind=="header")|.trace]')
q=$("$TT_ANALYZE" requests --merge-anyway "$T/s7.ttrace" "$T/k0.ttrace" "$T/s8.ttrace" --format json | jq -sc '[.[]|.trace]|unique')
assert_eq "$d" "[0,1,2]" "dump's trace numbers"
assert_eq "$q" "$d" "requests' trace numbers beside dump's"
echo ok
