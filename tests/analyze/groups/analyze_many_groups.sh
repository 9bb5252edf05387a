#!/usr/bin/env bash
# analyze_many_groups: the analyzer is linear in the number of distinct
# groups (models) and error kinds: summary, compare and trend on 4x the
# distinct names take well under 8x the time (a quadratic scan takes ~16x).
# Times are medians of three runs, small and large measured side by side.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
small=3000 large=12000
"$TT_GEN_TRACE" --mix "$T/m-small.ttrace" -n $small -M $small -f 1
"$TT_GEN_TRACE" --mix "$T/m-large.ttrace" -n $large -M $large -f 1
"$TT_GEN_TRACE" --mix "$T/k-small.ttrace" -n $small -E $small -f 1 -m one
"$TT_GEN_TRACE" --mix "$T/k-large.ttrace" -n $large -E $large -f 1 -m one

# ms CMD...: wall milliseconds of one run of CMD (its output discarded).
ms() {
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1 || true
    t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000000))
}
# median3 CMD...: the median of three runs of ms CMD; one run under a
# sanitizer, whose times check_ratio does not judge (the run still meets
# the sanitizer).
median3() {
    [ -n "${TT_SANITIZE:-}" ] && { ms "$@"; return; }
    printf '%s\n' "$(ms "$@")" "$(ms "$@")" "$(ms "$@")" | sort -n | sed -n 2p
}
# linear NAME SMALL_CMD -- LARGE_CMD: fails when large/small >= 8.
check_ratio() {
    local name=$1 a=$2 b=$3
    [ "$a" -lt 1 ] && a=1
    echo "$name: ${a} ms at $small, ${b} ms at $large"
    # Under AddressSanitizer every realloc copies (glibc's grows in place),
    # so arrays grown one element at a time cost O(n^2) there only: the
    # ratio is measured on the plain build, the counts below on both.
    [ -n "${TT_SANITIZE:-}" ] && return 0
    [ $((b)) -lt $((8 * a + 50)) ] || fail "$name grows faster than linear: ${a} ms -> ${b} ms for 4x the names"
}
for kind in m k; do
    s=$T/$kind-small.ttrace l=$T/$kind-large.ttrace
    check_ratio "summary ($kind)" "$(median3 "$TT_ANALYZE" summary "$s" --format json)" \
        "$(median3 "$TT_ANALYZE" summary "$l" --format json)"
done
check_ratio compare "$(median3 "$TT_ANALYZE" compare "$T/m-small.ttrace" "$T/m-small.ttrace")" \
    "$(median3 "$TT_ANALYZE" compare "$T/m-large.ttrace" "$T/m-large.ttrace")"
check_ratio trend "$(median3 "$TT_ANALYZE" trend "$T/m-small.ttrace")" \
    "$(median3 "$TT_ANALYZE" trend "$T/m-large.ttrace")"
# And the numbers stay right: every name is its own group, every kind counted.
n=$("$TT_ANALYZE" summary "$T/m-large.ttrace" --format json | jq '.groups | length')
[ "$n" = "$large" ] || fail "$n groups for $large distinct models"
n=$("$TT_ANALYZE" summary "$T/k-large.ttrace" --format json |
    jq '[.groups[0].errors | to_entries[] | select(.value == 1)] | length')
[ "$n" = "$large" ] || fail "$n error kinds counted once each, want $large"
echo "analyze_many_groups: ok"
