#!/usr/bin/env bash
# record_check_context: --check against the real llama-server's own reply
# to a prompt over its context (the bytes of request 3 of the fixture
# tests/data/real-server/err-err.ttrace.zst, served again by
# tokentrace-replay): HTTP 200, then "error: {...the request exceeds the
# available context size...}" before any token. The same prompt fails the
# same way every time, so the verdict must not say "check again later"
# (it did: stream-error's fix); it names the context and how to widen it.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/doctor_lib.sh"
unset OPENAI_API_KEY OPENAI_BASE_URL

fx="$TT_SOURCE_DIR/tests/data/real-server/err-err.ttrace.zst"
"$TT_ANALYZE" dump "$fx" >"$T/err.jsonl" || fail "dump the fixture"
jq -j 'select(.kind == "chunk" and .request_id == 3) | .data' "$T/err.jsonl" >"$T/reply.sse"
grep -q "exceeds the available context size" "$T/reply.sse" ||
    fail "the fixture's request 3 is not the context error: $(head -c 300 "$T/reply.sse")"
"$TT_GEN_TRACE" --script "$T/script.ttrace" tiny "$T/reply.sse" || fail "gen_trace --script"
start_replay -q --trace "$T/script.ttrace"
rec ctx --check -u "$URL" -m tiny
expect_rc 1 ctx
grep -qE "^[^ ]+: FAIL context-full: prompt longer than the context" "$T/ctx.out" ||
    fail "no context-full verdict: $(cat "$T/ctx.out")"
has ctx.out "exceeds the available context size"
has ctx.out "fails the same way every time"
hasnt ctx.out "check again later"
cat "$T/ctx.out"
echo "record_check_context: ok"
