#!/usr/bin/env bash
# share: every number stays. A trace recorded against every replay fault
# kind (and a healthy model) gives the same `summary --format json` (all
# groups, overall, every trace field but the file name) and the same
# per-request rows before and after share, with every chunk of the same
# size at the same time; concatenated traces and stdin too. The server's
# own words (server_message, error_messages) are filled to the same length
# (they may quote the prompt); with --keep-errors they stay, in every shape
# the faults send them: an "error" member, vLLM's "object":"error" event,
# llama.cpp's SSE "error:" line, an HTML page.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
A=$TT_ANALYZE
# a message's text is filled: compare its length
nowords='walk(if type == "object" then with_entries(if (.key | test("message")) and (.value | type) == "string" then .value |= length else . end) else . end)'

# every fault kind the replay server knows (its own table)
faults=$(sed -n 's/^ *\[FAULT_[A-Z0-9_]*\] = "\([a-z0-9-]*\)",$/\1/p' \
    "$TT_SOURCE_DIR/record/replay/replay_faults.c")
[ "$(echo "$faults" | wc -l)" -ge 20 ] || fail "fault kinds from --help: $faults"
args=() models=(-m healthy)
for f in $faults; do
    args+=(--fault "$f@m-$f")
    models+=(-m "m-$f")
done
start_replay --synthetic 'ttft=20ms,tpot=2ms,tokens=12' "${args[@]}"
"$TT_RECORD" -q -u "$URL" "${models[@]}" -n 2 --classes short-short,long-short -c 60 \
    --idle-timeout 1 --timeout 10 -o "$T/a.ttrace" 2>"$T/rec.err" || fail "record: $(cat "$T/rec.err")"

# the other API kinds: Anthropic events, completions text
for api in anthropic openai-completions; do
    "$TT_RECORD" -q -u "$URL" --api "$api" -m healthy -m m-reasoning -m m-split-utf8 \
        -n 2 --classes short-short -c 8 -o "$T/$api.ttrace" || fail "record $api"
    "$TT_ANALYZE" summary --format json "$T/$api.ttrace" | jq -S "$nowords | del(.traces[].file)" >"$T/$api.a"
    "$TT_ANALYZE" share "$T/$api.ttrace" -o "$T/$api.s.ttrace" >/dev/null || fail "share $api"
    "$TT_ANALYZE" summary --format json "$T/$api.s.ttrace" | jq -S "$nowords | del(.traces[].file)" >"$T/$api.s"
    cmp -s "$T/$api.a" "$T/$api.s" || fail "$api summary differs: $(diff "$T/$api.a" "$T/$api.s" | head)"
done

"$A" share "$T/a.ttrace" -o "$T/s.ttrace" >"$T/report.txt" || fail "share exit $?"
same() { # same NAME CMD...: CMD's output on a.ttrace and s.ttrace
    local name=$1; shift
    "$A" "$@" "$T/a.ttrace" 2>/dev/null | jq -S "$nowords"' | del(.traces[]?.file) | del(.file?)' >"$T/$name.a"
    "$A" "$@" "$T/s.ttrace" 2>/dev/null | jq -S "$nowords"' | del(.traces[]?.file) | del(.file?)' >"$T/$name.s"
    [ -s "$T/$name.a" ] || fail "$name: no output"
    diff "$T/$name.a" "$T/$name.s" >"$T/$name.diff" || fail "$name differs: $(head -20 "$T/$name.diff")"
}
same summary summary --format json
same by_model summary --format json --by model
same chunks_usage summary --format json --tokens chunks
same requests requests --format json
jq -e '.overall.requests >= 40 and (.overall.errors|length) >= 8' "$T/summary.a" >/dev/null ||
    fail "the trace lacks the faults: $(jq -c .overall.errors "$T/summary.a")"
# the server's words are filled, in every error shape; --keep-errors keeps them
"$A" requests --format json "$T/a.ttrace" >"$T/words.a"
"$A" requests --format json "$T/s.ttrace" >"$T/words.s"
for m in m-http-500 m-error-mid-stream m-error-field m-error-first m-error-object; do
    jq -se --arg m "$m" 'map(select(.model == $m and .server_message != null)) | length > 0' \
        "$T/words.a" >/dev/null || fail "$m: no server_message in the original"
    jq -se --arg m "$m" 'map(select(.model == $m and .server_message != null) | .server_message | test("^[x .:()\\[\\]-]*$")) | all' \
        "$T/words.s" >/dev/null || fail "$m: server_message kept: $(grep "$m" "$T/words.s" | head -2)"
done
"$A" share "$T/a.ttrace" -o "$T/ke.ttrace" --keep-errors >/dev/null || fail "share --keep-errors"
nowords='.'
for args in "summary --format json" "requests --format json"; do
    "$A" $args "$T/a.ttrace" | jq -S 'del(.traces[]?.file) | del(.file?)' >"$T/ke.a"
    "$A" $args "$T/ke.ttrace" | jq -S 'del(.traces[]?.file) | del(.file?)' >"$T/ke.s"
    diff "$T/ke.a" "$T/ke.s" >"$T/ke.diff" || fail "--keep-errors: $args differs: $(head -20 "$T/ke.diff")"
done
nowords='walk(if type == "object" then with_entries(if (.key | test("message")) and (.value | type) == "string" then .value |= length else . end) else . end)'

# chunk by chunk: same request, time and length, in the same order
"$A" dump "$T/a.ttrace" | jq -c 'select(.kind=="chunk")|[.request_id,.t_ns,.len]' >"$T/c.a"
"$A" dump "$T/s.ttrace" | jq -c 'select(.kind=="chunk")|[.request_id,.t_ns,.len]' >"$T/c.s"
cmp -s "$T/c.a" "$T/c.s" || fail "chunks differ in id, time or length"
# the text did change
"$A" dump "$T/a.ttrace" | jq -r 'select(.kind=="chunk")|.data // empty' >"$T/text.a"
"$A" dump "$T/s.ttrace" | jq -r 'select(.kind=="chunk")|.data // empty' >"$T/text.s"
grep -q lorem "$T/text.a" || fail "no text recorded"
grep -q lorem "$T/text.s" && fail "text survived"
"$A" check "$T/s.ttrace" >/dev/null || fail "shared trace does not check"

# concatenated, through stdin and stdout
cat "$T/a.ttrace" "$T/a.ttrace" >"$T/aa.ttrace"
"$A" share - -o - <"$T/aa.ttrace" >"$T/ss.ttrace" 2>"$T/report2.txt" || fail "share stdin exit"
grep -q '2 traces' "$T/report2.txt" || fail "report on stderr: $(cat "$T/report2.txt")"
"$A" summary --format json "$T/aa.ttrace" | jq -S "$nowords | del(.traces[].file)" >"$T/aa.json"
"$A" summary --format json "$T/ss.ttrace" | jq -S "$nowords | del(.traces[].file)" >"$T/ss.json"
cmp -s "$T/aa.json" "$T/ss.json" || fail "concatenated summary differs"
echo ok
