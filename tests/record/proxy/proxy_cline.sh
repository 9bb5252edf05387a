#!/usr/bin/env bash
# proxy_cline: the real Cline (npm cline 3.0.65, pinned) through
# tokentrace-proxy to tokentrace-replay, with a throwaway HOME. Replay
# answers like a model that uses tools: a script of two streamed OpenAI
# tool calls (gen_trace --script), Cline's `editor` creating hello.txt, then
# its `submit_and_exit` (the tools Cline 3.0.65 sends in `tools`, called as
# native tool_calls by its openai-compatible provider). Cline is pointed at
# the proxy by the one command tokentrace-proxy --print-cline-settings
# prints. Checks: the file is written; the capture holds one session of 2
# turns; the request bodies reach the upstream byte for byte (a second
# proxy behind the first records what it got) and the replies reach Cline
# byte for byte (the script's bytes); the key is in neither capture nor its
# `share`; --check reads Cline's providers.json; `-w capture` replays the
# session, and `compare --by turn` compares per turn.
# npm and the package are cached beside the tests' scratch (cline-npm), so
# a re-run does not install again. Exit 77 (skipped) only where the npm
# registry cannot be reached, with the reason; under TT_CI=1 that fails.
# npm alone may use the environment's proxy (lib.sh drops it for the rest)
NPM_ENV=()
for v in http_proxy https_proxy HTTPS_PROXY HTTP_PROXY no_proxy NO_PROXY; do
    [ -n "${!v:-}" ] && NPM_ENV+=("$v=${!v}")
done
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"
. "$TT_SOURCE_DIR/tests/lib/proxy_lib.sh"

CLINE_VERSION=3.0.65
KEY='sk-tt-cline-ci-0123456789abcdef'
MODEL=test-model
t_start=$(date +%s.%N)

skip() {
    if [ "${TT_CI:-}" = 1 ]; then fail "TT_CI=1 and $*"; fi
    echo "SKIP: $*" >&2
    exit 77
}

# the pinned Cline, installed once into the cache
NPMDIR=$(cd "${TT_TEST_TMP:?}/.." && pwd)/cline-npm
CLINE="$NPMDIR/node_modules/.bin/cline"
if ! [ -x "$CLINE" ] || [ "$("$CLINE" --version 2>/dev/null)" != "$CLINE_VERSION" ]; then
    command -v npm >/dev/null || skip "npm is not installed"
    command -v node >/dev/null || skip "node is not installed"
    env "${NPM_ENV[@]}" npm view "cline@$CLINE_VERSION" version >"$T/npmview.out" 2>&1 ||
        skip "the npm registry cannot be reached: $(tail -n 3 "$T/npmview.out")"
    mkdir -p "$NPMDIR"
    env "${NPM_ENV[@]}" npm install --prefix "$NPMDIR" --no-audit --no-fund --no-save --loglevel=error \
        "cline@$CLINE_VERSION" >"$T/npm.out" 2>&1 ||
        fail "npm install cline@$CLINE_VERSION: $(tail -n 20 "$T/npm.out")"
    [ "$("$CLINE" --version)" = "$CLINE_VERSION" ] || fail "installed cline is not $CLINE_VERSION"
fi
t_installed=$(date +%s.%N)

W="$T/work"
mkdir -p "$W" "$T/home"
export HOME="$T/home"
unset CLINE_DIR CLINE_DATA_DIR CLINE_PROVIDER_SETTINGS_PATH OPENAI_API_KEY OPENAI_BASE_URL HTTP_PROXY

