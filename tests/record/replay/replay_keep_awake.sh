#!/usr/bin/env bash
# replay_keep_awake: the replay server's sending side keeps its CPU awake
# by default (common/keep_awake.h) and says so; poll and off serve the same
# streams and stop on SIGTERM; align=DUR puts every stream's tokens on one
# grid (in phase, the benchmark's burst rows), checked on --log-sends.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/replay_lib.sh"

stream() { curl -sN -H "X-Request-Id: $1" "$URL/v1/chat/completions" -d "$(chat_body m)"; }

# the default, auto: spin, or off on a busy machine, saying which and why
start_replay --synthetic 'ttft=10ms,tpot=2ms,tokens=20'
grep -qE "keep-awake: auto: (spin on CPU [0-9], quiet: |off: (CPU pressure|.* tasks runnable))" "$T/replay.err" ||
    fail "auto: $(cat "$T/replay.err")"
# both notes are on stderr by the time the port file appears (they used
# to follow it, and a reader right after the port file could miss them)
for i in 1 2 3 4 5; do
    start_replay --synthetic tokens=1 --keep-awake off
    grep -q "keep-awake: off (as asked)" "$T/replay.err" || fail "start $i: no keep-awake note yet: $(cat "$T/replay.err")"
    grep -q "listening on http://127.0.0.1:$PORT" "$T/replay.err" || fail "start $i: no listening note yet"
    kill -TERM "$REPLAY_PID"
    wait "$REPLAY_PID" || fail "start $i: exit $?"
done
for mode in spin poll off; do
    start_replay --synthetic 'ttft=10ms,tpot=2ms,tokens=20' --keep-awake "$mode"
    case $mode in
    off) grep -q "keep-awake: off (as asked)" "$T/replay.err" || fail "off: $(cat "$T/replay.err")" ;;
    *) grep -q "keep-awake: $mode on CPU [0-9]" "$T/replay.err" || fail "$mode: $(cat "$T/replay.err")" ;;
    esac
    assert_eq "$(stream "$mode" | grep -c '^data: ')" 23 "$mode: events of one stream"
    # SIGTERM ends it within a second in every mode (poll: between passes)
    kill -TERM "$REPLAY_PID"
    for _ in $(seq 1 20); do kill -0 "$REPLAY_PID" 2>/dev/null || break; sleep 0.05; done
    ! kill -0 "$REPLAY_PID" 2>/dev/null || fail "$mode: still running 1 s after SIGTERM"
    wait "$REPLAY_PID" || fail "$mode: exit $?"
done
# idle, nothing spins (issue 29: an idle server burnt 30-50 % of a CPU):
# after a stream ended, 2 s of the server's utime + stime (/proc/PID/stat)
# stay under 10 % of a CPU in the default and in spin and poll; a stream
# after the idle spell is served as before
hz=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
for mode in auto spin poll; do
    start_replay --synthetic 'ttft=10ms,tpot=2ms,tokens=20' --keep-awake "$mode"
    stream "idle-$mode" >/dev/null
    sleep 0.3
    t0=$(cpu_ticks "$REPLAY_PID")
    sleep 2
    used=$(($(cpu_ticks "$REPLAY_PID") - t0))
    [ $((used * 100)) -lt $((hz * 2 * 10)) ] ||
        fail "$mode: an idle replay server used $used ticks of $((hz * 2)) in 2 s"
    assert_eq "$(stream "again-$mode" | grep -c '^data: ')" 23 "$mode: a stream after idling"
    kill -TERM "$REPLAY_PID"
    wait "$REPLAY_PID" || fail "$mode: exit $?"
done
expect_exit 2 "$TT_REPLAY" --listen 127.0.0.1:0 --synthetic tokens=1 --keep-awake never 2>"$T/bad.err"
grep -q "not auto, spin, poll or off" "$T/bad.err" || fail "bad mode: $(cat "$T/bad.err")"
expect_exit 2 "$TT_REPLAY" --listen 127.0.0.1:0 --synthetic tokens=1 --keep-awake-cpu x 2>/dev/null

# align: two streams started apart send their tokens in the same steps of
# a 20 ms grid: b's token writes are next to a's (the same loop turn, or
# the next when the machine is loaded: median within 1 ms), not 7 ms or
# more away as without align.
start_replay --synthetic 'ttft=30ms,tpot=20ms,tokens=30,align=20ms' --log-sends "$T/sends.tsv" -q
stream a >/dev/null &
a=$!
sleep 0.007
stream b >/dev/null
wait "$a"
kill -TERM "$REPLAY_PID"
wait "$REPLAY_PID" || true
for r in a b; do awk -F'\t' -v r=$r '$1 == r && $2 < 30 {print $3}' "$T/sends.tsv" >"$T/$r.t"; done
assert_eq "$(wc -l <"$T/a.t")" 30 "token writes of a"
awk 'NR == FNR {a[n++] = $1; next}
    $1 <= a[n - 1] {best = -1
        for (i = 0; i < n; i++) {d = $1 - a[i]; if (d < 0) d = -d; if (best < 0 || d < best) best = d}
        print best}' "$T/a.t" "$T/b.t" | sort -n >"$T/near.txt"
pairs=$(wc -l <"$T/near.txt")
[ "$pairs" -ge 5 ] || fail "only $pairs writes of b overlap a"
median=$(awk -v n="$pairs" 'NR == int((n + 1) / 2) {print $1}' "$T/near.txt")
[ "$median" -le 1000000 ] || fail "align: b's writes are a median $median ns from a's"
echo ok
