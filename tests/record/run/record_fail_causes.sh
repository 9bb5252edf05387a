#!/usr/bin/env bash
# When requests fail the run says why, not only how many: the first message
# of each error kind (with the system's reason for a refused connection), a
# pointer to --check when nothing succeeded (with -q too), and the server's
# own message from a JSON error body in the trace's error_message (what
# `requests` shows), on one line and bounded.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

# Everything refused: the cause and --check, with and without -q.
expect_exit 1 "$TT_RECORD" -u http://127.0.0.1:1/v1 -m m -n 1 --classes short-short \
    -o "$T/refused.ttrace" 2>"$T/refused.err"
grep -q "first connect: .*127.0.0.1.*(Connection refused)" "$T/refused.err" ||
    fail "no first cause: $(cat "$T/refused.err")"
grep -q "error: no request succeeded.*--check" "$T/refused.err" || fail "no --check hint"
expect_exit 1 "$TT_RECORD" -q -u http://127.0.0.1:1/v1 -m m -n 1 --classes short-short \
    -o "$T/refused-q.ttrace" 2>"$T/refused-q.err"
grep -q "error: no request succeeded (1 failed; first connect: .*Connection refused.*--check" \
    "$T/refused-q.err" || fail "-q: no cause: $(cat "$T/refused-q.err")"

# An HTTP error with a JSON body: the server's words in the summary and the trace.
start_replay --synthetic 'ttft=5ms,tpot=1ms,tokens=4' --fault http-401
expect_exit 1 "$TT_RECORD" -u "$URL/v1" -m m -n 2 --classes short-short \
    -o "$T/401.ttrace" 2>"$T/401.err"
grep -q "first http_401: HTTP 401 Unauthorized: Incorrect API key provided" "$T/401.err" ||
    fail "no server message in the summary: $(cat "$T/401.err")"
d=$(dump "$T/401.ttrace")
assert_eq "$(jqs "$d" '[.[]|select(.kind=="result")|.error_message]|unique|.[]')" \
    "HTTP 401 Unauthorized: Incorrect API key provided" "trace error_message"
"$TT_ANALYZE" requests "$T/401.ttrace" >"$T/401.json"
grep -q "Incorrect API key provided" "$T/401.json" || fail "requests lacks the server message"

# A partly failing run names the cause too, and a healthy run prints no cause.
start_replay --synthetic 'ttft=5ms,tpot=1ms,tokens=4' --fault http-500@bad
"$TT_RECORD" -u "$URL/v1" -m good -m bad -n 1 --classes short-short \
    -o "$T/mixed.ttrace" 2>"$T/mixed.err" || fail "mixed run: exit $?"
grep -q "first http_500: HTTP 500" "$T/mixed.err" || fail "mixed: no cause: $(cat "$T/mixed.err")"
"$TT_RECORD" -u "$URL/v1" -m good -n 1 --classes short-short -o "$T/ok.ttrace" 2>"$T/ok.err"
if grep -q "first " "$T/ok.err"; then fail "healthy run prints a cause"; fi
echo ok
