#!/usr/bin/env bash
# share: no byte of planted text survives. Marker strings planted in the
# prompts (plain, JSON-escaped, non-ASCII, inside code and tool calls) and
# the replay server's reply words are gone from the shared file's bytes;
# the recorder's host and command line are gone; response headers are
# reduced and the report says so; --keep-prompts keeps the prompts only;
# --anonymize-models renames models and label values everywhere; info
# says the trace was shared; bad arguments are usage errors.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
A=$TT_ANALYZE

cat >"$T/w.jsonl" <<'JSONL'
{"class":"short-short","max_tokens":16,"messages":[{"role":"system","content":"You are MARKERSYSTEM42."},{"role":"user","content":"def marker_function_zq():\n    return \"MARKERCODE\"  # \u00e9t\u00e9 \u6a5f\u5bc6"}]}
{"class":"short-short","max_tokens":16,"messages":[{"role":"user","content":[{"type":"text","text":"Ünïcödé MARKERPART 機密マーカー"}]}],"tools":[{"type":"function","function":{"name":"markertool","description":"MARKERTOOLDESC"}}]}
JSONL
start_replay --synthetic 'ttft=5ms,tpot=1ms,tokens=30' --fault leaky-headers@secretmodel-b \
    --fault split-utf8@secretmodel-a
"$TT_RECORD" -q -u "$URL" -m secretmodel-a -m secretmodel-b -w "$T/w.jsonl" -n 2 -c 4 \
    --label team=marker-team -o "$T/a.ttrace" || fail "record"
# the words the replay server streams (lorem ipsum, and UTF-8 ones)
words='lorem|ipsum|dolor|consectetur|adipiscing|h.llo|caf.|世界|日本|мир|λόγος'
grep -aqE "$words" "$T/a.ttrace" || fail "no reply text recorded"
grep -aq MARKERCODE "$T/a.ttrace" || fail "no prompt recorded"
host=$(hostname)

"$A" share "$T/a.ttrace" -o "$T/s.ttrace" >"$T/report.txt" || fail "share exit $?"
for m in MARKER marker_function 機密 機 マーカー 'u6a5f' 'u00e9t' Ünïcödé; do
    grep -aqF -- "$m" "$T/s.ttrace" && fail "planted text '$m' survived share"
