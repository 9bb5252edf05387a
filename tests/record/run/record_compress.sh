#!/usr/bin/env bash
# Compressed recording: -o NAME.zst (or --compress, also to stdout) writes
# independent zstd frames that every reader takes, from a file or stdin; a
# recorder killed with SIGKILL loses at most its last frame (what is left
# checks as intact, no footer or a cut tail, never malformed); compressed
# and plain traces concatenate; the numbers equal the plain recording's.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"
A=$TT_ANALYZE

start_replay --synthetic 'ttft=5ms,tpot=1ms,tokens=120'
"$TT_RECORD" -q -u "$URL" -m a -n 2 -c 4 -o "$T/a.ttrace.zst" || fail "record .zst"
assert_eq "$(head -c 4 "$T/a.ttrace.zst" | od -An -tx1 | tr -d ' ')" 28b52ffd "zstd magic"
"$A" check "$T/a.ttrace.zst" >"$T/check.txt" || fail "check: $(cat "$T/check.txt")"
d=$(dump "$T/a.ttrace.zst")
check_complete "$d" 6
# --compress to stdout, read from stdin
"$TT_RECORD" -q -u "$URL" -m a -n 2 -c 4 --compress -o - >"$T/s.zst" || fail "record --compress -o -"
assert_eq "$(head -c 4 "$T/s.zst" | od -An -tx1 | tr -d ' ')" 28b52ffd "zstd magic on stdout"
"$A" summary --format json - <"$T/s.zst" | jq -e '.overall.ok == 6' >/dev/null || fail "summary from stdin"
# plain and compressed concatenate in either order
"$TT_RECORD" -q -u "$URL" -m b -n 1 -c 4 -o "$T/p.ttrace" || fail "record plain"
cat "$T/a.ttrace.zst" "$T/p.ttrace" "$T/s.zst" | "$A" check - >"$T/cat.txt" || fail "cat check: $(cat "$T/cat.txt")"
grep -q '3 traces, 15 requests' "$T/cat.txt" || fail "concatenation: $(cat "$T/cat.txt")"
cat "$T/p.ttrace" "$T/a.ttrace.zst" | "$A" summary --format json - | jq -e '.traces|length == 2' >/dev/null ||
    fail "plain then compressed"
# the same through a pipe that delivers each file apart (a read ends
# exactly at the plain trace's end): the frame is still seen
{ cat "$T/p.ttrace"; sleep 0.3; cat "$T/a.ttrace.zst"; } | "$A" summary --format json - |
    jq -e '.traces|length == 2' >/dev/null || fail "plain then compressed, the pipe split between them"
# the same numbers as the decompressed bytes give
if command -v zstd >/dev/null; then
    zstd -q -d -c "$T/a.ttrace.zst" >"$T/a.plain"
    "$A" summary --format json "$T/a.plain" | jq -S 'del(.traces[].file)' >"$T/1.json"
    "$A" summary --format json "$T/a.ttrace.zst" | jq -S 'del(.traces[].file)' >"$T/2.json"
    cmp -s "$T/1.json" "$T/2.json" || fail "compressed and decompressed summaries differ"
fi
# share keeps compression with a .zst name
"$A" share "$T/a.ttrace.zst" -o "$T/shared.ttrace.zst" >/dev/null || fail "share .zst"
assert_eq "$(head -c 4 "$T/shared.ttrace.zst" | od -An -tx1 | tr -d ' ')" 28b52ffd "shared copy compressed"

# SIGKILL at any moment: only the last frame's records may be lost
start_replay --synthetic 'ttft=5ms,tpot=2ms,tokens=300,jitter=0.5'
for delay in 0 0.3 0.7; do
    out="$T/kill-$delay.ttrace.zst"
    "$TT_RECORD" -q -u "$URL" -m a -m b -n 1000 -c 6 -o "$out" &
    pid=$!
    for _ in $(seq 600); do
        [ "$(stat -c %s "$out" 2>/dev/null || echo 0)" -ge 2048 ] && break
        sleep 0.05
    done
    sleep "$delay"
    kill -9 "$pid"
    set +e; wait "$pid" 2>/dev/null; "$A" check "$out" >"$out.check" 2>&1; rc=$?; set -e
    [ "$rc" -eq 1 ] || fail "kill after $delay s: check exit $rc: $(cat "$out.check")"
    grep -qE "tail was cut|INCOMPLETE: no footer" "$out.check" ||
        fail "kill after $delay s: damaged, not just cut: $(cat "$out.check")"
    grep -qiE "malformed|not an array|zstd frame at file byte [0-9]+ is damaged" "$out.check" &&
        fail "kill after $delay s: misread: $(cat "$out.check")"
    set +e; "$A" dump "$out" >"$out.jsonl" 2>/dev/null; set -e
    assert_eq "$(count "$out.jsonl" header)" 1 "kill after $delay s: header"
    [ "$(count "$out.jsonl" chunk)" -ge 10 ] || fail "kill after $delay s: chunks missing"
done
echo ok
