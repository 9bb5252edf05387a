#!/usr/bin/env bash
# Every replay fault kind ends as the right error kind on its own requests
# while the run finishes and the other requests succeed; transport failures
# (refused, DNS, TLS, total timeout) are named too; a fraction fault hits
# only some requests.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

# fault kind -> expected error kind ("ok": the stream is odd but succeeds)
declare -A want=(
    [http-401]=http_401 [http-403]=http_403 [http-404]=http_404
    [http-429]=http_429 [http-500]=http_500 [html]=html
    [no-stream]=not_streamed [reset-mid-stream]=reset [stall]=idle_timeout
    [error-mid-stream]=stream_error [split-utf8]=ok [crlf]=ok
    [role-first]=ok [multi-token-chunks]=ok [reasoning]=ok [keepalive]=ok
    [no-usage]=ok [accept-no-answer]=idle_timeout [headers-only]=idle_timeout
    [endless-line]=oversized_event [error-field]=stream_error
    [error-first]=stream_error [error-object]=stream_error [no-tokens]=no_tokens
    [response-failed]=stream_error
)

# One server, one model per fault (m-<fault>), plus a healthy model.
args=() models=(-m healthy)
for f in "${!want[@]}"; do
    args+=(--fault "$f@m-$f")
    models+=(-m "m-$f")
done
start_replay --synthetic 'ttft=20ms,tpot=2ms,tokens=8' "${args[@]}"

out="$T/faults.ttrace"
"$TT_RECORD" -u "$URL" "${models[@]}" -n 2 --classes short-short -c 50 \
    --idle-timeout 1 --timeout 10 -o "$out" 2>"$T/rec.err" || fail "exit $?: $(cat "$T/rec.err")"
d=$(dump "$out")
n=$(( (${#want[@]} + 1) * 2 ))
check_complete "$d" "$n"
assert_eq "$(jqs "$d" '.[]|select(.kind=="footer")|"\(.interrupted) \(.reason)"')" "false complete" "footer"

# error kind per model
jqs "$d" '(map(select(.kind=="request"))|map({key:(.id|tostring),value:.model})|from_entries) as $m
    | .[]|select(.kind=="result")|"\($m[.id|tostring]) \(.error_kind // "ok") \(.http_status)"' | sort >"$T/kinds.txt"
for f in healthy "${!want[@]}"; do
    model=m-$f; expect=${want[$f]:-ok}
    [ "$f" = healthy ] && model=healthy && expect=ok
    got=$(awk -v m="$model" '$1==m{print $2}' "$T/kinds.txt" | sort -u | tr '\n' ' ')
    assert_eq "$got" "$expect " "error kind for fault $f"
done

# details: the 429 keeps Retry-After, error bodies are recorded as chunks,
# HTTP errors carry the status in the message, failures are summarized
assert_eq "$(jqs "$d" '(map(select(.kind=="request" and .model=="m-http-429"))|map(.id)) as $ids
    | [.[]|select(.kind=="result" and (.id as $i|$ids|index($i)))|.headers["retry-after"]]|unique|join(",")')" 2 "Retry-After kept"
assert_eq "$(jqs "$d" 'map(select(.kind=="result" and .error_kind=="http_500" and .bytes>0 and (.error_message|test("HTTP 500"))))|length')" 2 "500 body and message"
assert_eq "$(jqs "$d" 'map(select(.kind=="result" and .error_kind=="html" and (.headers["content-type"]|startswith("text/html"))))|length')" 2 "html content type"
assert_eq "$(jqs "$d" 'map(select(.kind=="result" and .error_kind=="reset" and .chunks>=1))|length')" 2 "reset after chunks"
# in-stream errors carry the server's own words
for f in error-field error-first error-object error-mid-stream; do
    assert_eq "$(jqs "$d" '(map(select(.kind=="request" and .model=="m-'"$f"'"))|map(.id)) as $ids
        | [.[]|select(.kind=="result" and (.id as $i|$ids|index($i)))|.error_message
           | test("^the stream carried an error: .*[(]replay fault '"$f"'[)]$")]|(length == 2 and all)')" true "$f message"
done
grep -q "failed (" "$T/rec.err" || fail "summary lists no error kinds: $(cat "$T/rec.err")"
grep -q "the run completed, but" "$T/rec.err" || fail "summary does not say the run completed"

# a fraction: some requests of the same model fail, the rest succeed
start_replay --synthetic 'ttft=5ms,tpot=1ms,tokens=4' --fault http-500:0.5 --seed 7
"$TT_RECORD" -q -u "$URL" -m m -n 20 --classes short-short -c 4 -o "$T/frac.ttrace" || fail "fraction run exit $?"
d=$(dump "$T/frac.ttrace")
ok=$(jqs "$d" 'map(select(.kind=="result" and .error_kind==null))|length')
bad=$(jqs "$d" 'map(select(.kind=="result" and .error_kind=="http_500"))|length')
assert_eq "$((ok + bad))" 20 "fraction: every request ok or http_500"
[ "$ok" -gt 0 ] && [ "$bad" -gt 0 ] || fail "fraction: $ok ok, $bad failed"

# total timeout (the server never answers; idle timeout longer)
start_replay --synthetic 'tokens=4' --fault accept-no-answer
expect_exit 1 "$TT_RECORD" -q -u "$URL" -m m -n 1 --classes short-short --timeout 1 --idle-timeout 20 -o "$T/to.ttrace"
d=$(dump "$T/to.ttrace")
assert_eq "$(jqs "$d" '.[]|select(.kind=="result")|.error_kind')" timeout "total timeout kind"
assert_eq "$(jqs "$d" '.[]|select(.kind=="footer")|"\(.ok) \(.failed)"')" "0 1" "footer of a failed run"

# refused connection: nothing succeeds -> exit 1, the trace is still whole
pf=$(mktemp "$T/free.XXXX")
python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' >"$pf"
expect_exit 1 "$TT_RECORD" -u "http://127.0.0.1:$(cat "$pf")" -m m -n 2 --classes short-short -o "$T/refused.ttrace" 2>"$T/refused.err"
grep -q "error: no request succeeded" "$T/refused.err" || fail "no 'nothing succeeded' message"
d=$(dump "$T/refused.ttrace")
check_complete "$d" 2
assert_eq "$(jqs "$d" '[.[]|select(.kind=="result")|"\(.error_kind) \(.http_status)"]|unique|join(",")')" "connect 0" "refused kind"

# TLS spoken to a plain-HTTP server
expect_exit 1 "$TT_RECORD" -q -u "https://127.0.0.1:$PORT" -m m -n 1 --classes short-short -o "$T/tls.ttrace"
assert_eq "$(jqs "$(dump "$T/tls.ttrace")" '.[]|select(.kind=="result")|.error_kind')" tls "TLS kind"

# a name that cannot resolve (.invalid is reserved)
expect_exit 1 "$TT_RECORD" -q -u "http://tokentrace-test.invalid" -m m -n 1 --classes short-short --connect-timeout 10 -o "$T/dns.ttrace"
assert_eq "$(jqs "$(dump "$T/dns.ttrace")" '.[]|select(.kind=="result")|.error_kind')" dns "DNS kind"
echo ok
