#!/usr/bin/env bash
# capacity: a sweep against the replay server's capacity model finds its
# knee within one step. 4 decode slots held 50 + 19 x 5 = 145 ms each: up
# to 4 in flight nothing waits (TTFT 50 ms), 8 in flight wait about a
# slot (TTFT ~190 ms); at a constant 20 requests/s the slots keep up
# (4 / 0.145 s = 27.6/s), at 40/s the queue grows. With TTFT <= 150 ms (95%)
# the knee is concurrency 4 and rate 20. A recorder stopped for 0.6 s in
# the middle of a rate stage (SIGSTOP: an overloaded client) makes that
# stage invalid with the reason, and it is left out of the knee. The JSON
# is for CI; -o draws the chart (gnuplot) with the knee marked.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"

start_replay --synthetic 'ttft=50ms,tpot=5ms,tokens=20,capacity=4'
# this machine may be loaded (tests run in parallel): the checks of the
# recorder's own lateness and CPU are relaxed here; the SIGSTOP case is
# far beyond them
RELAX=(--max-send-lag 200ms --max-loop-lag-share 1000% --max-cpu 100%)

"$TT_RECORD" -q -u "$URL" -m m --classes short-short --sweep concurrency=1,2,4,8 \
    --duration 1.2 -o "$T/c.ttrace" || fail "concurrency sweep exit $?"
"$TT_ANALYZE" capacity "$T/c.ttrace" --slo ttft=150ms --attain 95% "${RELAX[@]}" --format json \
    >"$T/c.json" || fail "capacity exit $?"
jq -e . "$T/c.json" >/dev/null || fail "capacity JSON does not parse"
assert_eq "$(jq -r '[.stages[]|.name]|join(",")' "$T/c.json")" \
    "concurrency=1,concurrency=2,concurrency=4,concurrency=8" "stages"
assert_eq "$(jq -r '[.stages[]|.pass]|map(tostring)|join(",")' "$T/c.json")" \
    "true,true,true,false" "verdicts"
assert_eq "$(jq -r '.knee.load' "$T/c.json")" 4 "concurrency knee"
assert_eq "$(jq -r '.knee.load_ci95|map(tostring)|join(",")' "$T/c.json")" "4,4" "knee interval"
# steady state only: every stage left its ramp-up out, and the window holds
# enough requests to judge
assert_eq "$(jq -r '[.stages[]|(.transient >= 1 and .steady >= 3)]|all' "$T/c.json")" true "steady windows"
# past the knee the queue shows in TTFT p50, and goodput falls to nothing
assert_eq "$(jq -r '.stages[3].ttft_ms.p50 > 150 and .stages[2].ttft_ms.p50 < 100' "$T/c.json")" true "queueing TTFT"
assert_eq "$(jq -r '.stages[3].goodput_rps < .stages[2].goodput_rps' "$T/c.json")" true "goodput past the knee"

# the table says the same, and -o writes the chart's script and data
"$TT_ANALYZE" capacity "$T/c.ttrace" --slo ttft=150ms --attain 95% "${RELAX[@]}" -o "$T/chart" \
    >"$T/c.txt" 2>"$T/c.err" || fail "capacity table exit $?: $(cat "$T/c.err")"
grep -q '^knee: concurrency=4 is the highest load meeting the SLO' "$T/c.txt" || fail "table knee: $(cat "$T/c.txt")"
grep -q 'concurrency=8 .* BREAKS' "$T/c.txt" || fail "table verdict"
[ -s "$T/chart/capacity.gp" ] && [ -s "$T/chart/capacity.dat" ] || fail "no chart script or data"
grep -q 'knee_load = 4' "$T/chart/capacity.gp" || fail "knee not marked in the chart"
if command -v gnuplot >/dev/null; then
    [ -s "$T/chart/capacity.png" ] || fail "gnuplot did not draw the chart"
fi

# a limit no recorder meets: every stage invalid, no knee, and it says why
"$TT_ANALYZE" capacity "$T/c.ttrace" --slo ttft=120ms --max-loop-lag-share 0.00001% \
    --max-send-lag 200ms --max-cpu 100% >"$T/none.txt" || fail "capacity (no valid) exit $?"
grep -q '^knee: none: no valid stage: the recorder limited every one' "$T/none.txt" ||
    fail "no-valid message: $(cat "$T/none.txt")"
assert_eq "$(grep -c '^invalid: concurrency=' "$T/none.txt")" 4 "every stage named invalid"

# a rate sweep, constant arrivals
"$TT_RECORD" -q -u "$URL" -m m --classes short-short --sweep rate=10,20,40 \
    --arrival constant --duration 1.2 -o "$T/r.ttrace" || fail "rate sweep exit $?"
# (80%: the open loop's TTFT counts from the intended send, so a late
# send on a loaded machine counts against the stage)
"$TT_ANALYZE" capacity "$T/r.ttrace" --slo ttft=150ms --attain 80% "${RELAX[@]}" --format json \
    >"$T/r.json" || fail "capacity (rate) exit $?"
assert_eq "$(jq -r '[.stages[]|.pass]|map(tostring)|join(",")' "$T/r.json")" "true,true,false" "rate verdicts"
assert_eq "$(jq -r '.knee.name' "$T/r.json")" "rate=20" "rate knee"
# the achieved rate follows the offered one below the knee
assert_eq "$(jq -r '.stages[1].achieved_rps > 16 and .stages[1].achieved_rps < 24' "$T/r.json")" true "achieved rate"

# an overloaded recorder: stopped for 0.6 s during the second stage of a
# light sweep; every request it owed in the meantime goes out late
"$TT_RECORD" -q -u "$URL" -m m --classes short-short --sweep rate=10,12 \
    --arrival constant --duration 1.5 -o "$T/o.ttrace" &
rec=$!
sleep 2.2
kill -STOP "$rec"
sleep 0.6
kill -CONT "$rec"
wait "$rec" || fail "overloaded sweep exit $?"
"$TT_ANALYZE" capacity "$T/o.ttrace" --slo ttft=150ms --attain 95% "${RELAX[@]}" --format json \
    >"$T/o.json" || fail "capacity (overloaded) exit $?"
assert_eq "$(jq -r '[.stages[]|.valid]|map(tostring)|join(",")' "$T/o.json")" "true,false" "invalid stage"
jq -r '.stages[1].invalid_reason' "$T/o.json" | grep -q 'recorder send lag p99' ||
    fail "reason: $(jq -r '.stages[1].invalid_reason' "$T/o.json")"
assert_eq "$(jq -r '.knee.name' "$T/o.json")" "rate=10" "knee without the invalid stage"
"$TT_ANALYZE" capacity "$T/o.ttrace" --slo ttft=150ms --attain 95% "${RELAX[@]}" | grep -q '^invalid: rate=12: recorder send lag' ||
    fail "table does not say the stage is invalid"

# usage: --slo is required, bad values are named
expect_exit 2 "$TT_ANALYZE" capacity "$T/c.ttrace" 2>"$T/u.err"
grep -q 'capacity needs --slo' "$T/u.err" || fail "no --slo message"
expect_exit 2 "$TT_ANALYZE" capacity "$T/c.ttrace" --slo ttft=1s --attain 150% 2>"$T/u.err"
grep -q "attain: '150%'" "$T/u.err" || fail "bad --attain message"
echo ok
