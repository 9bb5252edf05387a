#!/usr/bin/env bash
# --retry: without it a 429 storm is recorded as failed requests (exit 1);
# with it a request answered 429 is sent again after the server's
# Retry-After, each attempt its own request in the trace (attempt,
# retry_of, retry_wait_ms), and summary counts retried attempts apart from
# requests. Retries that run out fail with the last attempt's kind; a 500
# is never retried; Ctrl-C during a wait ends the run at once.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

SYN='ttft=5ms,tpot=1ms,tokens=4'
RA_NS=2000000000 # the replay server's 429 says Retry-After: 2
# generous upper bound on a wait (a loaded machine, sanitizers)
SLACK_NS=$(( ${TT_SANITIZE:-0} == 1 ? 6000000000 : 3000000000 ))

# summary_json TRACE: the overall object of summary --format json
summary_json() { "$TT_ANALYZE" summary --format json "$1" | jq -c '.overall'; }

# --- a 429 storm without --retry: every request failed, nothing re-sent --
start_replay --synthetic "$SYN" --fault http-429
expect_exit 1 "$TT_RECORD" -u "$URL" -m m -n 4 -c 2 --classes short-short \
    -o "$T/storm.ttrace" 2>"$T/storm.err"
d=$(dump "$T/storm.ttrace")
check_complete "$d" 4
assert_eq "$(jqs "$d" '[.[]|select(.kind=="result")|"\(.error_kind) \(.attempt) \(.retry_of) \(.retry_wait_ms)"]|unique|join(",")')" \
    "http_429 1 null null" "storm: every attempt a first, failed, no retry"
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.options.retry')" 0 "storm: retry option"
assert_eq "$(jqs "$d" '.[]|select(.kind=="footer")|"\(.ok) \(.failed) \(.retried)"')" "0 4 null" "storm: footer"
grep -q "requests: 0 ok, 4 failed (http_429: 4)" "$T/storm.err" || fail "storm: recorder summary: $(cat "$T/storm.err")"
grep -q "error: no request succeeded" "$T/storm.err" || fail "storm: no failure message"
grep -q "retries:" "$T/storm.err" && fail "storm: a retry note without --retry"
assert_eq "$(summary_json "$T/storm.ttrace" | jq -c '[.requests,.ok,.retried,.errors]')" \
    '[4,0,0,{"http_429":4}]' "storm: summary json"
"$TT_ANALYZE" summary "$T/storm.ttrace" --detail >"$T/storm.txt" 2>/dev/null
grep -q "4 requests (0 ok, 4 failed)" "$T/storm.txt" || fail "storm: summary text: $(head -1 "$T/storm.txt")"
"$TT_ANALYZE" info "$T/storm.ttrace" | grepq -F "| retries | --retry 0; 0 retried attempts" ||
    fail "storm: info retries row"
assert_eq "$("$TT_ANALYZE" summary --format csv "$T/storm.ttrace" | tail -n 1 | cut -d, -f1,3-5,19)" \
    "(all),4,0,4,0" "storm: summary csv requests, ok, failed, retried"
grep -q "http_429=4" "$T/storm.txt" || fail "storm: summary errors line"

# a 500 is not retried, even with --retry
start_replay --synthetic "$SYN" --fault http-500
expect_exit 1 "$TT_RECORD" -q -u "$URL" -m m -n 2 --classes short-short \
    --retry 2 -o "$T/500.ttrace"
d=$(dump "$T/500.ttrace")
check_complete "$d" 2
assert_eq "$(jqs "$d" '[.[]|select(.kind=="result")|"\(.error_kind) \(.retry_wait_ms)"]|unique|join(",")')" \
    "http_500 null" "500: recorded once, not retried"

# --- a server that answers 429 to the first attempt of each request ------
# The trace replay server serves a model's recorded replies in turn: a 429
# (with its Retry-After: 2) then a 200, again and again. One request at a
# time (-c 1), so each request's first attempt gets the 429.
start_replay --synthetic "$SYN" --fault http-429
"$TT_RECORD" -q -u "$URL" -m m -n 1 --classes short-short -o "$T/one429.ttrace" || true
start_replay --synthetic "$SYN"
"$TT_RECORD" -q -u "$URL" -m m -n 1 --classes short-short -o "$T/one200.ttrace"
cat "$T/one429.ttrace" "$T/one200.ttrace" >"$T/alternate.ttrace"
start_replay --trace "$T/alternate.ttrace"
"$TT_RECORD" -u "$URL" -m m -n 2 -c 1 --classes short-short --retry 2 \
    --progress always -o "$T/retry.ttrace" 2>"$T/retry.err" ||
    fail "retry run exit $?: $(cat "$T/retry.err")"