# the script: two streamed tool calls in the OpenAI chat format
python3 - "$W" "$T" "$MODEL" <<'PY'
import json, sys
work, out, model = sys.argv[1:]
def reply(n, name, args):
    a = json.dumps(args, separators=(",", ":"))
    base = {"id": f"chatcmpl-{n}", "object": "chat.completion.chunk",
            "created": 1764460800, "model": model}
    ev = [dict(base, choices=[{"index": 0, "delta": {"role": "assistant", "content": None,
              "tool_calls": [{"index": 0, "id": f"call_{n}", "type": "function",
                              "function": {"name": name, "arguments": ""}}]},
              "finish_reason": None}])]
    for part in (a[:len(a) // 2], a[len(a) // 2:]):
        ev.append(dict(base, choices=[{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "function": {"arguments": part}}]}, "finish_reason": None}]))
    ev.append(dict(base, choices=[{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]))
    ev.append(dict(base, choices=[], usage={"prompt_tokens": 1500, "completion_tokens": 24,
                                            "total_tokens": 1524}))
    with open(f"{out}/reply{n}.sse", "w") as f:
        for e in ev:
            f.write("data: " + json.dumps(e, separators=(",", ":")) + "\n\n")
        f.write("data: [DONE]\n\n")
reply(1, "editor", {"path": work + "/hello.txt", "new_text": "hi"})
reply(2, "submit_and_exit", {"summary": "Created hello.txt containing hi.", "verified": True})
PY
"$TT_GEN_TRACE" --script "$T/script.ttrace" "$MODEL" "$T/reply1.sse" "$T/reply2.sse" ||
    fail "gen_trace --script"

# Cline -> proxy (the capture) -> proxy (what the upstream got) -> replay
start_replay --trace "$T/script.ttrace"
start_proxy "$T/up.ttrace.zst" -q # compressed (the default): its size beside the plain capture
UP_PID=$PROXY_PID UP_ERR=$PXERR
URL=$PXURL start_proxy "$T/cap.ttrace" -q --no-compress
"$TT_PROXY" --print-cline-settings -u "$URL" --listen "${PXURL#http://}" >"$T/print.out" ||
    fail "proxy --print-cline-settings"
auth=$(sed -n 's#^//   \(cline auth .*\)$#\1#p' "$T/print.out")
[ -n "$auth" ] || fail "no cline auth command printed: $(cat "$T/print.out")"
auth=${auth/MODEL_ID/$MODEL}
export OPENAI_API_KEY=$KEY # the printed command reads the key from it
eval "\"\$CLINE\" ${auth#cline }" >"$T/auth.out" 2>&1 || fail "$auth: $(cat "$T/auth.out")"
unset OPENAI_API_KEY
P="$HOME/.cline/data/settings/providers.json"
[ -f "$P" ] || fail "cline auth wrote no $P"

t_cline=$(date +%s.%N)
set +e
timeout -s INT -k 10 90 "$CLINE" --json -y -c "$W" "create hello.txt containing hi" \
    >"$T/cline.out" 2>"$T/cline.err"
rc=$?
set -e
t_cline_end=$(date +%s.%N)
[ "$rc" -eq 0 ] || fail "cline exited $rc: $(tail -n 5 "$T/cline.out") $(tail -n 5 "$T/cline.err")"
assert_eq "$(cat "$W/hello.txt" 2>/dev/null)" hi "the task's file"
assert_eq "$(tail -n 1 "$T/cline.out" | jq -r '"\(.finishReason) \(.iterations)"')" "completed 2" "Cline's result"
stop_proxy
PROXY_PID=$UP_PID PXERR=$UP_ERR stop_proxy

# the capture: one session, turns 1 and 2, the 4 tools, Cline's bodies
cap=$(dump "$T/cap.ttrace")
up=$(dump "$T/up.ttrace.zst")
check_complete "$cap" 2
assert_eq "$(jqs "$cap" '[.[]|select(.kind=="request")|"\(.session) \(.turn)"]|join(",")')" "1 1,1 2" "sessions and turns"
assert_eq "$(jqs "$cap" '[.[]|select(.kind=="result")|.http_status]|join(",")')" "200,200" "statuses"
assert_eq "$(jqs "$cap" '[.[]|select(.kind=="request")|.body|fromjson|[.tools[].function.name]|join(" ")]|unique|join(",")')" \
    "read_files run_commands editor submit_and_exit" "Cline's tools"
assert_eq "$(jqs "$cap" '.[]|select(.kind=="request" and .turn==2)|.body|fromjson|.messages|map(.role)|join(" ")')" \
    "system user user assistant tool" "turn 2 carries the tool call and its result"
python3 - "$cap" "$up" "$T/reply1.sse" "$T/reply2.sse" <<'PY'
import base64, json, sys
def load(path):
    recs = [json.loads(l) for l in open(path)]
    bodies = [r["body"] for r in recs if r["kind"] == "request"]
    got = {}
    for r in recs:
        if r["kind"] == "chunk":
            b = r["data"].encode() if "data" in r else base64.b64decode(r["data_b64"])
            got[r["request_id"]] = got.get(r["request_id"], b"") + b
    return bodies, got
cb, cg = load(sys.argv[1])
ub, ug = load(sys.argv[2])
assert cb == ub, "request bodies changed on the way to the upstream"
for i, f in enumerate(sys.argv[3:], 1):
    want = open(f, "rb").read()
    assert cg[i] == want, f"reply {i} reached Cline changed"
    assert ug[i] == want, f"reply {i} left the upstream changed"
PY
[ $? -eq 0 ] || fail "bytes"

# no key anywhere: the captures, their share, the proxies' stderr
"$TT_ANALYZE" share "$T/cap.ttrace" -o "$T/shared.ttrace" >"$T/share.out" 2>&1 ||
    fail "share: $(cat "$T/share.out")"
"$TT_ANALYZE" dump "$T/shared.ttrace" >"$T/shared.jsonl"
command -v zstd >/dev/null || fail "the zstd command is needed to read the capture's bytes"
for f in "$T/cap.ttrace" "$T/up.ttrace.zst" "$cap" "$up" "$T/shared.ttrace" "$T/shared.jsonl" \
    "$T/share.out" "$T/cap.ttrace.err" "$T/up.ttrace.zst.err"; do
    if zstd -dcf "$f" | grepq -aF "$KEY"; then fail "the key is in $f"; fi
done

# the doctor reads the providers.json `cline auth` wrote (the proxy's URL)
OUT=$("$TT_RECORD" --check --cline-settings "$HOME/.cline/data" 2>&1 >/dev/null | sed -n 1p || true)
case $OUT in
*"Cline's providers.json, provider openai-compatible (lastUsedProvider): base URL $PXURL/v1, model $MODEL"*) ;;
*) fail "--check with Cline's file: $OUT" ;;
esac

