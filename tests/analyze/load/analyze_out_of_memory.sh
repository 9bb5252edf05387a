#!/usr/bin/env bash
# analyze_out_of_memory: under a shrinking memory limit (ulimit -v), summary
# either reads the whole trace or fails with an "out of memory" error and a
# non-zero exit: it never prints a smaller n and exits 0 (issue 12, item 4).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
if [ -n "${TT_SANITIZE:-}" ]; then
    echo "skipped: AddressSanitizer reserves more address space than ulimit -v allows"
    exit 0
fi
"$TT_GEN_TRACE" "$T/mid.ttrace" 10000 60 >/dev/null
oom=0
for kb in 12000 15000 25000 200000; do
    set +e
    (ulimit -v "$kb"; "$TT_ANALYZE" summary "$T/mid.ttrace" --format json >"$T/o.json" 2>"$T/e.txt")
    rc=$?
    set -e
    if [ "$rc" = 0 ]; then
        [ "$(jq '.overall.requests' "$T/o.json")" = 10000 ] ||
            fail "ulimit -v $kb: exit 0 with $(jq '.overall.requests' "$T/o.json") of 10000 requests"
        [ "$(jq '.overall.ttft_ms.n' "$T/o.json")" = 10000 ] ||
            fail "ulimit -v $kb: exit 0 with a TTFT n of $(jq '.overall.ttft_ms.n' "$T/o.json")"
        ! grep -q 'dropped' "$T/e.txt" || fail "ulimit -v $kb: exit 0 although values were dropped"
    else
        grep -qi 'out of memory\|cannot allocate' "$T/e.txt" ||
            { cat "$T/e.txt"; fail "ulimit -v $kb: exit $rc without saying it ran out of memory"; }
        oom=$((oom + 1))
    fi
    echo "ulimit -v $kb: exit $rc"
done
[ "$oom" -gt 0 ] || fail "no limit made the analyzer run out of memory: the test proves nothing"
echo "analyze_out_of_memory: ok"