d=$(dump "$T/retry.ttrace")
check_complete "$d" 4
# ids 1 and 3 are first attempts answered 429 that announce their retry;
# 2 and 4 are second attempts of them that succeed
assert_eq "$(jqs "$d" '[.[]|select(.kind=="result")|"\(.id):\(.http_status):\(.error_kind):\(.attempt):\(.retry_of):\(.retry_wait_ms)"]|join(" ")')" \
    "1:429:http_429:1:null:2000 2:200:null:2:1:null 3:429:http_429:1:null:2000 4:200:null:2:3:null" \
    "retry: results"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")|"\(.id):\(.attempt):\(.retry_of)"]|join(" ")')" \
    "1:null:null 2:2:1 3:null:null 4:2:3" "retry: request records name attempt and first id"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")|.request_id]|unique|length')" 4 \
    "retry: every attempt its own X-Request-Id"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")|"\(.prompt_index)/\(.class)"]|join(" ")')" \
    "0/short-short 0/short-short 1/short-short 1/short-short" "retry: the same prompt again"
# the wait honoured Retry-After: the retry left >= 2 s after the 429 ended
# (so >= 2 s after the first attempt was sent), and not much later
jqs "$d" '(map(select(.kind=="request"))|map({key:(.id|tostring),value:.start_ns})|from_entries) as $s
    | (map(select(.kind=="result"))|map({key:(.id|tostring),value:.end_ns})|from_entries) as $e
    | .[]|select(.kind=="request" and .retry_of!=null)
    | "\($s[.retry_of|tostring]) \($e[.retry_of|tostring]) \(.start_ns)"' >"$T/waits.txt"
assert_eq "$(wc -l <"$T/waits.txt")" 2 "retry: two retries"
while read -r first_start first_end retry_start; do
    [ $((retry_start - first_start)) -ge $RA_NS ] || fail "retry sent $((retry_start - first_start)) ns after the first attempt, before Retry-After"
    [ $((retry_start - first_end)) -ge $RA_NS ] || fail "retry sent $((retry_start - first_end)) ns after the 429, before Retry-After"
    [ $((retry_start - first_end)) -lt $((RA_NS + SLACK_NS)) ] || fail "retry waited $((retry_start - first_end)) ns"
done <"$T/waits.txt"
assert_eq "$(jqs "$d" '.[]|select(.kind=="footer")|"\(.requests) \(.ok) \(.failed) \(.retried)"')" \
    "4 2 0 2" "retry: footer counts attempts, requests and retries"
grep -q "requests: 2 ok, 0 failed" "$T/retry.err" || fail "retry: recorder summary: $(cat "$T/retry.err")"
grep -q "retries: 2 attempts answered 429/503 and sent again" "$T/retry.err" || fail "retry: no retry note"
grep -q "2 retries (1 waiting)" "$T/retry.err" || fail "retry: progress line shows no retries"
# summary: 2 requests, both ok, 2 retried attempts apart; timings from the
# successful attempts only
assert_eq "$(summary_json "$T/retry.ttrace" | jq -c '[.requests,.ok,.retried,.errors,.ttft_ms.n]')" \
    '[2,2,2,{},2]' "retry: summary json"
assert_eq "$("$TT_ANALYZE" summary --format json "$T/retry.ttrace" | jq -c '[.groups[]|.retried]')" \
    '[2]' "retry: group json"
"$TT_ANALYZE" summary "$T/retry.ttrace" --detail >"$T/retry.txt" 2>/dev/null
grep -q "2 requests (2 ok, 0 failed; 2 retried attempts not counted)" "$T/retry.txt" ||
    fail "retry: summary text: $(head -1 "$T/retry.txt")"
"$TT_ANALYZE" summary "$T/retry.ttrace" 2>/dev/null | sed -n 1p |
    grep -q "2 requests, 0 failed, 2 retried attempts not counted" || fail "retry: compact header"
grep -q "retried attempts 2" "$T/retry.txt" || fail "retry: group line"
# other readers see requests, not attempts
assert_eq "$("$TT_ANALYZE" requests --format json "$T/retry.ttrace" | jq -s 'flatten|length')" 2 \
    "retry: requests lists the two requests"
# requests: each row is the request's last attempt, naming its number and
# first attempt; --all-attempts adds the superseded attempts, marked
assert_eq "$("$TT_ANALYZE" requests --format json "$T/retry.ttrace" |
    jq -r -s 'map("\(.id):\(.attempt):\(.retry_of):\(.superseded):\(.ok)")|join(" ")')" \
    "2:2:1:false:true 4:2:3:false:true" "retry: requests json attempt keys"
assert_eq "$("$TT_ANALYZE" requests --all-attempts --format json "$T/retry.ttrace" |
    jq -r -s 'sort_by(.id)|map("\(.id):\(.attempt):\(.retry_of):\(.superseded):\(.error_kind)")|join(" ")')" \
    "1:1:null:true:http_429 2:2:1:false:null 3:1:null:true:http_429 4:2:3:false:null" \
    "retry: requests --all-attempts json"