# -w capture replays the session; compare per turn
start_replay --synthetic 'ttft=10ms,tpot=1ms,tokens=8'
"$TT_RECORD" -w "$T/cap.ttrace" -u "$URL" -m "$MODEL" -o "$T/rep.ttrace" -q 2>"$T/rep.err" ||
    fail "-w capture: $(cat "$T/rep.err")"
rep=$(dump "$T/rep.ttrace")
check_complete "$rep" 2
assert_eq "$(jqs "$rep" '[.[]|select(.kind=="request")|"\(.session) \(.turn)"]|join(",")')" "1 1,1 2" "replayed turns"
assert_eq "$(jqs "$rep" '[.[]|select(.kind=="request")|.body]')" "$(jqs "$cap" '[.[]|select(.kind=="request")|.body]')" \
    "replayed bodies (same model)"
"$TT_ANALYZE" compare "$T/cap.ttrace" "$T/rep.ttrace" --by turn --format json >"$T/cmp.json" 2>"$T/cmp.err" ||
    fail "compare --by turn: $(cat "$T/cmp.err")"
assert_eq "$(jq -c '[.comparisons[0].groups[]|.turn]' "$T/cmp.json")" '["1","2"]' "compare groups"

t_end=$(date +%s.%N)
python3 -c "import sys; a=[float(x) for x in sys.argv[1:]]; print('proxy_cline: install %.1f s, cline %.1f s, total %.1f s, capture %d bytes (%d compressed)' % (a[1]-a[0], a[3]-a[2], a[4]-a[0], a[5], a[6]))" \
    "$t_start" "$t_installed" "$t_cline" "$t_cline_end" "$t_end" "$(stat -c %s "$T/cap.ttrace")" "$(stat -c %s "$T/up.ttrace.zst")"
echo ok
