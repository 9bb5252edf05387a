#!/usr/bin/env bash
# replay_timing: synthetic timing as a client sees it (generous bounds) and
# as the server's --log-sends ground truth records it (absolute schedule),
# ttft_per_1k, seeded jitter, and that the log counts every chunk write.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/replay_lib.sh"

start_replay --synthetic 'ttft=200ms,tpot=20ms,tokens=20;model=long,ttft=0,tpot=1ms,tokens=1,ttft_per_1k=500ms;model=jit,ttft=10ms,tpot=20ms,tokens=30,jitter=0.5' \
    --log-sends "$T/sends.tsv"

# Client view: TTFT 200 ms + 19 x 20 ms = 580 ms in total.
t=$(curl -sN -o "$T/body" -w '%{time_total}' -H 'X-Request-Id: timed' \
    "$URL/v1/chat/completions" -d "$(chat_body m)")
awk -v t="$t" 'BEGIN {exit !(t >= 0.55 && t <= 2.5)}' || fail "stream took ${t}s, want 0.55..2.5"

# Ground truth: one log line per chunk write (20 tokens, finish, usage,
# [DONE]), seq 0.., cumulative bytes ending at the body size.
sends_of "$T/sends.tsv" timed 23 >"$T/timed.tsv"
assert_eq "$(count_lines <"$T/timed.tsv")" 23 "logged writes"
assert_eq "$(grep -c '^data: ' "$T/body")" 23 "received events"
assert_eq "$(cut -f2 "$T/timed.tsv" | tr '\n' ' ')" "$(seq 0 22 | tr '\n' ' ')" "chunk seqs"
assert_eq "$(tail -n 1 "$T/timed.tsv" | cut -f5)" "$(stat -c %s "$T/body")" "cumulative bytes"
awk -F'\t' '{s += $4} END {print s}' "$T/timed.tsv" >"$T/sum"
assert_eq "$(cat "$T/sum")" "$(stat -c %s "$T/body")" "sum of logged bytes"
# Token i left at first + i x 20 ms: an absolute schedule, no drift. A
# loaded machine wakes the server late now and then (a send 45 ms late,
# the next ones back on time), so no single send is held to a bound; the
# schedule is judged by its best sends: the least late send of tokens
# 10-19 is as late as the least late of tokens 0-9, within -2..+3 ms. A
# schedule that drifts (each gap counted from the send before), or a tpot
# off by 0.5 ms, moves the second half's best by 5 ms or more.
awk -F'\t' 'NR == 1 {t0 = $3} NR <= 20 {
        late = ($3 - t0) / 1e6 - (NR - 1) * 20
        if (NR <= 10 && (NR == 1 || late < b1)) b1 = late
        if (NR > 10 && (NR == 11 || late < b2)) b2 = late
        if (late > worst) worst = late }
    END {printf "best lateness: tokens 0-9 %.2f ms, 10-19 %.2f ms; worst %.2f ms\n", b1, b2, worst
        exit !(b2 - b1 >= -2 && b2 - b1 <= 3 && worst < 1000)}' \
    "$T/timed.tsv" >"$T/schedule" || fail "schedule: $(cat "$T/schedule")"

# ttft_per_1k: 8000 prompt chars = 2000 tokens = +1 s of TTFT.
long=$(printf 'x%.0s' $(seq 1 8000))
t=$(curl -sN -o /dev/null -w '%{time_total}' "$URL/v1/chat/completions" \
    -d '{"model":"long","stream":true,"messages":[{"role":"user","content":"'"$long"'"}]}')
awk -v t="$t" 'BEGIN {exit !(t >= 0.95 && t <= 2.5)}' || fail "long prompt took ${t}s, want ~1 s"
t=$(curl -sN -o /dev/null -w '%{time_total}' "$URL/v1/chat/completions" \
    -d '{"model":"long","stream":true,"messages":[{"role":"user","content":"short"}]}')
awk -v t="$t" 'BEGIN {exit !(t < 0.9)}' || fail "short prompt took ${t}s"

# jitter=0.5: gaps vary (some below 17 ms, some above 23 ms) and, the
# schedule being absolute, the mean stays tpot: a send delayed by a busy
# machine shortens the next gap instead of pushing every later token back.
# No upper bound on one gap: a loaded CI machine can delay any single send.
curl -sN -o /dev/null -H 'X-Request-Id: jit' "$URL/v1/chat/completions" \
    -d '{"model":"jit","stream":true}'
sends_of "$T/sends.tsv" jit 32 | awk -F'\t' 'NR > 1 && NR <= 30 {
        g = ($3 - prev) / 1e6; if (g < min || min == "") min = g; if (g > max) max = g }
    NR <= 30 {prev = $3; if (NR == 1) t0 = $3; tn = $3}
    END {mean = (tn - t0) / 1e6 / 29
        printf "min %.1f max %.1f mean %.1f\n", min, max, mean
        exit !(min >= 0 && min < 17 && max > 23 && mean > 18 && mean < 26)}' \
    >"$T/jit" || fail "jitter: $(cat "$T/jit")"
echo "replay_timing: ok"
