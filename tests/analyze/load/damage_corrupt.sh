#!/usr/bin/env bash
# damage_corrupt: a small real trace with one byte corrupted (every 7th
# byte set to 0xff, 0xc1 (never valid msgpack), 0x00, or its bits flipped)
# fed to `tokentrace-analyze check`, `dump`, `summary`, `requests`, `trend`,
# `compare`, `info` (and `plot` when built): never a crash or hang; every
# file gets a verdict; a damage report names the file and a "byte N" inside
# it; the records before the corrupted one are all read back, unchanged.
# All variants go through one batched run per command (the commands take
# many files); a sample also runs one file per process (exit 0 or 1 in 10 s).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"

"$TT_GEN_TRACE" "$T/t.ttrace" 2 2 50 5
size=$(stat -c %s "$T/t.ttrace")
"$TT_ANALYZE" dump "$T/t.ttrace" >"$T/full.jsonl"
mapfile -t starts < <(jq '.offset' "$T/full.jsonl")
nrec=${#starts[@]}
[ "$nrec" -ge 10 ] || fail "expected a dozen records, got $nrec"
starts+=("$size")

# v/PPPPP-K.ttrace: byte P changed by way K (0: 0xff, 1: 0xc1, 2: 0x00,
# 3: flipped); a variant equal to the original is skipped.
mkdir "$T/v"
python3 -c 'import sys
d = open(sys.argv[1], "rb").read()
for p in range(0, len(d), 7):
    for k, b in enumerate((0xff, 0xc1, 0x00, d[p] ^ 0xff)):
        if b != d[p]:
            open("%s/%05d-%d.ttrace" % (sys.argv[2], p, k), "wb").write(
                d[:p] + bytes([b]) + d[p + 1:])' "$T/t.ttrace" "$T/v"
files=("$T"/v/*.ttrace)
nfiles=${#files[@]}
[ "$nfiles" -gt $((size / 7 * 3)) ] || fail "only $nfiles variants"

# bounded CMD...: runs CMD (120 s limit); fails on a signal, a hang or an exit
# code other than 0 or 1.
bounded() {
    set +e; timeout -k 5 120 "$@"; local rc=$?; set -e
    [ "$rc" -le 1 ] || fail "exit $rc (crash, hang or usage error): ${*:1:2} ..."
}

# Per variant: r = index of the record holding the corrupted byte.
k=0
for f in "${files[@]}"; do
    b=${f##*/}
    p=$((10#${b%%-*}))
    while [ "${starts[k + 1]}" -le "$p" ]; do k=$((k + 1)); done
    printf '%s\t%d\t%d\n' "$f" "$p" "$k"
done >"$T/expect.tsv"

# check: a verdict per file, damage named inside the file ("DAMAGED" without
# a byte is a consistency finding, e.g. a chunk of an unknown request, over
# records that all read), and at least the records before the corrupted one
# read ("N records" is what was read).
bounded "$TT_ANALYZE" check "${files[@]}" >"$T/check.out" 2>"$T/check.err"
awk -v size="$size" '
    / records: / { f = $1; sub(/:$/, "", f); n[f] = $2 + 0; next }
    /: (OK|DAMAGED|INCOMPLETE)/ {
        f = $1; sub(/:$/, "", f); d = "-"
        if ($0 ~ /: DAMAGED: / && match($0, f ": byte [0-9]+: ")) {
            d = substr($0, RSTART + length(f) + 7, RLENGTH - length(f) - 9) + 0
            if (d >= size) { print f "\tOUTSIDE " d; next }
        }
        print f "\t" n[f] "\t" d }' "$T/check.out" >"$T/check.got"
[ "$(wc -l <"$T/check.got")" -eq "$nfiles" ] ||
    fail "check gave $(wc -l <"$T/check.got") verdicts for $nfiles files"
bad=$(awk -F'\t' 'NR == FNR { r[$1] = $3; next }
    $2 !~ /^[0-9]+$/ || $2 < r[$1] { print; exit }' "$T/expect.tsv" "$T/check.got")
[ -z "$bad" ] || fail "check: damage outside the file, or records lost before it: $bad"

# dump: split the batched output by the record counts check reported; the
# records before the corrupted one are the original ones, byte for byte.
bounded "$TT_ANALYZE" dump "${files[@]}" >"$T/dump.out" 2>"$T/dump.err"
# dump numbers the traces across its inputs; each file holds (a cut of)
# the one trace of t.ttrace, number 0 in the full dump
sed -i -E 's/^(\{"kind":"[a-z_]+","trace":)[0-9]+,/\10,/' "$T/dump.out"
bad=$(awk -F'\t' '
    FILENAME == ARGV[1] { l[FNR] = $0; next }
    FILENAME == ARGV[2] { r[$1] = $3; next }
    FILENAME == ARGV[3] { order[++nf] = $1; n[$1] = $2; next }
    { out[FNR] = $0; nout = FNR }
    END {
        pos = 0
        for (i = 1; i <= nf; i++) {
            f = order[i]
            for (j = 1; j <= n[f]; j++) {
                pos++
                if (j <= r[f] && out[pos] != l[j]) { print f " record " j; exit }
            }
        }
        if (pos != nout) print "dump printed " nout " records, check read " pos
    }' "$T/full.jsonl" "$T/expect.tsv" "$T/check.got" "$T/dump.out")
[ -z "$bad" ] || fail "dump: $bad"

# summary: exit 0/1, and any damage it reports names its file inside it.
bounded "$TT_ANALYZE" summary "${files[@]}" --format json >"$T/sum.json" 2>"$T/sum.err"
bad=$(jq -r --argjson size "$size" '.traces[] | select(.damage != null) | . as $t |
        ($t.file + ": byte ") as $pre |
        select(($t.damage | startswith($pre) | not) or
               (($t.damage | ltrimstr($pre) | split(":")[0] | tonumber) >= $size)) |
        $t.file' "$T/sum.json" | sed -n 1p)
[ -z "$bad" ] || fail "summary damage message wrong for $bad"
jq -e '.overall.requests >= 0' "$T/sum.json" >/dev/null || fail "summary JSON without overall"

# requests, trend, compare (against the intact trace) and plot (when
# built) over every variant: no crash, no hang.
bounded "$TT_ANALYZE" requests "${files[@]}" >"$T/req.out" 2>"$T/req.err"
bounded "$TT_ANALYZE" trend "${files[@]}" >"$T/trend.out" 2>"$T/trend.err"
bounded "$TT_ANALYZE" compare "$T/t.ttrace" "${files[@]}" >"$T/cmp.out" 2>"$T/cmp.err"
has_plot=0
"$TT_ANALYZE" plot --help >/dev/null 2>&1 && has_plot=1
if [ "$has_plot" -eq 1 ]; then
    bounded "$TT_ANALYZE" plot "${files[@]}" -o "$T/plot-all" >"$T/plot.out" 2>"$T/plot.err"
fi

# One file per process for a sample of variants (plot, slow, for a quarter).
runs=0
for ((i = 0; i < nfiles; i += 50)); do
    f=${files[i]}
    cmds=(check dump summary info)
    [ "$has_plot" -eq 1 ] && [ $((i % 200)) -eq 0 ] && cmds+=(plot)
    for cmd in "${cmds[@]}"; do
        args=("$f")
        [ "$cmd" = plot ] && { rm -rf "$T/plot"; args+=(-o "$T/plot"); }
        limit=10 # seconds; plot runs gnuplot six times: more on a busy machine
        [ "$cmd" = plot ] && limit=60
        set +e
        timeout -k 2 "$limit" "$TT_ANALYZE" "$cmd" "${args[@]}" >/dev/null 2>"$T/one.err"
        rc=$?
        set -e
        [ "$rc" -le 1 ] || fail "$cmd exit $rc (crash or hang) on $f: $(head -c 300 "$T/one.err")"
        runs=$((runs + 1))
    done
done
echo "ok: $nfiles one-byte corruptions of a $size-byte trace batched; $runs single runs (plot=$has_plot)"
