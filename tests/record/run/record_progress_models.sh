#!/usr/bin/env bash
# The progress line with two models of very different speed (issue 32):
# its TTFT p50 is each model's, "TTFT p50 fast 40 ms, slow 300 ms", not
# one p50 of both (before: one histogram for the run, a p50 of either
# model or between them); the line stays within COLUMNS - 1 at 80, and
# with more models than fit it names the ones cut by count ("+2 more").
# One replay server with a per-model profile (docs/replay.md).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"

start_replay --synthetic 'ttft=20ms,tpot=1ms,tokens=4;model=slow,ttft=300ms,tpot=1ms,tokens=4'

# progress_lines FILE: the lines drawn ("\r"-separated, the erase cut)
progress_lines() { tr '\r' '\n' <"$1" | sed 's/\x1b\[K//' | grep ' done, '; }

COLUMNS=80 "$TT_RECORD" -u "$URL" -m fast -m slow -n 3 --classes short-short -c 2 \
    --progress always -o "$T/two.ttrace" 2>"$T/two.err" || fail "record: $(cat "$T/two.err")"
last=$(progress_lines "$T/two.err" | tail -n 1)
echo "final line: $last"
fast=$(sed -n 's/.*TTFT p50 fast \([0-9]*\) ms, slow [0-9]* ms.*/\1/p' <<<"$last")
slow=$(sed -n 's/.*TTFT p50 fast [0-9]* ms, slow \([0-9]*\) ms.*/\1/p' <<<"$last")
[ -n "$fast" ] && [ -n "$slow" ] || fail "no TTFT p50 per model: $last"
# bounds the mixing moves: one p50 of both would put fast at 300 or slow at 20
[ "$fast" -lt 150 ] || fail "fast's TTFT p50 $fast ms: slow's requests in it"
[ "$slow" -ge 250 ] || fail "slow's TTFT p50 $slow ms: fast's requests in it"
progress_lines "$T/two.err" | awk '{ if (length($0) > 79) bad = 1 } END { exit bad }' ||
    fail "a line wider than 79: $(progress_lines "$T/two.err")"

# four models at 80 columns: as many as fit, the rest counted
COLUMNS=80 "$TT_RECORD" -u "$URL" -m fast -m slow -m third-model -m fourth-model -n 2 \
    --classes short-short -c 2 --progress always -o "$T/four.ttrace" 2>"$T/four.err" ||
    fail "record four: $(cat "$T/four.err")"
last=$(progress_lines "$T/four.err" | tail -n 1)
echo "final line: $last"
grepq -E 'TTFT p50 fast [0-9]+ ms, slow [0-9]+ ms, \+2 more' <<<"$last" ||
    fail "the models cut are not counted: $last"
progress_lines "$T/four.err" | awk '{ if (length($0) > 79) bad = 1 } END { exit bad }' ||
    fail "a line wider than 79: $(progress_lines "$T/four.err")"

# one model: the line as before
COLUMNS=80 "$TT_RECORD" -u "$URL" -m fast -n 2 --classes short-short --progress always \
    -o "$T/one.ttrace" 2>"$T/one.err" || fail "record one"
progress_lines "$T/one.err" | tail -n 1 | grepq -E ', TTFT p50 [0-9]+ ms, ' ||
    fail "one model: $(progress_lines "$T/one.err")"
echo PASS
