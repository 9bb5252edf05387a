#!/usr/bin/env bash
# replay_keep_awake: the replay server's sending side keeps its CPU awake
# by default (common/keep_awake.h) and says so; poll and off serve the same
# streams and stop on SIGTERM; align=DUR puts every stream's tokens on one
# grid (in phase, the benchmark's burst rows), checked on --log-sends.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/replay_lib.sh"

stream() { curl -sN -H "X-Request-Id: $1" "$URL/v1/chat/completions" -d "$(chat_body m)"; }

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
expect_exit 2 "$TT_REPLAY" --listen 127.0.0.1:0 --synthetic tokens=1 --keep-awake never 2>"$T/bad.err"
grep -q "not spin, poll or off" "$T/bad.err" || fail "bad mode: $(cat "$T/bad.err")"
expect_exit 2 "$TT_REPLAY" --listen 127.0.0.1:0 --synthetic tokens=1 --keep-awake-cpu x 2>/dev/null

# align: streams started 7 ms apart send their tokens in the same steps of
# a 20 ms grid (equal times modulo one step), not 7 ms apart.
start_replay --synthetic 'ttft=30ms,tpot=20ms,tokens=10,align=20ms' --log-sends "$T/sends.tsv" -q
stream a >/dev/null &
a=$!
sleep 0.007
stream b >/dev/null
wait "$a"
kill -TERM "$REPLAY_PID"
wait "$REPLAY_PID" || true
for r in a b; do awk -F'\t' -v r=$r '$1 == r && $2 < 10 {print $3}' "$T/sends.tsv" >"$T/$r.t"; done
assert_eq "$(wc -l <"$T/a.t")" 10 "token writes of a"
paste "$T/a.t" "$T/b.t" | awk '{d = ($2 - $1) % 20000000; if (d < 0) d = -d
        if (d > 10000000) d = 20000000 - d; if (d > worst) worst = d}
    END {if (worst > 3000000) {print "out of phase by " worst " ns"; exit 1}}' || fail "align"
echo ok
