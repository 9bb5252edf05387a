#!/usr/bin/env bash
# --sweep: stages in one trace. A closed-loop sweep runs each stage's
# concurrency in turn (stage id on every request, a stage record when each
# begins and ends, stages that do not overlap, never more in flight than
# the stage's load); against a replay server with 2 decode slots the third
# stage (4 in flight) queues, so its TTFT grows. A rate sweep with -c
# keeps each stage's schedule from its own start and records the requests
# the in-flight cap held (cap_released_ns). `summary --by stage` names the
# stages by load.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

# one stream holds a slot 50 + 9 x 5..8 ms, about 100 ms
start_replay --synthetic 'ttft=50ms,tpot=5ms,tokens=10,capacity=2,batch_tpot=1ms'

"$TT_RECORD" -q -u "$URL" -m a --classes short-short --sweep concurrency=1,2,4 \
    -n 8 --warmup 1 -o "$T/c.ttrace" || fail "concurrency sweep exit $?"
d=$(dump "$T/c.ttrace")
check_complete "$d" 25
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.options|"\(.sweep) \(.loop)"')" \
    "concurrency=1,2,4 closed" "header options"
# 8 measured requests a stage (the warmup one in the first)
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request" and (.warmup|not))]|group_by(.stage)|map("\(.[0].stage):\(length)")|join(",")')" \
    "1:8,2:8,3:8" "requests per stage"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request" and .warmup)|.stage]|join(",")')" "1" "warmup in stage 1"
# a begin and an end record per stage, with the load
assert_eq "$(jqs "$d" '[.[]|select(.kind=="stage")|"\(.id):\(.mode)=\(.load):\(.end_ns > 0)"]|join(",")')" \
    "1:concurrency=1:false,1:concurrency=1:true,2:concurrency=2:false,2:concurrency=2:true,3:concurrency=4:false,3:concurrency=4:true" \
    "stage records"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="stage" and .end_ns > 0)|.sent]|join(",")')" "9,8,8" "sends per stage"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="stage" and .end_ns > 0)|(.cpu_ns >= 0 and .loop_lag_samples >= 0)]|all')" \
    true "recorder facts per stage"
# stages do not overlap: every request of stage k ends before stage k+1's
# first start
assert_eq "$(jqs "$d" '
    (map(select(.kind=="result"))|map({key:(.id|tostring),value:.end_ns})|from_entries) as $fin
    | [.[]|select(.kind=="request")]|group_by(.stage)
    | [range(1;length) as $i | ((.[$i-1]|map($fin[.id|tostring])|max) <= (.[$i]|map(.start_ns)|min))]|all')" \
    true "stages in sequence"
# never more in flight than the stage's concurrency
assert_eq "$(jqs "$d" '
    (map(select(.kind=="result"))|map({key:(.id|tostring),value:.end_ns})|from_entries) as $fin
    | [.[]|select(.kind=="request")]|group_by(.stage)
    | map(. as $s | [$s[]|.start_ns as $t | [$s[]|select(.start_ns <= $t and $fin[.id|tostring] > $t)]|length]|max)
    | map(tostring)|join(",")')" "1,2,4" "most in flight per stage"
# the queue at 4 in flight on 2 slots: TTFT p50 well above the first stage's
"$TT_ANALYZE" summary "$T/c.ttrace" --by stage --format json >"$T/c.json" 2>/dev/null ||
    fail "summary --by stage exit $?"
assert_eq "$(jq -r '[.groups[]|.stage]|join(",")' "$T/c.json")" \
    "concurrency=1 #1,concurrency=2 #2,concurrency=4 #3" "stage groups in load order"
assert_eq "$(jq -r '(.groups[2].ttft_ms.p50 - .groups[0].ttft_ms.p50) > 50' "$T/c.json")" true \
    "TTFT grows once the slots are full"

# a rate sweep with a cap of 1 in flight: each stage's constant schedule
# counts from its own start; the ones the cap held say when it let them go
"$TT_RECORD" -q -u "$URL" -m a --classes short-short --sweep rate=20,40 \
    --arrival constant -c 1 --duration 0.4 -o "$T/r.ttrace" || fail "rate sweep exit $?"
d=$(dump "$T/r.ttrace")
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.options|"\(.sweep) \(.loop) \(.concurrency_cap)"')" \
    "rate=20,40 open 1" "rate options"
assert_eq "$(jqs "$d" '
    (map(select(.kind=="stage" and .end_ns < 0))|map({key:(.id|tostring),value:.start_ns})|from_entries) as $st
    | [.[]|select(.kind=="request")]|group_by(.stage)
    | map((.[0].stage) as $k | sort_by(.scheduled_ns) | [.[].scheduled_ns - $st[$k|tostring]] | .[0:3] | map(. / 1000000 | round | tostring) | join(" "))
    | join(",")')" "0 50 100,0 25 50" "stage schedules"
held=$(jqs "$d" '[.[]|select(.kind=="request" and .cap_released_ns != null)]|length')
[ "$held" -ge 3 ] || fail "only $held requests held by the cap of 1"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request" and .cap_released_ns != null)|(.cap_released_ns > .scheduled_ns and .start_ns >= .cap_released_ns)]|all')" \
    true "released after due, started after release"
assert_eq "$(jqs "$d" '
    (map(select(.kind=="result"))|map({key:(.id|tostring),value:.end_ns})|from_entries) as $fin
    | [.[]|select(.kind=="request")] as $s
    | [$s[]|.start_ns as $t | [$s[]|select(.start_ns <= $t and $fin[.id|tostring] > $t)]|length]|max')" \
    1 "the cap held"
echo ok
