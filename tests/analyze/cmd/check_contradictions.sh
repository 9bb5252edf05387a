#!/usr/bin/env bash
# check_contradictions: traces whose records all decode but contradict each
# other (issue 12 item 14): a deleted chunk, a repeated request or result
# record, a footer claiming 10^9 requests. `check` must say DAMAGED, exit 1,
# and name what and where (the byte offset of the record that disagrees).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"

"$TT_GEN_TRACE" "$T/t.ttrace" 2 3 10 5
"$TT_ANALYZE" check "$T/t.ttrace" >"$T/ok.out" || fail "intact trace: $(cat "$T/ok.out")"
"$TT_ANALYZE" dump "$T/t.ttrace" >"$T/t.jsonl"

# edit.py MODE IN OUT: the trace with one record deleted, doubled or changed
# (offsets from the dump); prints the byte offset check must name.
cat >"$T/edit.py" <<'PY'
import json, sys
mode, src, out, dump = sys.argv[1:5]
d = open(src, "rb").read()
recs = [json.loads(l) for l in open(dump)]
ends = [r["offset"] for r in recs[1:]] + [len(d)]
span = {i: (r["offset"], ends[i]) for i, r in enumerate(recs)}
def first(kind, **kw):
    return next(i for i, r in enumerate(recs)
                if r["kind"] == kind and all(r.get(k) == v for k, v in kw.items()))
if mode == "drop-chunk":   # the 2nd chunk of request 1 vanishes
    i = [i for i, r in enumerate(recs) if r["kind"] == "chunk" and r["request_id"] == 1][1]
    a, b = span[i]
    res = first("result", id=1)
    print(span[res][0] - (b - a))
    d = d[:a] + d[b:]
elif mode in ("dup-request", "dup-result"):
    i = first(mode[4:], id=2)
    a, b = span[i]
    print(b)  # the copy starts where the original ends
    d = d[:b] + d[a:b] + d[b:]
elif mode == "footer-1e9":
    a, b = span[len(recs) - 1]
    rec = d[a:b]
    k = rec.index(b"\xa8requests") + 9
    assert rec[k] < 0x80  # a positive fixint
    rec = rec[:k] + b"\xce" + (10**9).to_bytes(4, "big") + rec[k + 1:]
    print(a)
    d = d[:a] + rec
open(out, "wb").write(d)
PY

for mode in drop-chunk dup-request dup-result footer-1e9; do
    at=$(python3 "$T/edit.py" "$mode" "$T/t.ttrace" "$T/$mode.ttrace" "$T/t.jsonl")
    set +e; "$TT_ANALYZE" check "$T/$mode.ttrace" >"$T/$mode.out" 2>&1; rc=$?; set -e
    [ "$rc" -eq 1 ] || fail "$mode: exit $rc, want 1: $(cat "$T/$mode.out")"
    grep -q ": DAMAGED: the records contradict each other" "$T/$mode.out" ||
        fail "$mode: no DAMAGED verdict: $(cat "$T/$mode.out")"
    case $mode in
    drop-chunk) what="the result of request 1 says 4 chunks .*; the trace holds 3" ;;
    dup-request) what="a second request record for id 2" ;;
    dup-result) what="a second result record for request 2" ;;
    footer-1e9) what="the footer says 1000000000 requests .*; the trace holds 2" ;;
    esac
    grep -qE "$T/$mode.ttrace: byte $at: $what" "$T/$mode.out" ||
        fail "$mode: want 'byte $at: $what', got: $(cat "$T/$mode.out")"
done
echo "ok: four self-contradicting traces are DAMAGED, each named by byte"
