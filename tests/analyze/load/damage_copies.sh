#!/usr/bin/env bash
# damage_copies: damaged inputs beside whole ones, over the real-server
# fixtures (tests/data/real-server: b = tt-c4, 9 ok requests; a = err-err,
# 6 requests of which 4 failed; their own result records say so).
# 1. summary bcut b (bcut: b's first 5,000 bytes): the complete copy is
#    the one read (it read bcut and skipped b as "already read": 2
#    requests, 2 failed).
# 2. cat CUT A | summary -, for a cut zstd or plain trace followed by a
#    zstd or plain one: the reader resyncs at the second and says which
#    bytes it skipped (the cut zstd frame made it stop: 0 traces).
# 3. a skippable zstd frame, and pzstd's output (one before each frame):
#    zstd -t says OK, so check must not say DAMAGED.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
fx="$TT_SOURCE_DIR/tests/data/real-server"
zstd -dc "$fx/tt-c4.ttrace.zst" >"$T/b" || fail "zstd -d b"
zstd -dc "$fx/err-err.ttrace.zst" >"$T/a" || fail "zstd -d a"
cp "$fx/err-err.ttrace.zst" "$T/a.zst"
head -c 5000 "$T/b" >"$T/bcut"
head -c 5000 "$fx/tt-c4.ttrace.zst" >"$T/cut.zst"
# what each trace's own result records say
results() { "$TT_ANALYZE" dump "$1" | jq -s '[.[] | select(.kind == "result")] | "\(length) \(map(select(.error_kind != null)) | length)"' -r; }
read -r b_n b_failed <<<"$(results "$T/b")"
read -r a_n a_failed <<<"$(results "$T/a")"

# 1
for order in "bcut b" "b bcut"; do
    # shellcheck disable=SC2086
    (cd "$T" && "$TT_ANALYZE" summary $order) >"$T/s.txt" 2>&1 || true
    grep -q "^1 trace, $b_n requests, $b_failed failed" "$T/s.txt" ||
        fail "summary $order did not read the complete copy: $(grep '^1 trace\|^[0-9]* trace' "$T/s.txt")"
    grep -q "bcut: trace .* was already read (from b)" "$T/s.txt" ||
        fail "summary $order: the cut copy is not the one skipped: $(cat "$T/s.txt")"
done

# 2
for c in "cut.zst a.zst" "cut.zst a" "bcut a.zst" "bcut a"; do
    # shellcheck disable=SC2086
    (cd "$T" && cat $c) | "$TT_ANALYZE" summary - >"$T/s.txt" 2>&1 || true
    grep -qE "^[12] traces?, [0-9]+ requests" "$T/s.txt" || fail "cat $c: $(cat "$T/s.txt")"
    # every request of a is read (b's cut prefix adds its own, if any)
    got=$(sed -n 's/^[12] traces*, \([0-9]*\) requests, \([0-9]*\) failed.*/\1 \2/p' "$T/s.txt")
    read -r n f <<<"$got"
    [ "$n" -ge "$a_n" ] && [ "$f" -ge "$a_failed" ] || fail "cat $c lost a's requests: $got (a: $a_n, $a_failed failed)"
    grep -q "skipped" "$T/s.txt" || fail "cat $c: no word of the skipped bytes: $(cat "$T/s.txt")"
done
(cd "$T" && cat cut.zst a.zst) | "$TT_ANALYZE" summary - 2>"$T/e.txt" >/dev/null || true
grep -q "file bytes 0 to 5000 (5000 bytes) after the damaged zstd frame's start skipped" "$T/e.txt" ||
    fail "cat cut.zst a.zst: the skipped file bytes: $(cat "$T/e.txt")"

# 3
python3 - "$T/a.zst" "$T/skip.zst" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write(b"\x50\x2a\x4d\x18" + struct.pack("<I", 5) + b"hello" + d)
PY
files=("$T/skip.zst")
if command -v pzstd >/dev/null; then
    pzstd -q -p 2 -f "$T/a" -o "$T/a.pz.zst" || fail "pzstd"
    files+=("$T/a.pz.zst")
fi
for f in "${files[@]}"; do
    zstd -q -t "$f" || fail "zstd -t $f"
    "$TT_ANALYZE" check "$f" >"$T/c.txt" 2>&1 || fail "check $f: $(cat "$T/c.txt")"
    if grep -q DAMAGED "$T/c.txt"; then fail "check calls $f DAMAGED: $(cat "$T/c.txt")"; fi
    grep -q "$a_n requests, $a_n results" "$T/c.txt" || fail "check $f: $(head -1 "$T/c.txt")"
done
echo "damage_copies: ok"
