#!/usr/bin/env bash
# check and format version 2: every record's checksum is verified; a byte
# changed inside a chunk's text is named as damage with its record (version
# 1 reads it as text); records that contradict each other with matching
# checksums are told apart from damage; check and share print the file's
# SHA-256, the one sha256sum prints; the recorder writes version 2, or 1
# on request.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
A=$TT_ANALYZE

"$TT_GEN_TRACE" "$T/v2.ttrace" 3 4 10 5 version=2
"$TT_GEN_TRACE" "$T/v1.ttrace" 3 4 10 5
"$A" check "$T/v2.ttrace" >"$T/v2.out" || fail "v2: $(cat "$T/v2.out")"
grep -qE '^.*v2.ttrace: checksums: all [0-9]+ records of version 2 match$' "$T/v2.out" || fail "v2 checksums: $(cat "$T/v2.out")"
assert_eq "$(sed -n 's/.*: sha256 \([0-9a-f]*\) .*/\1/p' "$T/v2.out")" "$(sha256sum "$T/v2.ttrace" | cut -d' ' -f1)" "check's sha256"
"$A" check "$T/v1.ttrace" >"$T/v1.out" || fail "v1"
grep -qF 'checksums: none (format version 1' "$T/v1.out" || fail "v1 checksums: $(cat "$T/v1.out")"

# flip(IN OUT): a byte inside the first chunk's text changed ("content" -> "cpntent")
flip() { python3 - "$1" "$2" <<'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
i = d.index(b'"content"', d.index(b'data: '))
d[i + 2] ^= 1
open(sys.argv[2], "wb").write(d)
PY
}
flip "$T/v2.ttrace" "$T/v2-flip.ttrace"
expect_exit 1 "$A" check "$T/v2-flip.ttrace" >"$T/f2.out"
grep -qE 'DAMAGED: .*v2-flip.ttrace: byte [0-9]+: record [0-9]+ \(a chunk of request 1\): checksum mismatch: its bytes changed after it was written' "$T/f2.out" ||
    fail "flip in v2: $(cat "$T/f2.out")"
grep -qF 'damage, not a misread' "$T/f2.out" || fail "flip verdict"
expect_exit 1 "$A" summary "$T/v2-flip.ttrace" >/dev/null 2>"$T/f2.err"
grep -qF 'checksum mismatch' "$T/f2.err" || fail "summary names the damage: $(cat "$T/f2.err")"
flip "$T/v1.ttrace" "$T/v1-flip.ttrace"
"$A" check "$T/v1-flip.ttrace" >/dev/null || fail "version 1 cannot see a changed text byte (documented)"

# a whole chunk record removed: every checksum still matches, the records
# contradict each other: the verdict says it is not damage to the bytes
drop() { "$A" dump "$1" >"$1.jsonl"; python3 - "$1" "$2" "$1.jsonl" <<'PY'
import json, sys
d = open(sys.argv[1], "rb").read()
recs = [json.loads(l) for l in open(sys.argv[3])]
ends = [r["offset"] for r in recs[1:]] + [len(d)]
i = [i for i, r in enumerate(recs) if r["kind"] == "chunk"][1]
open(sys.argv[2], "wb").write(d[:recs[i]["offset"]] + d[ends[i]:])
PY
}
drop "$T/v2.ttrace" "$T/v2-drop.ttrace"
expect_exit 1 "$A" check "$T/v2-drop.ttrace" >"$T/d2.out"
grep -qF 'the records contradict each other' "$T/d2.out" || fail "drop v2: $(cat "$T/d2.out")"
grep -qF "every record's checksum matches: the bytes are as they were written" "$T/d2.out" || fail "drop v2 verdict: $(cat "$T/d2.out")"
drop "$T/v1.ttrace" "$T/v1-drop.ttrace"
expect_exit 1 "$A" check "$T/v1-drop.ttrace" >"$T/d1.out"
grep -qF 'format version 1 has no checksums' "$T/d1.out" || fail "drop v1 verdict: $(cat "$T/d1.out")"

# share prints the SHA-256 of what it wrote
"$A" share "$T/v1.ttrace" -o "$T/s.ttrace" >"$T/share.out" || fail "share"
assert_eq "$(sed -n 's/^sha256 of the shared trace: \([0-9a-f]*\) .*/\1/p' "$T/share.out")" \
    "$(sha256sum "$T/s.ttrace" | cut -d' ' -f1)" "share's sha256"
assert_eq "$("$A" dump "$T/s.ttrace" | sed -n 1p | jq .version)" 2 "share writes version 2"
"$A" share "$T/v2.ttrace" -o "$T/s1.ttrace" --format-version 1 >/dev/null || fail "share v1"
assert_eq "$("$A" dump "$T/s1.ttrace" | sed -n 1p | jq .version)" 1 "share --format-version 1"
expect_exit 2 "$A" share "$T/v2.ttrace" -o "$T/s3.ttrace" --format-version 3 2>/dev/null

# the recorder: version 2 by default, 1 on request, nothing else
start_replay --synthetic 'ttft=5ms,tpot=1ms,tokens=5'
"$TT_RECORD" -q -u "$URL" -m m -n 1 --classes short-short -o "$T/r2.ttrace" || fail "record"
assert_eq "$("$A" dump "$T/r2.ttrace" | sed -n 1p | jq .version)" 2 "recorder's default version"
"$TT_RECORD" -q -u "$URL" -m m -n 1 --classes short-short --format-version 1 -o "$T/r1.ttrace" || fail "record v1"
assert_eq "$("$A" dump "$T/r1.ttrace" | sed -n 1p | jq .version)" 1 "--format-version 1"
"$A" check "$T/r1.ttrace" | grepq -F 'checksums: none' || fail "recorded v1 has no checksums"
expect_exit 2 "$TT_RECORD" -q -u "$URL" -m m --format-version 3 -o "$T/r3.ttrace" 2>/dev/null
echo ok
