#!/usr/bin/env bash
# replay_cli: tokentrace-replay's command line: --help, usage errors (exit 2,
# one line), the port file and listening line, clean exit on signals.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/replay_lib.sh"

# --help explains everything and exits 0.
"$TT_REPLAY" --help >"$T/help"
for word in --listen --port-file --synthetic --trace --speed --fault --seed \
    --log-sends --expect-key-env ttft_per_1k tokens_per_chunk jitter \
    reset-mid-stream split-utf8 accept-no-answer endless-line Examples; do
    grep -q -- "$word" "$T/help" || fail "--help does not mention $word"
done

# usage_error REGEX ARGS...: exit 2 with one stderr line matching REGEX.
usage_error() {
    local want=$1; shift
    set +e
    "$TT_REPLAY" "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    set -e
    [ "$rc" -eq 2 ] || fail "exit $rc (want 2) for: $*"
    [ "$(wc -l <"$T/err")" -eq 1 ] || fail "want one stderr line for: $* ($(cat "$T/err"))"
    grep -Eq -- "$want" "$T/err" || fail "stderr '$(cat "$T/err")' lacks '$want' for: $*"
}
usage_error 'listen' --synthetic tokens=3
usage_error 'exactly one' --listen 127.0.0.1:0
usage_error 'exactly one' --listen 127.0.0.1:0 --synthetic tokens=3 --trace x
usage_error 'HOST:PORT' --listen 127.0.0.1 --synthetic tokens=3
usage_error 'HOST:PORT' --listen 127.0.0.1:70000 --synthetic tokens=3
usage_error 'tpot' --listen 127.0.0.1:0 --synthetic tpot=5
usage_error 'unknown key' --listen 127.0.0.1:0 --synthetic speed=5
usage_error 'unknown fault' --listen 127.0.0.1:0 --synthetic tokens=3 --fault http-402
usage_error 'fraction' --listen 127.0.0.1:0 --synthetic tokens=3 --fault stall:2
usage_error 'speed' --listen 127.0.0.1:0 --synthetic tokens=3 --speed 2
usage_error 'speed' --listen 127.0.0.1:0 --trace x --speed 0
usage_error 'NO_SUCH_KEY_VAR' --listen 127.0.0.1:0 --synthetic tokens=3 --expect-key-env NO_SUCH_KEY_VAR
usage_error 'unknown option' --listen 127.0.0.1:0 --synthetic tokens=3 --bogus
usage_error 'needs a value' --listen 127.0.0.1:0 --synthetic
usage_error 'seed' --listen 127.0.0.1:0 --synthetic tokens=3 --seed x
usage_error "seed: '-1'" --listen 127.0.0.1:0 --synthetic tokens=3 --seed -1
usage_error 'ttft' --listen 127.0.0.1:0 --synthetic ttft=1

# A trace that cannot be read is a failure (1), not a usage error.
expect_exit 1 "$TT_REPLAY" --listen 127.0.0.1:0 --trace "$T/missing.ttrace" -q
# A port in use is a failure too.
start_replay --synthetic tokens=3
expect_exit 1 "$TT_REPLAY" --listen "127.0.0.1:$PORT" --synthetic tokens=3 -q

# The port file holds just the number; stderr names the same URL.
[[ "$(cat "$T"/port.*)" =~ ^[0-9]+$ ]] || fail "port file is not a number"
grep -qx "tokentrace-replay: listening on http://127.0.0.1:$PORT" "$T/replay.err" ||
    fail "no listening line: $(cat "$T/replay.err")"
[ "$(post /v1/chat/completions "$(chat_body m)" "$T/r")" = 0 ] || fail "request failed"

# SIGTERM and SIGINT end it cleanly with exit 0.
for sig in TERM INT; do
    "$TT_REPLAY" --listen 127.0.0.1:0 --port-file "$T/p.$sig" --synthetic tokens=3 -q &
    pid=$!
    for _ in $(seq 1 100); do [ -s "$T/p.$sig" ] && break; sleep 0.05; done
    [ -s "$T/p.$sig" ] || fail "server did not start"
    kill -"$sig" "$pid"
    set +e; wait "$pid"; rc=$?; set -e
    [ "$rc" -eq 0 ] || fail "exit $rc after SIG$sig"
done
echo "replay_cli: ok"
