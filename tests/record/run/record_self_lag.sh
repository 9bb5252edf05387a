#!/usr/bin/env bash
# record_self_lag: every recording carries the recorder's own event-loop
# lateness in its footer, sampled every 50 ms (record/run/self_lag.h), and
# summary reports it (table and JSON) and warns when it is large against the
# ITL for hand-over chunk times (--chunk-time user; kernel chunk times do
# not carry the loop's lateness: record_kernel_time).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"

start_replay --synthetic 'ttft=30ms,tpot=10ms,tokens=60'
"$TT_RECORD" -q -u "$URL" -m m -n 2 -c 2 --classes short-short --chunk-time user -o "$T/t.ttrace"
"$TT_ANALYZE" dump "$T/t.ttrace" | jq -c 'select(.kind=="footer")' >"$T/footer.json"
"$TT_ANALYZE" dump "$T/t.ttrace" | jq -c 'select(.kind=="header")' >"$T/header.json"
n=$(jq '.loop_lag_samples' "$T/footer.json")
# One sample per wake-up of a 50 ms timer over the run (~0.65 s): never more
# than the expiries, and not far fewer unless the loop was blocked for long.
run_ns=$(( $(jq '.end_ns' "$T/footer.json") - $(jq '.mono_zero_ns' "$T/header.json") ))
most=$(( run_ns / 50000000 + 1 ))
[ "$n" -le "$most" ] || fail "$n self-lag samples in $run_ns ns: more than one per 50 ms"
[ "$n" -ge $(( most / 2 )) ] || fail "too few self-lag samples: $n in $run_ns ns"
jq -e '.loop_lag_p50_ns >= 0 and .loop_lag_p99_ns >= .loop_lag_p50_ns and .loop_lag_max_ns >= .loop_lag_p99_ns' \
    "$T/footer.json" >/dev/null || fail "self-lag percentiles out of order: $(cat "$T/footer.json")"

"$TT_ANALYZE" summary "$T/t.ttrace" --detail >"$T/table.txt" 2>/dev/null
grep -q "recorder self-check: event loop woke late by p50" "$T/table.txt" || fail "no self-check line"
"$TT_ANALYZE" summary "$T/t.ttrace" 2>/dev/null | sed -n 1p | grepq -E "self-check (ok|failed)$" ||
    fail "no self-check verdict in the compact header"
"$TT_ANALYZE" summary "$T/t.ttrace" --format json 2>/dev/null >"$T/s.json"
assert_eq "$(jq '.traces[0].recorder_loop_lag_ms.n' "$T/s.json")" "$n" "JSON self-lag samples"

# A recorder that is frozen (SIGSTOP) for 60 ms at a time wakes far later
# than 10% of a 10 ms ITL: summary must say the numbers describe the client.
"$TT_RECORD" -q -u "$URL" -m m -n 3 -c 3 --classes short-short --chunk-time user -o "$T/late.ttrace" &
rp=$!
for _ in 1 2 3 4 5 6; do sleep 0.05; kill -STOP "$rp" 2>/dev/null || true; sleep 0.06; kill -CONT "$rp" 2>/dev/null || true; done
wait "$rp"
"$TT_ANALYZE" summary "$T/late.ttrace" >/dev/null 2>"$T/late.err"
grep -q "over 10% of its own ITL p50" "$T/late.err" || fail "no warning for a late recorder: $(cat "$T/late.err")"
echo "ok: $n samples"
