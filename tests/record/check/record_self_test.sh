#!/usr/bin/env bash
# --self-test: the recorder measures its own limits against the local
# tokentrace-replay it starts (real HTTP): one row per step of the rate
# sweep with streams in flight, chunks/s, send lag p99 and event-loop lag
# p99, each judged against 1 ms consistently with the numbers it prints,
# and a verdict naming the heaviest step that held (or saying none did).
# A heavy last step must not pass the verdict on to a lighter one that
# broke. Flags it does not take are usage errors; it leaves no files.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"

before=$(find /tmp -maxdepth 1 -name 'tokentrace-self-test.*' | wc -l)
set +e
"$TT_RECORD" --self-test --sweep rate=4,8,2000 --duration 0.4 >"$T/out" 2>"$T/err"
rc=$?
set -e
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || fail "exit $rc: $(cat "$T/err")"
grep -q '^self-test: tokentrace-record against tokentrace-replay on 127.0.0.1, 0.4 per step' "$T/out" ||
    fail "title: $(cat "$T/out")"
python3 - "$T/out" "$rc" <<'PY' || fail "self-test table: $(cat "$T/out")"
import re, sys
text = open(sys.argv[1]).read()
rows = [l.split() for l in text.splitlines() if re.match(r"^\s+[0-9]", l)]
assert [r[0] for r in rows] == ["4", "8", "2000"], rows
held = []
for r in rows:
    streams, chunks, lag, loop = float(r[1]), float(r[2]), float(r[3]), r[4]
    assert streams > 0 and chunks > 0, r
    ok = lag <= 1.0 and loop != "-" and float(loop) <= 1.0
    verdict = r[6]
    # the verdict follows the numbers (a failed request also breaks)
    assert verdict in ("holds", "BREAKS"), r
    if verdict == "holds":
        assert ok, r
    held.append(verdict == "holds")
verdict = [l for l in text.splitlines() if l.startswith("verdict:")]
assert len(verdict) == 1, text
best = 0
while best < len(held) and held[best]:
    best += 1
if best == 0:
    assert sys.argv[2] == "1" and "even the lightest step broke" in verdict[0], text
else:
    assert sys.argv[2] == "0", text
    want = rows[best - 1][0]
    assert verdict[0].startswith("verdict: this machine's recorder holds %s requests/s" % want), (verdict, want)
PY
after=$(find /tmp -maxdepth 1 -name 'tokentrace-self-test.*' | wc -l)
[ "$after" -le "$before" ] || fail "left a directory in /tmp"
expect_exit 2 "$TT_RECORD" --self-test -n 5 2>/dev/null
echo ok
