#!/usr/bin/env bash
# analyze_format_oom: the machine formats fail as a whole (issue 27, item
# 4). Under a memory limit (ulimit -v) growing in small steps from "the
# program barely starts" to "the run succeeds", every run of summary
# --format json|csv|openmetrics, requests --format json and trend and
# compare --format json either exits 0 with exactly the document of an
# unlimited run, or exits non-zero (no crash) with an error on stderr and
# no truncated document on stdout (nothing, or a complete one). At least
# one limit must stop summary's JSON in its writer ("nothing written"), or
# the test proves nothing about the writers.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
if [ -n "${TT_SANITIZE:-}" ]; then
    echo "skipped: AddressSanitizer reserves more address space than ulimit -v allows"
    exit 0
fi
# 200 models: a summary document of about 600 KB, the last big allocation.
"$TT_GEN_TRACE" --mix "$T/a.ttrace" -n 400 -M 200 -s 3 >/dev/null
"$TT_GEN_TRACE" --mix "$T/b.ttrace" -n 400 -M 200 -s 4 >/dev/null
step=256

# complete KIND FILE: true when FILE is a whole document of KIND.
complete() {
    case $1 in
    json) jq -e . "$2" >/dev/null 2>&1 ;;
    jsonl) python3 -c 'import json,sys
for l in open(sys.argv[1]): json.loads(l)' "$2" 2>/dev/null ;;
    csv) python3 -c 'import csv,sys
d=open(sys.argv[1],newline="").read()
rows=list(csv.reader(d.splitlines()))
assert d.endswith("\n") and rows and all(len(r)==len(rows[0]) for r in rows)' "$2" 2>/dev/null ;;
    openmetrics) [ "$(tail -n 1 "$2")" = "# EOF" ] ;;
    esac
}

# The lowest limit (KB) at which the analyzer starts at all.
base=1024
until (ulimit -v "$base"; exec "$TT_ANALYZE" --version) >/dev/null 2>&1; do
    base=$((base + 256))
    [ "$base" -lt 262144 ] || fail "the analyzer does not start under any ulimit -v"
done

# sweep NAME KIND ARGS...: runs tokentrace-analyze ARGS at limits from base
# up by step until a run exits 0; checks every run. Prints the number of
# runs its writer refused ("nothing written").
sweep() {
    local name=$1 kind=$2 kb=$base rc refused=0
    shift 2
    "$TT_ANALYZE" "$@" >"$T/ref" 2>/dev/null || fail "$name: fails without a limit"
    while :; do
        set +e
        (ulimit -v "$kb"; exec "$TT_ANALYZE" "$@") >"$T/out" 2>"$T/err"
        rc=$?
        set -e
        if [ "$rc" -eq 0 ]; then
            cmp -s "$T/out" "$T/ref" ||
                fail "$name: ulimit -v $kb: exit 0 with another document ($(wc -c <"$T/out") bytes of $(wc -c <"$T/ref"); complete: $(complete "$kind" "$T/out" && echo yes || echo no))"
            break
        fi
        [ "$rc" -lt 128 ] || fail "$name: ulimit -v $kb: killed by signal $((rc - 128))"
        [ -s "$T/err" ] || fail "$name: ulimit -v $kb: exit $rc without a word on stderr"
        [ ! -s "$T/out" ] || complete "$kind" "$T/out" ||
            fail "$name: ulimit -v $kb: exit $rc after a truncated document ($(wc -c <"$T/out") bytes): $(head -c 300 "$T/err")"
        grep -q 'nothing written' "$T/err" && refused=$((refused + 1))
        kb=$((kb + step))
        [ "$kb" -lt 1048576 ] || fail "$name: no limit up to 1 GiB let it finish"
    done
    echo "$name: limits from $base KB by $step KB, finished at $kb KB, $refused refused by the writer" >&2
    echo "$refused"
}

json=$(sweep "summary --format json" json summary "$T/a.ttrace" --format json)
[ "$json" -gt 0 ] || fail "no limit stopped summary --format json in its writer: the test proves nothing"
sweep "summary --format csv" csv summary "$T/a.ttrace" --format csv >/dev/null
sweep "summary --format openmetrics" openmetrics summary "$T/a.ttrace" --format openmetrics >/dev/null
sweep "requests --format json" jsonl requests "$T/a.ttrace" --format json >/dev/null
sweep "trend --format json" json trend "$T/a.ttrace" "$T/b.ttrace" --format json >/dev/null
sweep "compare --format json" json compare "$T/a.ttrace" "$T/b.ttrace" --format json >/dev/null
echo "analyze_format_oom: ok"
