#!/usr/bin/env bash
# analyze_summary_compact: the default summary read at a glance (issue 20,
# item 1): a header line, one row per group, the findings; every line fits
# the width (80 when not on a terminal); a row that would only repeat
# another is left out (the answer row without reasoning, the intended row in
# a closed loop); colour only on a terminal and never with NO_COLOR; the
# terminal's width is used on a terminal; --detail keeps the full block.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
G=$TT_GEN_TRACE
A=$TT_ANALYZE

# Two models with known timing: small TTFT 100 ms, TPOT 10 ms; large TTFT
# 300 ms, TPOT 20 ms; 20 tokens: latency 290 and 680 ms.
"$G" "$T/small.ttrace" 8 20 100 10 model_a=small model_b=small fail_every=4
"$G" "$T/large.ttrace" 8 20 300 20 model_a=large model_b=large trace_id=1a2e
"$A" summary "$T/small.ttrace" "$T/large.ttrace" >"$T/s.txt"
head -1 "$T/s.txt" | grepq -E '^2 traces, 16 requests, 2 failed, [0-9.]+ s, [0-9.]+ req/s, [0-9]+ tok/s$' ||
    fail "header line: $(head -1 "$T/s.txt")"
grep -qE '^  short-short +8 +25% +100 +100 +10.0 +10.0 ' "$T/s.txt" || fail "small row: $(cat "$T/s.txt")"
grep -qE '^  short-short +8 +0% +300 +300 +20.0 +20.0 +20.0 +680 +680 ' "$T/s.txt" || fail "large row: $(cat "$T/s.txt")"
grep -qx 'short-short: fastest small; large 2.3x latency, 3.0x TTFT, 2.0x TPOT' "$T/s.txt" ||
    fail "fastest/slowest finding: $(cat "$T/s.txt")"
grep -q '^failed: small / short-short: 2 of 8: http_500=2; the server said: synthetic$' "$T/s.txt" || fail "failure finding: $(cat "$T/s.txt")"
grep -q 'answer\|intended\|TTFT answer\|stream end' "$T/s.txt" && fail "rows that only repeat: $(cat "$T/s.txt")"
line=$(grep -n '^all ' "$T/s.txt" | cut -d: -f1)
[ "$line" = 5 ] || fail "the all row comes first (line $line): $(cat "$T/s.txt")"
LC_ALL=C grep -q $'\e' "$T/s.txt" && fail "colour in a pipe"

# 80 columns, even with long names (cut with "..."); 120 shows more columns.
"$G" "$T/long.ttrace" 6 20 100 10 \
    model_a=an-extremely-long-model-name-from-a-gateway-catalogue-v2-instruct model_b=m2 \
    class=a-class-name-that-is-also-rather-long
"$A" summary "$T/long.ttrace" "$T/small.ttrace" --by model,class >"$T/l.txt"
awk 'length($0) > 80 { print "line " NR " is " length($0) " wide: " $0; bad = 1 } END { exit bad }' "$T/l.txt" ||
    fail "wider than 80 columns"
grep -q '\.\.\.' "$T/l.txt" || fail "a long name is not cut: $(cat "$T/l.txt")"
COLUMNS=120 "$A" summary "$T/small.ttrace" >"$T/w.txt"
grep -q 'tokens p50' "$T/w.txt" || fail "COLUMNS=120: no token columns: $(cat "$T/w.txt")"
"$A" summary "$T/small.ttrace" --width 80 | grepq 'tokens p50' && fail "--width 80 shows the wide columns"
expect_exit 2 "$A" summary "$T/small.ttrace" --width 7 2>/dev/null

# --detail: the full block, as before.
"$A" summary "$T/small.ttrace" --detail >"$T/d.txt"
grep -q '^1 trace, 8 requests (6 ok, 2 failed)' "$T/d.txt" || fail "detail header"
grep -qE '^  TTFT answer \(ms\) ' "$T/d.txt" || fail "detail rows: $(cat "$T/d.txt")"

# Reasoning and an open loop over real HTTP: the answer row and the
# intended row appear, once each per group.
start_replay -q --synthetic 'ttft=40ms,tpot=2ms,tokens=24' --fault reasoning@think
"$TT_RECORD" -q -u "$URL" -m think -m plain -n 2 -r 20 --classes short-short -o "$T/r.ttrace"
"$A" summary "$T/r.ttrace" >"$T/r.txt" 2>/dev/null
awk '/^think/ { g = 1; next } /^[a-z]/ { g = 0 } g && /^    answer/ { n++ } END { exit n != 1 }' "$T/r.txt" ||
    fail "no answer row under the reasoning model: $(cat "$T/r.txt")"
awk '/^plain/ { g = 1; next } /^[a-z]/ { g = 0 } g && /^    answer/ { n++ } END { exit n != 0 }' "$T/r.txt" ||
    fail "an answer row for a model without reasoning: $(cat "$T/r.txt")"
grep -q '^answer: TTFT of the first answer token' "$T/r.txt" || fail "no legend for the answer row"

# Colour: on a terminal (a pty, 100 columns wide) unless NO_COLOR is set.
on_pty() {
    python3 - "$@" <<'PY'
import fcntl, os, pty, struct, sys, termios
pid, fd = pty.fork()
if pid == 0:
    # the size is set before the exec: set by the parent, it raced the
    # child's first look at it on a loaded machine (80 columns then)
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    os.execvp(sys.argv[1], sys.argv[1:])
out = b""
while True:
    try:
        d = os.read(fd, 65536)
    except OSError:
        break
    if not d:
        break
    out += d
os.waitpid(pid, 0)
sys.stdout.buffer.write(out)
PY
}
(unset NO_COLOR; TERM=xterm on_pty "$A" summary "$T/small.ttrace" "$T/large.ttrace" >"$T/tty.txt")
LC_ALL=C grep -q $'\e\\[' "$T/tty.txt" || fail "no colour on a terminal: $(cat -v "$T/tty.txt")"
grep -q 'tokens p50' "$T/tty.txt" || fail "the terminal's 100 columns are not used: $(cat -v "$T/tty.txt")"
NO_COLOR=1 TERM=xterm on_pty "$A" summary "$T/small.ttrace" >"$T/nc.txt"
LC_ALL=C grep -q $'\e' "$T/nc.txt" && fail "colour despite NO_COLOR: $(cat -v "$T/nc.txt")"
echo ok
