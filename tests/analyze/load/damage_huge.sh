#!/usr/bin/env bash
# damage_huge: records that claim absurd sizes (a 4 GiB chunk, a 4 GiB
# string, 4 billion array elements or map pairs, 60 MiB that never come, a
# million elements, nesting past the depth cap) after a valid header are
# refused quickly without allocating what they claim: each command runs
# under a 512 MiB address-space limit and 10 s, exits 1, and names the file
# and the byte where the bad record starts. Also through stdin, where a big
# record arriving in small reads must still be read in linear time.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"

"$TT_GEN_TRACE" "$T/t.ttrace" 1 1 50 5
"$TT_ANALYZE" dump "$T/t.ttrace" >"$T/full.jsonl"
H=$(jq -s '.[1].offset' "$T/full.jsonl") # the header's size
head -c "$H" "$T/t.ttrace" >"$T/header.bin"

# Each case: NAME, then the hex of the record after the header (python
# builds the files so that the big ones need not be typed).
python3 - "$T" <<'EOF'
import sys
t = sys.argv[1]
hdr = open(t + "/header.bin", "rb").read()
cases = {
    # [2, 1, 1, bin32 of 4 GiB - 1] with 3 bytes of it present
    "chunk-4gib": b"\x94\x02\x01\x01\xc6\xff\xff\xff\xff" + b"abc",
    # [3, {"body": str32 of 4 GiB - 1}]
    "string-4gib": b"\x92\x03\x81\xa4body\xdb\xff\xff\xff\xff" + b"{}",
    # [9, array32 of 4 billion elements], two present
    "array-4g": b"\x92\x09\xdd\xff\xff\xff\xff\xc0\xc0",
    # [4, map32 of 4 billion pairs]
    "map-4g": b"\x92\x04\xdf\xff\xff\xff\xff\xa1k\xc0",
    # [2, 1, 1, bin32 of 60 MiB], under the record limit but absent
    "chunk-60mib": b"\x94\x02\x01\x01\xc6\x03\xc0\x00\x00" + b"x" * 1000,
    # [9, [nil x 1.2 million]]: complete, but more nodes than a record may have
    "million-nils": b"\x92\x09\xdd\x00\x12\x4f\x80" + b"\xc0" * 1200000,
    # [9, [[[[...]]]]] nested 40 deep
    "deep": b"\x92\x09" + b"\x91" * 40 + b"\xc0",
}
for name, rec in cases.items():
    open("%s/%s.ttrace" % (t, name), "wb").write(hdr + rec)
EOF

# Under ASan the address space cannot be limited (its shadow memory needs
# terabytes of it): then only the time limit applies.
limit="ulimit -v 524288"
if ! (eval "$limit"; "$TT_ANALYZE" --help) >/dev/null 2>&1; then
    limit=":"
    echo "note: the analyzer does not start under ulimit -v (sanitizer build?): no memory limit"
fi

runs=0
for f in "$T"/*.ttrace; do
    [ "$f" = "$T/t.ttrace" ] && continue
    for cmd in check dump summary requests info check-stdin; do
        start=$(date +%s%N)
        set +e
        if [ "$cmd" = check-stdin ]; then
            (eval "$limit"; exec timeout -k 2 10 "$TT_ANALYZE" check -) <"$f" >"$T/out" 2>&1
        else
            (eval "$limit"; exec timeout -k 2 10 "$TT_ANALYZE" "$cmd" "$f") >"$T/out" 2>&1
        fi
        rc=$?
        set -e
        ms=$((($(date +%s%N) - start) / 1000000))
        name=$f
        [ "$cmd" = check-stdin ] && name="<stdin>"
        [ "$rc" -eq 1 ] || fail "$cmd on $(basename "$f"): exit $rc, want 1: $(head -c 400 "$T/out")"
        grep -qF "$name: byte $H: " "$T/out" ||
            fail "$cmd on $(basename "$f"): no '$name: byte $H: ' in: $(head -c 400 "$T/out")"
        grep -qi "out of memory\|cannot allocate" "$T/out" &&
            fail "$cmd on $(basename "$f") tried to allocate what the record claims: $(head -c 400 "$T/out")"
        [ "$ms" -lt 5000 ] || fail "$cmd on $(basename "$f") took $ms ms"
        runs=$((runs + 1))
    done
done
grep -q "claims at least" <("$TT_ANALYZE" check "$T/chunk-4gib.ttrace") ||
    fail "the 4 GiB chunk is not refused for its claimed size"

# A 32 MiB record of 32 million one-byte elements through a pipe (64 KiB
# per read): measured again only as the bytes double, it is read in about a
# second; measured at every read (quadratic) it took close to a minute.
python3 -c 'import struct, sys
n = 32 << 20
sys.stdout.buffer.write(open(sys.argv[1], "rb").read() + b"\x92\x09\xdd" +
                        struct.pack(">I", n) + b"\x00" * n)' "$T/header.bin" >"$T/many.bin"
start=$(date +%s%N)
set +e
cat "$T/many.bin" | timeout -k 2 30 "$TT_ANALYZE" check - >"$T/out" 2>&1
rc=$?
set -e
ms=$((($(date +%s%N) - start) / 1000000))
[ "$rc" -eq 1 ] || fail "32 MiB record through a pipe: exit $rc: $(head -c 300 "$T/out")"
grep -qF "<stdin>: byte $H: record has too many elements" "$T/out" ||
    fail "32 MiB record through a pipe: $(head -c 300 "$T/out")"
[ "$ms" -lt 15000 ] || fail "32 MiB record through a pipe took $ms ms (quadratic reading?)"
rm -f "$T/many.bin"
echo "ok: $runs runs refused the absurd records"