"$TT_ANALYZE" requests "$T/retry.ttrace" >"$T/req.csv"
"$TT_ANALYZE" requests "$T/retry.ttrace" --all-attempts >"$T/req_all.csv"
python3 - "$T/req.csv" "$T/req_all.csv" <<'PY' || fail "retry: requests csv attempt columns"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
head, body = rows[0], rows[1:]
# appended after the older columns, which keep their positions (later
# columns, tpot_classic_ms..., come after these)
assert head[39:43] == ["error_message", "attempt", "retry_of", "superseded"], head
col = {k: i for i, k in enumerate(head)}
got = sorted((r[col["id"]], r[col["attempt"]], r[col["retry_of"]], r[col["superseded"]]) for r in body)
assert got == [("2", "2", "1", "false"), ("4", "2", "3", "false")], got
rows = list(csv.reader(open(sys.argv[2], newline="")))
assert rows[0] == head, rows[0]
got = sorted((r[col["id"]], r[col["attempt"]], r[col["retry_of"]], r[col["superseded"]]) for r in rows[1:])
assert got == [("1", "1", "", "true"), ("2", "2", "1", "false"),
               ("3", "1", "", "true"), ("4", "2", "3", "false")], got
PY
# info: the --retry setting and the retried attempts
"$TT_ANALYZE" info "$T/retry.ttrace" >"$T/retry.md"
grep -qF "| requests | 2 (2 ok, 0 failed), 0 warmup |" "$T/retry.md" || fail "retry: info requests: $(cat "$T/retry.md")"
grep -qF "| retries | --retry 2; 2 retried attempts (sent again, not counted as requests) |" "$T/retry.md" ||
    fail "retry: info retries row: $(cat "$T/retry.md")"
# summary csv: a retried column at the end, per group and overall
"$TT_ANALYZE" summary --format csv "$T/retry.ttrace" >"$T/retry.csv"
python3 - "$T/retry.csv" <<'PY' || fail "retry: summary csv retried column: $(head -2 "$T/retry.csv")"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows[0][-3:] == ["min", "max", "retried"], rows[0]
assert len(rows) > 2 and all(len(r) == len(rows[0]) for r in rows), "ragged"
assert {r[-1] for r in rows[1:]} == {"2"}, {r[-1] for r in rows[1:]}
PY

# --- retries that run out (open loop): the request fails with its last
# attempt; each retry is scheduled when its wait ends -----------------------
start_replay --synthetic "$SYN" --fault http-429
expect_exit 1 "$TT_RECORD" -u "$URL" -m m -n 2 -r 50 --arrival constant \
    --classes short-short --retry 1 -o "$T/out.ttrace" 2>"$T/out.err"
d=$(dump "$T/out.ttrace")
check_complete "$d" 4
assert_eq "$(jqs "$d" '[.[]|select(.kind=="result")|"\(.attempt):\(.retry_wait_ms)"]|sort|join(" ")')" \
    "1:2000 1:2000 2:null 2:null" "ran out: the second attempts announce nothing"
assert_eq "$(jqs "$d" '(map(select(.kind=="result"))|map({key:(.id|tostring),value:.end_ns})|from_entries) as $e
    | [.[]|select(.kind=="request" and .retry_of!=null)
       | (.scheduled_ns == $e[.retry_of|tostring] + 2000000000) and (.start_ns >= .scheduled_ns)]|all')" \
    true "ran out: a retry is scheduled at the end of its wait"
assert_eq "$(jqs "$d" '.[]|select(.kind=="footer")|"\(.ok) \(.failed) \(.retried)"')" "0 2 2" "ran out: footer"
grep -q "2 requests still failed after 1 retry" "$T/out.err" || fail "ran out: note: $(cat "$T/out.err")"
assert_eq "$(summary_json "$T/out.ttrace" | jq -c '[.requests,.ok,.retried,.errors]')" \
    '[2,0,2,{"http_429":2}]' "ran out: summary json"

# --- Ctrl-C during the wait: the run ends now, the request failed --------
"$TT_RECORD" -q -u "$URL" -m m -n 1 --classes short-short --retry 3 \
    -o "$T/int.ttrace" 2>"$T/int.err" &
rec=$!
for _ in $(seq 1 200); do # until the 429 (with its retry) is on disk
    recs=$("$TT_ANALYZE" dump "$T/int.ttrace" 2>/dev/null || true)
    case $recs in *'"retry_wait_ms"'*) break ;; esac
    sleep 0.05
done
sent=$(date +%s%N)
kill -INT "$rec"
set +e; wait "$rec"; rc=$?; set -e
took=$(( $(date +%s%N) - sent ))
assert_eq "$rc" 130 "interrupted: exit code"
[ "$took" -lt "$RA_NS" ] || fail "interrupted: the run took $took ns to stop, it waited out Retry-After"
d=$(dump "$T/int.ttrace")
check_complete "$d" 1
assert_eq "$(jqs "$d" '.[]|select(.kind=="footer")|"\(.reason) \(.ok) \(.failed) \(.retried)"')" \
    "signal 0 1 null" "interrupted: footer"
# the announced retry never came: the attempt is the request's last
assert_eq "$(summary_json "$T/int.ttrace" | jq -c '[.requests,.ok,.retried,.errors]')" \
    '[1,0,0,{"http_429":1}]' "interrupted: summary json"

# usage errors
expect_exit 2 "$TT_RECORD" -u "$URL" -m m --retry -1 -o "$T/bad.ttrace" 2>/dev/null
expect_exit 2 "$TT_RECORD" -u "$URL" -m m --retry 21 -o "$T/bad.ttrace" 2>/dev/null
echo ok
