#!/usr/bin/env bash
# record_valgrind: a short recording under valgrind (healthy streams and
# the ways a request can fail: an HTTP error, a reset, a stall cut by the
# idle timeout, an endless line stopped at the cap, credential headers
# redacted) has no memory errors and leaks nothing; the same for --check
# and for the analyzer's summary and plot (with --html) of that trace.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_bounds_lib.sh"

command -v valgrind >/dev/null || { echo "record_valgrind: skipped (no valgrind)"; exit 0; }
# Valgrind cannot run AddressSanitizer binaries; the plain build covers it.
[ -z "${TT_SANITIZE:-}" ] || { echo "record_valgrind: skipped (sanitizer build)"; exit 0; }

# vg CMD...: CMD under valgrind; exit 99 on any error or leak, log in $T.
vg() {
    valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
        --error-exitcode=99 --log-file="$T/vg.%p.log" "$@"
}

# logs_clean WHAT: every valgrind log so far is empty.
logs_clean() {
    local f
    for f in "$T"/vg.*.log; do
        [ -s "$f" ] && { cat "$f" >&2; fail "valgrind reported problems in $1"; }
    done
    return 0
}

export TT_TEST_KEY="sk-vg-$RANDOM-0123456789abcdef"
start_replay --synthetic 'ttft=10ms,tpot=2ms,tokens=16' \
    --fault http-429@limited --fault reset-mid-stream@resets \
    --fault stall@stalls --fault endless-line@endless --fault leaky-headers@leaky

out="$T/vg.ttrace"
set +e
OPENAI_API_KEY=$TT_TEST_KEY vg "$TT_RECORD" -u "$URL" -m good -m limited -m resets \
    -m stalls -m endless -m leaky -n 2 --classes short-short -c 4 \
    --idle-timeout 6 --timeout 60 -o "$out" >"$T/rec.out" 2>"$T/rec.err"
rc=$?
set -e
[ "$rc" -eq 0 ] || { cat "$T/rec.err" "$T"/vg.*.log >&2; fail "recorder under valgrind exited $rc"; }
logs_clean "the recorder"

d=$(lean_dump "$out")
check_complete "$d" 12
jqs "$d" '(map(select(.kind=="request"))|map({key:(.id|tostring),value:.model})|from_entries) as $m
    | .[]|select(.kind=="result")|"\($m[.id|tostring]) \(.error_kind // "ok")"' | sort -u >"$T/kinds.txt"
assert_eq "$(tr '\n' ' ' <"$T/kinds.txt")" \
    "endless oversized_event good ok leaky ok limited http_429 resets reset stalls idle_timeout " \
    "error kinds under valgrind"

# --check: a model that streams and one that sends an endless line
set +e
OPENAI_API_KEY=$TT_TEST_KEY vg "$TT_RECORD" --check -u "$URL" -m good -m endless \
    >"$T/check.out" 2>"$T/check.err"
rc=$?
set -e
[ "$rc" -eq 1 ] || { cat "$T/check.out" "$T/check.err" "$T"/vg.*.log >&2; fail "--check under valgrind exited $rc"; }
logs_clean "--check"
grep -q "^endless: FAIL not-sse: " "$T/check.out" || fail "--check: $(cat "$T/check.out")"

vg "$TT_ANALYZE" summary "$out" --detail >"$T/summary.txt" 2>"$T/summary.err" \
    || { cat "$T/summary.err" "$T"/vg.*.log >&2; fail "summary under valgrind"; }
logs_clean "summary"
grep -q "errors: http_429=2" "$T/summary.txt" || fail "summary: $(cat "$T/summary.txt")"
vg "$TT_ANALYZE" summary "$out" >"$T/compact.txt" 2>"$T/compact.err" \
    || { cat "$T/compact.err" "$T"/vg.*.log >&2; fail "compact summary under valgrind"; }
logs_clean "compact summary"
grep -q "^failed: .*http_429=2" "$T/compact.txt" || fail "compact summary: $(cat "$T/compact.txt")"

if "$TT_ANALYZE" plot --help >/dev/null 2>&1; then
    vg "$TT_ANALYZE" plot "$out" -o "$T/plots" --html >"$T/plot.out" 2>"$T/plot.err" \
        || { cat "$T/plot.err" "$T"/vg.*.log >&2; fail "plot under valgrind"; }
    logs_clean "plot"
    [ -s "$T/plots/report.html" ] || fail "plot wrote no report.html: $(ls "$T/plots")"
fi
echo "record_valgrind: ok"
