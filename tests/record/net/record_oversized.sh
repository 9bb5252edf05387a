#!/usr/bin/env bash
# record_oversized: a server that sends one SSE line forever (replay fault
# endless-line) is stopped once the line passes the analyzer's 16 MiB cap
# and recorded as oversized_event, with the bytes up to there in the trace;
# the other requests of the same run succeed, the run exits 0 (1 when every
# request is one of those), the recorder's memory stays bounded (it parses
# with the analyzer's parser: at most one capped line per open request),
# and the analyzer reads the trace, names the kind, and stays bounded too.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_bounds_lib.sh"

CAP=$((16 << 20))
unset OPENAI_API_KEY

start_replay --synthetic 'ttft=10ms,tpot=1ms,tokens=8' --fault endless-line@endless

# 3 healthy requests and 3 endless ones, all at once
out="$T/mixed.ttrace"
peak_kib "$T/rec.kib" "$TT_RECORD" -u "$URL" -m healthy -m endless -n 3 \
    --classes short-short -c 6 --timeout 60 --idle-timeout 20 -o "$out" \
    2>"$T/rec.err" || fail "mixed run exit $?: $(cat "$T/rec.err")"
grep -q "oversized_event: 3" "$T/rec.err" || fail "summary: $(cat "$T/rec.err")"
d=$(lean_dump "$out")
check_complete "$d" 6
jqs "$d" '(map(select(.kind=="request"))|map({key:(.id|tostring),value:.model})|from_entries) as $m
    | .[]|select(.kind=="result")|"\($m[.id|tostring]) \(.error_kind // "ok") \(.bytes)"' | sort >"$T/kinds.txt"
assert_eq "$(awk '$1=="healthy"{print $2}' "$T/kinds.txt" | sort -u)" ok "healthy requests"
assert_eq "$(awk '$1!="healthy"{print $2}' "$T/kinds.txt" | sort -u)" oversized_event "endless requests"
# stopped just past the cap: the chunk that crossed it is kept, nothing more
awk -v cap=$CAP '$1!="healthy" && ($3 <= cap || $3 > cap + 65536 + 16384) {print}' "$T/kinds.txt" >"$T/bad_sizes.txt"
[ ! -s "$T/bad_sizes.txt" ] || fail "endless requests not stopped just past the cap: $(cat "$T/bad_sizes.txt")"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="result" and .error_kind=="oversized_event")|.error_message|test("16 MiB")]|all')" \
    true "oversized message"

# the analyzer: same kinds, no crash, bounded memory
peak_kib "$T/req.kib" "$TT_ANALYZE" requests "$out" >"$T/requests.csv" || fail "requests failed"
col=$(head -1 "$T/requests.csv" | tr ',' '\n' | grep -nx error_kind | cut -d: -f1)
mcol=$(head -1 "$T/requests.csv" | tr ',' '\n' | grep -nx model | cut -d: -f1)
assert_eq "$(awk -F, -v c="$col" -v m="$mcol" 'NR>1 && $m!="healthy"{print $c}' "$T/requests.csv" | sort | uniq -c | awk '{print $1, $2}')" \
    "3 oversized_event" "analyzer requests: error kinds"
assert_eq "$(awk -F, -v c="$col" -v m="$mcol" 'NR>1 && $m=="healthy"{print "[" $c "]"}' "$T/requests.csv" | sort -u)" \
    "[]" "analyzer requests: healthy"
peak_kib "$T/sum.kib" "$TT_ANALYZE" summary "$out" --detail >"$T/summary.txt" 2>/dev/null || fail "summary failed"
grep -q "errors: oversized_event=3" "$T/summary.txt" || fail "summary: $(cat "$T/summary.txt")"
peak_kib "$T/check.kib" "$TT_ANALYZE" check "$out" >"$T/check.txt" || fail "check: $(cat "$T/check.txt")"

# every request endless: nothing succeeded, exit 1, the trace still whole
expect_exit 1 "$TT_RECORD" -q -u "$URL" -m endless -n 1 --classes short-short \
    --timeout 60 -o "$T/only.ttrace"
d=$(lean_dump "$T/only.ttrace")
check_complete "$d" 1
assert_eq "$(jqs "$d" '.[]|select(.kind=="result")|.error_kind')" oversized_event "endless only"

echo "peak RSS: recorder $(cat "$T/rec.kib") KiB; analyzer requests $(cat "$T/req.kib"), summary $(cat "$T/sum.kib"), check $(cat "$T/check.kib") KiB"
if [ -n "${TT_SANITIZE:-}" ]; then
    echo "record_oversized: ok (memory bounds not checked under sanitizers)"
    exit 0
fi
# The recorder and the analyzer hold at most one capped line per open
# request (here 3), as one parser.
for k in rec req sum check; do
    [ "$(cat "$T/$k.kib")" -lt $(((64 << 10) + 3 * (CAP >> 10))) ] || fail "analyzer $k peak RSS $(cat "$T/$k.kib") KiB"
done
echo "record_oversized: ok"
