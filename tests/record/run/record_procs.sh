#!/usr/bin/env bash
# --procs P: P local shards (the recorder again, fork + exec) from one
# start instant, one run id, their traces joined into -o FILE in shard
# order (no part file left); together they keep the global schedule; a
# --shard of several hosts splits further; Ctrl-C reaches every child once;
# what cannot work is refused.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

start_replay --synthetic 'ttft=20ms,tpot=2ms,tokens=4'
"$TT_RECORD" -q -u "$URL" -m a -n 20 --classes short-short -r 40 --arrival constant \
    --procs 2 -o "$T/p.ttrace" || fail "procs exit $?"
ls "$T"/p.ttrace.part* 2>/dev/null && fail "part files left"
d=$(dump "$T/p.ttrace")
assert_eq "$(count "$d" header),$(count "$d" footer),$(count "$d" request)" "2,2,20" "two traces, 20 requests"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="header")|.options|"\(.shard) \(.shard_from)"]|join(",")')" \
    "0/2 --procs,1/2 --procs" "the shards, in order"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="header")|.options.run_id]|unique|length')" 1 "one run id"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="header")|.options.start_at]|unique|length')" 1 "one start instant"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="header")|.trace_id]|unique|length')" 2 "distinct trace ids"
# one host, one clock: the same start instant maps to one monotonic zero
assert_eq "$(jqs "$d" '[.[]|select(.kind=="header")|.mono_zero_ns]|(max-min) < 1000000')" true "shared monotonic zero"
# the global schedule: 25 ms apart, 0 .. 475 ms
assert_eq "$(jqs "$d" '[.[]|select(.kind=="header")|.mono_zero_ns][0] as $z | [.[]|select(.kind=="request")|((.scheduled_ns - $z) / 1000000 | round)]|sort|map(tostring)|join(",")')" \
    "$(seq 0 25 475 | paste -sd,)" "scheduled offsets"
"$TT_ANALYZE" summary --format json "$T/p.ttrace" | jq -e '.overall.requests==20 and .shards[0].complete' >/dev/null ||
    fail "summary of the joined trace"

# host shard 1/2 with --procs 2: shards 1/4 and 3/4, its half of the load
"$TT_RECORD" -q -u "$URL" -m a -n 8 --classes short-short -r 40 --shard 1/2 --procs 2 \
    -o "$T/h.ttrace" || fail "host shard exit $?"
d=$(dump "$T/h.ttrace")
assert_eq "$(jqs "$d" '[.[]|select(.kind=="header")|.options.shard]|join(",")'),$(count "$d" request)" "1/4,3/4,4" "host shard split"

# refused: stdout, a concurrency too small to split, an existing file
expect_exit 2 "$TT_RECORD" -q -u "$URL" -m a -n 2 -r 10 --procs 2 -o -
expect_exit 2 "$TT_RECORD" -q -u "$URL" -m a -n 2 -c 1 --procs 2 -o "$T/x.ttrace"
expect_exit 2 "$TT_RECORD" -q -u "$URL" -m a -n 2 -c 2 --procs 2 -o "$T/p.ttrace"

# SIGINT to the parent: each child stops once (a clean footer each), 130
"$TT_RECORD" -q -u "$URL" -m a -n 200 --classes short-short -r 10 --arrival constant \
    --procs 2 -o "$T/int.ttrace" &
pid=$!
sleep 2.5
kill -INT "$pid"
set +e; wait "$pid"; rc=$?; set -e
assert_eq "$rc" 130 "exit after SIGINT"
d=$(dump "$T/int.ttrace")
assert_eq "$(jqs "$d" '[.[]|select(.kind=="footer")|.reason]|join(",")')" "signal,signal" "both children stopped cleanly"
# a closed loop's -c 3 over two children: 2 + 1, and the requests follow
# the lanes (2/3 and 1/3), so the children end together and the run
# sends at one process's rate (before: 15 + 15 requests, the c=1 child
# ended last and the rate was about 0.68 of one process's)
start_replay --synthetic 'ttft=40ms,tpot=5ms,tokens=5'
closed=(-q -u "$URL" -m a -n 60 --classes short-short -c 3)
"$TT_RECORD" "${closed[@]}" -o "$T/c1.ttrace" || fail "one process exit $?"
"$TT_RECORD" "${closed[@]}" --procs 2 -o "$T/c2.ttrace" || fail "procs -c 3 exit $?"
"$TT_ANALYZE" summary --format json "$T/c1.ttrace" >"$T/c1.json" || fail "summary one"
"$TT_ANALYZE" summary --format json "$T/c2.ttrace" >"$T/c2.json" || fail "summary procs"
assert_eq "$(jq -c '[.shards[0].shards[]|.requests]' "$T/c2.json")" "[40,20]" "requests per child"
jq -e -n --slurpfile a "$T/c1.json" --slurpfile b "$T/c2.json" \
    '$b[0].overall.req_per_s > 0.85 * $a[0].overall.req_per_s' >/dev/null ||
    fail "--procs 2 -c 3: $(jq .overall.req_per_s "$T/c2.json") req/s against $(jq .overall.req_per_s "$T/c1.json") for one process"
echo ok
