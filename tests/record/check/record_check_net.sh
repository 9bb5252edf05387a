#!/usr/bin/env bash
# record_check_net: --check verdicts that name the phase where a request
# died: DNS (an unresolvable .invalid host), connect (a closed port; a
# listening socket with a full backlog for a connect timeout), TLS (https
# to a plain-http port; a TCP server that never answers the handshake),
# first byte (accept-no-answer), and failures after the answer began: a
# stall, a reset, an error event mid-stream (and one before the first
# token: no answer at all, not a cut one), headers and then nothing, an
# endless line. Every one exits 1, within its timeout.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/doctor_lib.sh"

unset OPENAI_API_KEY OPENAI_BASE_URL

# fails NAME ID TEXT ARGS...: --check ARGS fails with verdict ID, the
# output holds TEXT, and it took less than 15 s.
fails() {
    local name=$1 id=$2 text=$3 t0; shift 3
    t0=$(date +%s)
    rec "$name" --check "$@"
    expect_rc 1 "$name"
    grep -qE "^[^ ]+: FAIL $id: " "$T/$name.out" || fail "$name: no $id verdict: $(cat "$T/$name.out")"
    has "$name.out" "$text"
    has "$name.out" "  fix: "
    [ $(($(date +%s) - t0)) -lt 15 ] || fail "$name took $(($(date +%s) - t0)) s"
}

fails dns dns "DNS: the host name of http://gateway.invalid/api/v1/chat/completions does not resolve" \
    -u http://gateway.invalid/api -m m
tcp_helper closed
fails refused connect "connect: no TCP connection to 127.0.0.1:$HELPER_PORT" \
    -u "http://127.0.0.1:$HELPER_PORT/api" -m m
tcp_helper backlog
fails connto connect-timeout "connect timeout: no TCP connection to 127.0.0.1:$HELPER_PORT within 1 s" \
    -u "http://127.0.0.1:$HELPER_PORT/api" -m m --connect-timeout 1s
tcp_helper silent
fails tlsto tls-timeout "TLS timeout: connected to 127.0.0.1:$HELPER_PORT, but the TLS handshake did not finish" \
    -u "https://127.0.0.1:$HELPER_PORT/api" -m m --connect-timeout 1s
has tlsto.out "try http:// instead of https://"

start_replay --synthetic 'ttft=30ms,tpot=5ms,tokens=12' \
    --fault accept-no-answer@silent --fault stall@stalls \
    --fault reset-mid-stream@resets --fault error-mid-stream@errs \
    --fault headers-only@headers --fault endless-line@endless \
    --fault error-first@errfirst
fails tls tls "TLS: the handshake with 127.0.0.1:$PORT failed" \
    -u "https://127.0.0.1:$PORT/api" -m m
has tls.out "an https:// URL on a plain-http port (try http://)"
fails firstbyte timeout-first-byte "timeout (first byte): connected to 127.0.0.1:$PORT and sent the request, but no answer came within 1 s" \
    -u "$URL/api" -m silent --timeout 1s
fails stall stall "stalled: no data for 1 s after 3 token events" \
    -u "$URL/api" -m stalls --idle-timeout 1s
fails reset reset "connection reset mid-stream after 3 token events" \
    -u "$URL/api" -m resets
fails errs stream-error "error inside the stream: HTTP 200, then after 3 token events an error event: server_error" \
    -u "$URL/api" -m errs
has errs.out "users see a cut answer"
# an error before any token, the replay server's imitation of llama.cpp's
# prompt over the context: deterministic, not "check again later"
fails errfirst context-full "prompt longer than the context: HTTP 200" \
    -u "$URL/api" -m errfirst
has errfirst.out "fails the same way every time"
hasnt errfirst.out "cut answer"
hasnt errfirst.out "check again later"
fails headers timeout-first-token "timeout (first token): HTTP 200 and no body, but no token within 1 s" \
    -u "$URL/api" -m headers --idle-timeout 1s
fails endless not-sse "not an event stream" -u "$URL/api" -m endless
# several models: each gets its verdict, the working one is measured
rec several --check -u "$URL/api" -m good -m resets
expect_rc 1 several
has several.out "good: OK: streams"
has several.out "resets: FAIL reset: "
has several.out "result: 1 of 2 models stream"
echo "record_check_net: ok"