done
grep -aqE "$words" "$T/s.ttrace" && fail "reply text survived share"
grep -aqF -- "$host" "$T/s.ttrace" && [ ${#host} -ge 4 ] && fail "host name survived"
grep -aqF -- "-w $T" "$T/s.ttrace" && fail "command line survived"
"$A" dump "$T/s.ttrace" >"$T/s.jsonl"
grep -qF MARKER "$T/s.jsonl" && fail "planted text in dump"
# kept: models, labels, roles, ids, usage, finish reasons
grep -aqF secretmodel-a "$T/s.ttrace" || fail "model names should stay"
grep -aqF marker-team "$T/s.ttrace" || fail "labels should stay"
jq -se 'map(select(.kind=="request")|.body|fromjson|.messages[0].role)|length>0 and all(.=="system" or .=="user")' "$T/s.jsonl" >/dev/null || fail "roles"
grep -qF 'finish_reason\":\"length' "$T/s.jsonl" || fail "finish_reason kept"
grep -qF 'completion_tokens' "$T/s.jsonl" || fail "usage kept"
# headers: credentials' markers and the unknown ones dropped, request ids kept
jq -se 'map(select(.kind=="result" and (.headers|has("set-cookie") or has("x-api-key"))))|length==0' "$T/s.jsonl" >/dev/null || fail "redacted headers kept"
jq -se 'map(select(.kind=="result")|.headers|has("content-type"))|all' "$T/s.jsonl" >/dev/null || fail "content-type dropped"
grep -qE 'response header values: [1-9][0-9]* \(.*set-cookie' "$T/report.txt" || fail "report: $(cat "$T/report.txt")"
grep -qE 'prompt text: [1-9][0-9]* bytes in 4 request bodies' "$T/report.txt" || fail "report prompts: $(cat "$T/report.txt")"
grep -qE 'reply text: [1-9][0-9]* bytes' "$T/report.txt" || fail "report replies"

# info: a recording says it is not shared, the shared copy says it is
"$A" info "$T/a.ttrace" | grepq -F '| shared | no: ' || fail "info of the recording"
"$A" info "$T/s.ttrace" >"$T/info.md"
grep -qF '| shared | by=tokentrace-analyze ' "$T/info.md" || fail "info: $(cat "$T/info.md")"
grep -qF 'prompts=filled, replies=filled, models=kept, headers=reduced' "$T/info.md" || fail "info fields"
grep -qF '| recorder host | (removed by share) |' "$T/info.md" || fail "info host"

# --keep-prompts: the prompts stay, the replies do not
"$A" share "$T/a.ttrace" -o "$T/k.ttrace" --keep-prompts >/dev/null || fail "keep-prompts"
grep -aqF MARKERCODE "$T/k.ttrace" || fail "--keep-prompts lost the prompt"
grep -aqE "$words" "$T/k.ttrace" && fail "--keep-prompts kept reply text"
"$A" info "$T/k.ttrace" | grepq -F 'prompts=kept' || fail "info of --keep-prompts"

# --anonymize-models: no model name or label value left, groups renamed
"$A" share "$T/a.ttrace" -o "$T/n.ttrace" --anonymize-models >"$T/n.txt" || fail "anonymize"
grep -aq secretmodel "$T/n.ttrace" && fail "model name survived --anonymize-models"
grep -aq marker-team "$T/n.ttrace" && fail "label value survived --anonymize-models"
"$A" summary --format json "$T/n.ttrace" >"$T/n.json"
assert_eq "$(jq -r '[.groups[].model]|unique|join(",")' "$T/n.json")" "model-1,model-2" "renamed groups"
"$A" summary --format json "$T/a.ttrace" >"$T/a.json"
assert_eq "$(jq -c '.overall|del(.model)' "$T/n.json")" "$(jq -c '.overall|del(.model)' "$T/a.json")" "overall numbers with renamed models"
grep -q 'renamed: 2 model names, 1 label value' "$T/n.txt" || fail "report of renames: $(cat "$T/n.txt")"

# usage errors; an existing output only with --force; never over the input
expect_exit 2 "$A" share "$T/a.ttrace" 2>/dev/null
expect_exit 2 "$A" share -o "$T/x.ttrace" 2>/dev/null
expect_exit 2 "$A" share "$T/a.ttrace" -o "$T/x.ttrace" --bogus 2>/dev/null
expect_exit 2 "$A" share "$T/a.ttrace" -o "$T/s.ttrace" 2>"$T/e.txt"
grep -q -- '--force' "$T/e.txt" || fail "exists message: $(cat "$T/e.txt")"
"$A" share "$T/a.ttrace" -o "$T/s.ttrace" --force >/dev/null || fail "--force"
expect_exit 2 "$A" share "$T/a.ttrace" -o "$T/a.ttrace" --force 2>/dev/null
grep -aq MARKERCODE "$T/a.ttrace" || fail "the input was overwritten"
"$A" share --help | grepq -- '--anonymize-models' || fail "help"
# damaged input: the records before the damage, exit 1, the offset named
size=$(stat -c %s "$T/a.ttrace")
head -c $((size - 40)) "$T/a.ttrace" >"$T/cut.ttrace"
expect_exit 1 "$A" share "$T/cut.ttrace" -o "$T/cs.ttrace" >/dev/null 2>"$T/cut.err"
grep -qE 'cut.ttrace: byte [0-9]+: record truncated' "$T/cut.err" || fail "damage: $(cat "$T/cut.err")"
"$A" check "$T/cs.ttrace" >/dev/null 2>&1 && fail "a cut copy checks as complete"
echo ok
