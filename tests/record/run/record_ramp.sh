#!/usr/bin/env bash
# --ramp and --burstiness end to end: an open loop's constant schedule
# through the ramp's time change (arrival i at sqrt(2 D i / R) during the
# ramp, i / R + D / 2 after); a closed loop lets one more request join
# every D / N; a sweep's stage record carries the ramp and capacity counts
# its requests as ramp-up; --burstiness is in the header and needs a
# Poisson open loop.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

start_replay --synthetic 'ttft=300ms,tpot=5ms,tokens=5'

"$TT_RECORD" -q -u "$URL" -m a --classes short-short -r 40 --arrival constant \
    --ramp 1s -n 30 -o "$T/o.ttrace" || fail "open-loop ramp exit $?"
d=$(dump "$T/o.ttrace")
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.options.ramp_s')" 1 "ramp option"
# offsets in ms (rounded): i = 0, 1, 5, 19 in the ramp, 20 and 29 after
want=$(awk 'BEGIN{n=split("0 1 5 19 20 29",i," "); for(k=1;k<=n;k++){t=i[k]/40; v=(t<0.5)?sqrt(2*t):t+0.5; printf "%s%d", (k>1?",":""), int(v*1000+0.5)}}')
assert_eq "$(jqs "$d" '(.[]|select(.kind=="header")|.mono_zero_ns) as $z
    | [.[]|select(.kind=="request")]|sort_by(.id)|[.[0,1,5,19,20,29]|(.scheduled_ns - $z)/1000000|round]|map(tostring)|join(",")')" \
    "$want" "ramped schedule"

# closed loop: 4 in flight reached over 0.8 s, one more every 200 ms
"$TT_RECORD" -q -u "$URL" -m a --classes short-short -c 4 --ramp 0.8s -n 12 \
    -o "$T/c.ttrace" || fail "closed-loop ramp exit $?"
d=$(dump "$T/c.ttrace")
# in flight at each start never above 1 + floor(4 t / 0.8 s); 4 reached
inflight() {
    jqs "$d" '(.[]|select(.kind=="header")|.mono_zero_ns) as $z
        | (map(select(.kind=="result"))|map({key:(.id|tostring),value:.end_ns})|from_entries) as $fin
        | [.[]|select(.kind=="request")] as $s
        | [$s[]|.start_ns as $t
           | {n:([$s[]|select(.start_ns <= $t and $fin[.id|tostring] > $t)]|length),
              allowed:([4, 1 + (($t - $z) * 4 / 800000000 | floor)]|min)}]'
}
assert_eq "$(inflight | jq -r 'map(.n <= .allowed)|all')" true "ramp respected"
assert_eq "$(inflight | jq -r 'map(.n)|max')" 4 "concurrency reached"
assert_eq "$(jqs "$d" '(.[]|select(.kind=="header")|.mono_zero_ns) as $z
    | [.[]|select(.kind=="request")]|sort_by(.id)|(.[1].start_ns - $z) >= 200000000')" true "the second waits for its step"

# a sweep: each stage ramps, its record says so, capacity leaves the ramp out
"$TT_RECORD" -q -u "$URL" -m a --classes short-short --sweep rate=10,20 \
    --arrival constant --ramp 0.5s --duration 1s -o "$T/s.ttrace" || fail "ramped sweep exit $?"
d=$(dump "$T/s.ttrace")
assert_eq "$(jqs "$d" '[.[]|select(.kind=="stage")|.ramp_ns]|map(tostring)|join(",")')" \
    "500000000,500000000,500000000,500000000" "stage records carry the ramp"
"$TT_ANALYZE" capacity "$T/s.ttrace" --slo ttft=1s --max-send-lag 1s \
    --max-loop-lag-share 1000% --max-cpu 100% --format json >"$T/s.json" || fail "capacity exit $?"
# at least the sends of the ramp's 0.5 s are ramp-up (rate 20: t < 0.5 s
# is i < 20 x 0.25 = 5 sends)
assert_eq "$(jq -r '.stages[1].transient >= 5' "$T/s.json")" true "ramp-up left out"

# bursty arrivals
"$TT_RECORD" -q -u "$URL" -m a --classes short-short -r 50 --burstiness 0.25 \
    -n 20 -o "$T/b.ttrace" || fail "bursty run exit $?"
d=$(dump "$T/b.ttrace")
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.options|"\(.burstiness) \(.arrival)"')" "0.25 poisson" "burstiness option"
expect_exit 2 "$TT_RECORD" -u "$URL" -m a --burstiness 0.5 2>"$T/e"
grep -q "burstiness shapes Poisson arrivals" "$T/e" || fail "closed-loop burstiness: $(cat "$T/e")"
expect_exit 2 "$TT_RECORD" -u "$URL" -m a -r 2 --arrival constant --burstiness 2 2>"$T/e"
grep -q "burstiness shapes Poisson arrivals" "$T/e" || fail "constant burstiness"
expect_exit 2 "$TT_RECORD" -u "$URL" -m a -r 2 --burstiness 0 2>"$T/e"
grep -q "is not a gamma shape" "$T/e" || fail "burstiness 0"
expect_exit 2 "$TT_RECORD" -u "$URL" -m a --ramp soon 2>"$T/e"
grep -q "ramp: 'soon'" "$T/e" || fail "bad ramp"
echo ok
