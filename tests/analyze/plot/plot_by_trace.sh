#!/usr/bin/env bash
# plot --by trace: two runs of one model (real HTTP to tokentrace-replay)
# are two series, "MODEL (FILE)", in the charts' data; that is the default
# when the runs differ in their settings (here -c 1 against -c 2: said on
# stderr), and --by model merges them; runs of the same settings are one
# series unless --by trace. Files of one name get their trace number.
# gnuplot is kept off PATH: the .dat files are what is checked.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
start_replay --synthetic 'ttft=15ms,tpot=2ms,tokens=6'
rec() { "$TT_RECORD" -q -u "$URL" -m m --classes short-short "$@"; }
plot() { PATH=/nonexistent "$TT_ANALYZE" plot "$@"; }
mkdir -p "$T/x" "$T/y"
rec -n 3 -o "$T/a.ttrace"
rec -n 4 -c 2 -o "$T/b.ttrace"
rec -n 3 -o "$T/a2.ttrace"
cp "$T/a.ttrace" "$T/x/run.ttrace"
rec -n 5 -o "$T/y/run.ttrace"

series() { sed -n 's/^"\(.*\): p50 .*(n=\([0-9]*\))"$/\1=\2/p' "$1/ttft-cdf.dat" | sort | tr '\n' ' '; }

plot "$T/a.ttrace" "$T/b.ttrace" -o "$T/d" >/dev/null 2>"$T/d.err" || fail "plot exit $?"
assert_eq "$(series "$T/d")" "m (a.ttrace)=3 m (b.ttrace)=4 " "default: settings differ"
grep -q 'the traces differ in their settings' "$T/d.err" || fail "note: $(cat "$T/d.err")"
grep -q '"m (b.ttrace)"' "$T/d/tpot.dat" || grepq 'm (b.ttrace)' "$T/d/tpot.dat" || fail "tpot series"
plot "$T/a.ttrace" "$T/b.ttrace" -o "$T/m" --by model >/dev/null 2>&1
assert_eq "$(series "$T/m")" "m=7 " "--by model merges"

plot "$T/a.ttrace" "$T/a2.ttrace" -o "$T/s" >/dev/null 2>"$T/s.err"
assert_eq "$(series "$T/s")" "m=6 " "same settings: one series"
grep -q 'differ in their settings' "$T/s.err" && fail "same settings noted"
# keep-awake's outcome is a fact of the run, not a setting: under auto a
# busy moment turns it off ("the machine is busy (load 8.3 ...)", a new
# number each time); spin against off here, for certain
rec -n 3 --keep-awake spin -o "$T/ka1.ttrace"
rec -n 3 --keep-awake off -o "$T/ka2.ttrace"
plot "$T/ka1.ttrace" "$T/ka2.ttrace" -o "$T/k" >/dev/null 2>"$T/k.err"
assert_eq "$(series "$T/k")" "m=6 " "keep-awake outcomes: one series"
plot "$T/a.ttrace" "$T/a2.ttrace" -o "$T/t" --by trace >/dev/null 2>&1
assert_eq "$(series "$T/t")" "m (a.ttrace)=3 m (a2.ttrace)=3 " "--by trace"

plot "$T/x/run.ttrace" "$T/y/run.ttrace" -o "$T/n" --by trace >/dev/null 2>&1
assert_eq "$(series "$T/n")" "m (1:run.ttrace)=3 m (2:run.ttrace)=5 " "same file name"
expect_exit 2 plot "$T/a.ttrace" -o "$T/e" --by class 2>/dev/null
echo ok
