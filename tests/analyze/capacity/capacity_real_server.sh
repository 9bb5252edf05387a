#!/usr/bin/env bash
# capacity_real_server: capacity over a real llama-server sweep
# (tests/data/real-server/cap-sweep.ttrace.zst: 4 slots, concurrency
# 1,2,4,8, kernel chunk times). The recorder's loop lag was above 10% of
# the ITL in every stage, which marked every stage INVALID and left no
# knee, though kernel times do not carry that lag (only reads merged
# would). The knee is tied to the server's own account in the trace: up
# to 4 in flight a request waits for no slot, so TTFT stays within a few
# ms of the server's timings.prompt_ms; at 8 it queues behind a slot, and
# TTFT − prompt_ms grows by more than a whole decode (predicted_ms).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
fx="$TT_SOURCE_DIR/tests/data/real-server/cap-sweep.ttrace.zst"
"$TT_ANALYZE" capacity "$fx" --slo ttft=500ms --format json >"$T/c.json" || fail "capacity exit"
assert_eq "$(jq -r '[.stages[]|.valid]|map(tostring)|join(",")' "$T/c.json")" \
    "true,true,true,true" "every stage valid (kernel times)"
assert_eq "$(jq -r '[.stages[]|.recorder.kernel_times]|all' "$T/c.json")" true "kernel times"
"$TT_ANALYZE" requests "$fx" --format json >"$T/r.jsonl" || fail "requests exit"
# per stage: median of TTFT - prompt_ms (the wait outside the server's
# prompt work) and of predicted_ms (a whole decode)
jq -rs 'group_by(.stage) | map(
    (map(.ttft_ms - .server_prompt_ms) | sort | .[length/2|floor]) as $wait |
    (map(.server_decode_ms) | sort | .[length/2|floor]) as $decode |
    "\(.[0].stage) \($wait) \($decode)") | .[]' "$T/r.jsonl" >"$T/waits"
cat "$T/waits"
# stages 1..3 (1, 2, 4 in flight): no queue; stage 4 (8): a slot's decode
awk 'NR <= 3 && $2 > 0.25 * $3 {bad = 1} NR == 4 && $2 < $3 {bad = 1} END {exit bad}' "$T/waits" ||
    fail "the server's own timings do not show the queue past 4 slots: $(cat "$T/waits")"
# the knee is the last stage without a queue, whatever TTFT SLO sits
# between the two: half the 4-slot stage's TTFT p99 plus 8's p50
slo=$(jq -r '(.stages[2].ttft_ms.p99 + .stages[3].ttft_ms.p50) / 2 | floor' "$T/c.json")
"$TT_ANALYZE" capacity "$fx" --slo "ttft=${slo}ms" --format json >"$T/k.json" || fail "capacity exit"
assert_eq "$(jq -r '.knee.name' "$T/k.json")" "concurrency=4" "the knee (SLO ttft=${slo}ms)"
# summary --by stage leaves each stage's ramp-up and drain out of its
# tables, but the server's counters count every request: its block
# compares with every request's output (the trace's own usage), not with
# the steady-state share (it printed 3264 against the server's 4096)
all=$(jq -s 'map(.usage_output_tokens // 0) | add' "$T/r.jsonl")
n=$(jq -s 'length' "$T/r.jsonl")
"$TT_ANALYZE" summary "$fx" --by stage >"$T/s.txt" 2>&1 || fail "summary --by stage"
grep -q "generated $all | client output $all (every request" "$T/s.txt" ||
    fail "server block tokens are not like with like ($all): $(grep -A1 'requests ' "$T/s.txt")"
grep -q "client measured $n (" "$T/s.txt" || fail "server block requests: $(grep 'requests ' "$T/s.txt")"
echo "capacity_real_server: ok"
