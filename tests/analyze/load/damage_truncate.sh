#!/usr/bin/env bash
# damage_truncate: a small real trace cut at every byte, fed to
# `tokentrace-analyze check`, `dump`, `summary`, `requests`, `trend`,
# `compare`, `info` (and `plot` when built): never a crash or hang, a cut
# inside a record is named by file and "byte N" (N = where that record
# starts), and every record before the cut is still read: dump prints
# exactly those, summary counts their requests.
# Every cut goes through one batched run per command (the commands take many
# files); a sample of cuts also runs one file per process, where the exit
# code must be 0 or 1 within 10 s.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"

"$TT_GEN_TRACE" "$T/t.ttrace" 2 2 50 5
size=$(stat -c %s "$T/t.ttrace")
"$TT_ANALYZE" dump "$T/t.ttrace" >"$T/full.jsonl"
mapfile -t starts < <(jq '.offset' "$T/full.jsonl")
mapfile -t kinds < <(jq -r '.kind' "$T/full.jsonl")
nrec=${#starts[@]}
[ "$nrec" -ge 10 ] || fail "expected a dozen records, got $nrec"
starts+=("$size")

# Every cut 0..size-1 as its own file, c/NNNNN.ttrace.
mkdir "$T/c"
python3 -c 'import sys
d = open(sys.argv[1], "rb").read()
for c in range(len(d)):
    open("%s/%05d.ttrace" % (sys.argv[2], c), "wb").write(d[:c])' "$T/t.ttrace" "$T/c"
files=("$T"/c/*.ttrace)
[ "${#files[@]}" -eq "$size" ] || fail "made ${#files[@]} cut files, want $size"

# Per cut: k (records wholly before it), the damage byte ("-" at a record
# boundary), requests and results wholly before it.
reqs=(0) ress=(0) # requests / results among the first j records
for ((j = 0; j < nrec; j++)); do
    nq=${reqs[j]} ns=${ress[j]}
    [ "${kinds[j]}" = request ] && nq=$((nq + 1))
    [ "${kinds[j]}" = result ] && ns=$((ns + 1))
    reqs+=("$nq")
    ress+=("$ns")
done
k=0
for ((cut = 0; cut < size; cut++)); do
    while [ "${starts[k + 1]}" -le "$cut" ]; do k=$((k + 1)); done
    dmg=-
    [ "$cut" -gt "${starts[k]}" ] && dmg=${starts[k]}
    printf '%s\t%d\t%s\t%d\t%d\n' "${files[cut]}" "$k" "$dmg" "${reqs[k]}" "${ress[k]}"
done >"$T/expect.tsv"

# bounded RCS CMD...: runs CMD (120 s limit), fails unless it exits with one
# of the codes in RCS ("1", "01"); signals (>= 128) and hangs (124) fail.
bounded() {
    local rcs=$1; shift
    set +e; timeout -k 5 120 "$@"; local rc=$?; set -e
    [[ "$rcs" == *"$rc"* ]] || fail "exit $rc (want one of $rcs): ${*:1:3} ..."
}

# check: one verdict line per file; damaged cuts name "FILE: byte N".
bounded 1 "$TT_ANALYZE" check "${files[@]}" >"$T/check.out" 2>"$T/check.err"
awk '/: (OK|DAMAGED|INCOMPLETE)/ {
        f = $1; sub(/:$/, "", f); v = "-"
        if (match($0, f ": byte [0-9]+: ")) {
            v = substr($0, RSTART + length(f) + 7, RLENGTH - length(f) - 9)
        }
        print f "\t" v }' "$T/check.out" >"$T/check.got"
cut -f1,3 "$T/expect.tsv" >"$T/check.want"
diff "$T/check.want" "$T/check.got" >"$T/check.diff" ||
    fail "check verdicts differ (want/got): $(head -20 "$T/check.diff")"
grep -q ': OK$' "$T/check.out" && fail "a cut trace was called OK"

# dump: the records before each cut, exactly, in order; one error per
# damaged cut naming it.
bounded 1 "$TT_ANALYZE" dump "${files[@]}" >"$T/dump.out" 2>"$T/dump.err"
# dump numbers the traces across its inputs; each file holds (a cut of)
# the one trace of t.ttrace, number 0 in the full dump
sed -i -E 's/^(\{"kind":"[a-z_]+","trace":)[0-9]+,/\10,/' "$T/dump.out"
awk -F'\t' 'NR == FNR { l[FNR] = $0; next } { for (i = 1; i <= $2; i++) print l[i] }' \
    "$T/full.jsonl" "$T/expect.tsv" >"$T/dump.want"
cmp -s "$T/dump.want" "$T/dump.out" ||
    fail "dump of the cuts differs from the prefixes of the full dump"
awk -F'\t' '$3 != "-" { print $1 ": byte " $3 ": " }' "$T/expect.tsv" >"$T/dump.errwant"
grep -oE "$T/c/[0-9]+\.ttrace: byte [0-9]+: " "$T/dump.err" >"$T/dump.errgot" || true
diff "$T/dump.errwant" "$T/dump.errgot" >/dev/null ||
    fail "dump errors do not name each damaged cut: $(diff "$T/dump.errwant" "$T/dump.errgot" | head)"

# summary: one trace per cut that kept its header, with the damage named,
# the requests before the cut, and the ok ones (results before the cut).
bounded 01 "$TT_ANALYZE" summary --keep-repeated "${files[@]}" --format json >"$T/sum.json" 2>"$T/sum.err"
jq -r '.traces[] | [.file, (.damage // "-"), .requests] | @tsv' "$T/sum.json" |
    awk -F'\t' '{ d = "-"; if (match($2, ": byte [0-9]+: ")) d = substr($2, RSTART + 7, RLENGTH - 9)
                  print $1 "\t" d "\t" $3 }' >"$T/sum.got"
awk -F'\t' '$2 > 0 { print $1 "\t" $3 "\t" $4 }' "$T/expect.tsv" >"$T/sum.want"
diff "$T/sum.want" "$T/sum.got" >"$T/sum.diff" ||
    fail "summary traces differ (want/got): $(head -20 "$T/sum.diff")"
ok_want=$(awk -F'\t' '{ s += $5 } END { print s }' "$T/expect.tsv")
assert_eq "$(jq '.overall.ok' "$T/sum.json")" "$ok_want" "ok requests over all cuts"

# requests, trend, compare (against the intact trace) and plot (when
# built) over every cut: no crash, no hang.
bounded 01 "$TT_ANALYZE" requests --keep-repeated "${files[@]}" >"$T/req.out" 2>"$T/req.err"
bounded 01 "$TT_ANALYZE" trend --keep-repeated "${files[@]}" >"$T/trend.out" 2>"$T/trend.err"
bounded 01 "$TT_ANALYZE" compare "$T/t.ttrace" "${files[@]}" >"$T/cmp.out" 2>"$T/cmp.err"
[ "$(grep -c . "$T/req.out")" -gt 1 ] || fail "requests printed no rows for the cuts"
has_plot=0
"$TT_ANALYZE" plot --help >/dev/null 2>&1 && has_plot=1
if [ "$has_plot" -eq 1 ]; then
    bounded 01 "$TT_ANALYZE" plot --keep-repeated "${files[@]}" -o "$T/plot-all" >"$T/plot.out" 2>"$T/plot.err"
fi

# One file per process, for a sample of cuts (every 199th, and one byte past
# each record boundary): exit 0 or 1 within 10 s, damage named. plot (slow:
# gnuplot) runs one byte past every third boundary.
sample=()
for ((cut = 0; cut < size; cut += 199)); do sample+=("$cut"); done
for ((i = 0; i < nrec; i++)); do sample+=($((starts[i] + 1))); done
runs=0
for cut in "${sample[@]}"; do
    [ "$cut" -lt "$size" ] || continue
    IFS=$'\t' read -r f k dmg _ < <(sed -n "$((cut + 1))p" "$T/expect.tsv")
    cmds=(check dump summary info)
    if [ "$has_plot" -eq 1 ] && [ "$cut" -eq $((starts[k] + 1)) ] && [ $((k % 3)) -eq 0 ]; then
        cmds+=(plot)
    fi
    for cmd in "${cmds[@]}"; do
        args=("$f")
        [ "$cmd" = plot ] && { rm -rf "$T/plot"; args+=(-o "$T/plot"); }
        limit=10 # seconds; plot runs gnuplot six times: more on a busy machine
        [ "$cmd" = plot ] && limit=60
        set +e
        timeout -k 2 "$limit" "$TT_ANALYZE" "$cmd" "${args[@]}" >"$T/one.out" 2>"$T/one.err"
        rc=$?
        set -e
        [ "$rc" -le 1 ] || fail "$cmd exit $rc (crash or hang) at cut $cut: $(head -c 300 "$T/one.err")"
        if [ "$dmg" != - ] && { [ "$cmd" = check ] || [ "$cmd" = dump ] || [ "$k" -gt 0 ]; }; then
            grep -qF "$f: byte $dmg: " "$T/one.out" "$T/one.err" ||
                fail "$cmd at cut $cut does not name '$f: byte $dmg'"
        fi
        runs=$((runs + 1))
    done
done
echo "ok: all $size cuts of a $nrec-record trace batched; $runs single runs (plot=$has_plot)"
