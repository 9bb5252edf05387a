#!/usr/bin/env bash
# replay_valgrind: a short run under valgrind (synthetic and trace mode,
# every ending a stream can have: complete, faults, resets, stalls, clients
# hanging up) has no memory errors and leaks nothing, and SIGTERM exits 0.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/replay_lib.sh"

command -v valgrind >/dev/null || { echo "replay_valgrind: skipped (no valgrind)"; exit 0; }
# Valgrind cannot run AddressSanitizer binaries; the plain build covers it.
[ -z "${TT_SANITIZE:-}" ] || { echo "replay_valgrind: skipped (sanitizer build)"; exit 0; }
REAL_REPLAY=$TT_REPLAY
cat >"$T/vg-replay" <<EOS
#!/usr/bin/env bash
exec valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
    --error-exitcode=99 --log-file="$T/vg.\$\$.log" "$REAL_REPLAY" "\$@"
EOS
chmod +x "$T/vg-replay"
TT_REPLAY=$T/vg-replay

# stop_checked: SIGTERM the server, want exit 0 and an empty valgrind log.
stop_checked() {
    kill -TERM "$REPLAY_PID"
    set +e; wait "$REPLAY_PID"; local rc=$?; set -e
    [ "$rc" -eq 0 ] || { cat "$T"/vg.*.log >&2; fail "valgrind run exited $rc"; }
    if [ -n "$(cat "$T"/vg.*.log)" ]; then cat "$T"/vg.*.log >&2; fail "valgrind reported problems"; fi
}

faults=()
for k in reset-mid-stream stall split-utf8 accept-no-answer headers-only \
    endless-line error-mid-stream keepalive http-429 role-first reasoning; do
    faults+=(--fault "$k@$k")
done
start_replay --synthetic 'ttft=20ms,tpot=5ms,tokens=8;model=keepalive,ttft=300ms' \
    "${faults[@]}" --log-sends "$T/sends.tsv"
body() { printf '{"model":"%s","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hello"}]}' "$1"; }
for m in plain split-utf8 error-mid-stream keepalive http-429 role-first reasoning; do
    [ "$(post /v1/chat/completions "$(body "$m")" "$T/$m")" = 0 ] || fail "$m failed"
done
post /v1/messages "$(body reasoning)" "$T/msg" >/dev/null
post /v1/completions '{"model":"m","prompt":"x"}' "$T/cmpl" >/dev/null
post /v1/nothing '{}' "$T/404" >/dev/null
post /v1/chat/completions '{bad' "$T/400" >/dev/null
assert_eq "$(status_of "$T/400")" 400 "400 under valgrind"
assert_eq "$(post /v1/chat/completions "$(body reset-mid-stream)" "$T/rst")" 56 "reset under valgrind"
for m in stall accept-no-answer headers-only endless-line; do
    assert_eq "$(post /v1/chat/completions "$(body "$m")" "$T/$m" --max-time 1)" 28 "$m under valgrind"
done
# A client that hangs up mid-stream, and one still streaming at SIGTERM.
post /v1/chat/completions "$(body plain)" "$T/cut" --max-time 0.06 >/dev/null
curl -sN "$URL/v1/chat/completions" -d "$(body stall)" -o /dev/null --max-time 5 &
wait_active 1
stop_checked
[ -s "$T/sends.tsv" ] || fail "send log empty after SIGTERM"

# Trace mode.
rm -f "$T"/vg.*.log
"$TT_GEN_TRACE" --replay "$T/rec.ttrace" "$T"
start_replay --trace "$T/rec.ttrace"
for m in model-a model-a model-b model-x; do
    post /v1/chat/completions "$(body $m)" "$T/t.$m" >/dev/null
done
stop_checked
echo "replay_valgrind: ok"
