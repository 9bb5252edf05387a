#!/usr/bin/env bash
# damage_concat: `cat a b c` where a is cut at every byte (issue 12 item
# 15). The damaged a must not take b and c with it: every loading command
# reads on from the next trace header and says which bytes it skipped; b's
# and c's records read back exactly as from the intact files.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"

"$TT_GEN_TRACE" "$T/a.ttrace" 2 2 50 5
"$TT_GEN_TRACE" "$T/b.ttrace" 2 3 10 5 0 1 trace_id=bbbbbbbb
"$TT_GEN_TRACE" "$T/c.ttrace" 3 2 10 5 0 1 trace_id=cccccccc
size=$(stat -c %s "$T/a.ttrace")

# Every cut 1..size-1 of a, followed by b and c, as c/NNNNN.ttrace.
mkdir "$T/c"
python3 -c 'import sys
d = [open(f, "rb").read() for f in sys.argv[1:4]]
for k in range(1, len(d[0])):
    open("%s/%05d.ttrace" % (sys.argv[4], k), "wb").write(d[0][:k] + d[1] + d[2])' \
    "$T/a.ttrace" "$T/b.ttrace" "$T/c.ttrace" "$T/c"
files=("$T"/c/*.ttrace)
[ "${#files[@]}" -eq $((size - 1)) ] || fail "made ${#files[@]} files"

# summary: b and c whole in every file (2 and 3 requests, with footers);
# exit 1 (a is damaged, or at least incomplete).
set +e
timeout 120 "$TT_ANALYZE" summary --keep-repeated --format json "${files[@]}" >"$T/s.json" 2>"$T/s.err"
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "summary exit $rc, want 1"
bad=$(jq -r --argjson n "${#files[@]}" '
    [.traces[] | select(.trace_id == "bbbbbbbb" and .requests == 2 and .complete)] as $b
    | [.traces[] | select(.trace_id == "cccccccc" and .requests == 3 and .complete)] as $c
    | if ($b | length) != $n or ($c | length) != $n
      then "b whole in \($b | length), c in \($c | length) of \($n)" else empty end' "$T/s.json")
[ -z "$bad" ] || fail "summary: $bad"
# a cut inside a record is named, and so is what was skipped after it
grep -q ': byte [0-9]*: ' "$T/s.err" || fail "summary names no damage"
grep -qE 'bytes [0-9]+ to [0-9]+ \([0-9]+ bytes\) skipped: reading on from the next trace header' "$T/s.err" ||
    fail "summary does not say what it skipped"

# check: one verdict per file, none OK; the skip named on stdout.
set +e
timeout 120 "$TT_ANALYZE" check "${files[@]}" >"$T/check.out" 2>&1
set -e
[ "$(grep -cE ': (OK|DAMAGED|INCOMPLETE)' "$T/check.out")" -eq "${#files[@]}" ] ||
    fail "check: not one verdict per file"
grep -q ': OK$' "$T/check.out" && fail "check called a damaged concatenation OK"
grep -q 'skipped: reading on from the next trace header' "$T/check.out" ||
    fail "check does not say what it skipped"

# A sample, one file per process: dump gives b's and c's records exactly as
# the intact files do (offsets and trace numbers aside); requests lists
# their 5 requests; info, summary and requests say what was skipped.
strip='del(.offset, .trace)'
cat "$T/b.ttrace" "$T/c.ttrace" >"$T/bc.ttrace"
"$TT_ANALYZE" dump "$T/bc.ttrace" | jq -c "$strip" >"$T/bc.jsonl"
n_bc=$(wc -l <"$T/bc.jsonl")
for ((k = 1; k < size; k += 37)); do
    f=$(printf '%s/c/%05d.ttrace' "$T" "$k")
    set +e
    timeout 10 "$TT_ANALYZE" dump "$f" >"$T/d.jsonl" 2>"$T/d.err"; rc=$?
    set -e
    [ "$rc" -le 1 ] || fail "dump cut $k: exit $rc"
    jq -c "$strip" "$T/d.jsonl" | tail -n "$n_bc" | cmp -s - "$T/bc.jsonl" ||
        fail "dump cut $k: b and c differ from the intact files"
    for cmd in requests info; do
        set +e
        timeout 10 "$TT_ANALYZE" $cmd "$f" >"$T/o.txt" 2>"$T/o.err"; rc=$?
        set -e
        [ "$rc" -le 1 ] || fail "$cmd cut $k: exit $rc"
        if [ "$k" -gt 1 ]; then
            grep -qE 'skipped|inside the record before the damage' "$T/o.err" "$T/d.err" ||
                fail "$cmd cut $k: nothing says what was skipped: $(cat "$T/o.err")"
        fi
    done
    [ "$(grep -c 'bbbbbbbb\|cccccccc' <("$TT_ANALYZE" requests --format csv "$f" 2>/dev/null))" -ge 5 ] ||
        fail "requests cut $k: b's and c's requests missing"
done
echo "ok: $((size - 1)) cuts of a, each followed by b and c"
