#!/usr/bin/env bash
# analyze_real_sessions: sessions against what the server itself said.
# 1. The real llama-server's session run (tests/data/real-server/
#    sess-sess.ttrace.zst: 2 sessions x 5 turns, prompt cache on) reports
#    usage.prompt_tokens and timings.prompt_n but no cached-token field;
#    the cached input tokens were left empty. Now derived, per request
#    prompt_tokens − prompt_n (checked against the trace's own final
#    chunks here), and said to be derived (text and JSON), once (not per
#    turn) in the table, markdown and the HTML report, where they are a
#    column of the summary table.
# 2. The only session ends in a failed turn: "sessions: 1 (0 complete),
#    nan turns p50" before; now the turns it got to, and why no wait.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
fx="$TT_SOURCE_DIR/tests/data/real-server/sess-sess.ttrace.zst"
"$TT_ANALYZE" requests "$fx" --format json >"$T/r.jsonl" || fail "requests"
# the server's own account, from the chunk bytes: usage.prompt_tokens and
# timings.prompt_n of each request's final chunk
"$TT_ANALYZE" dump "$fx" >"$T/d.jsonl" || fail "dump"
server_account "$T/d.jsonl" '.usage != null and .timings != null' \
    '\($f.usage.prompt_tokens - $f.timings.prompt_n)' >"$T/want"
jq -r '"\(.id) \(.cached_tokens)"' "$T/r.jsonl" | sort -n >"$T/got"
[ "$(wc -l <"$T/want")" -eq 10 ] || fail "the fixture's final chunks: $(cat "$T/want")"
diff "$T/want" "$T/got" >"$T/diff" || fail "cached tokens are not prompt_tokens - prompt_n: $(cat "$T/diff")"
"$TT_ANALYZE" summary "$fx" >"$T/s.txt" 2>&1 || fail "summary"
tr '\n' ' ' <"$T/s.txt" | sed 's/  */ /g' | grepq "derived in 10: usage.prompt_tokens − timings.prompt_n" ||
    fail "summary does not say the cached tokens are derived: $(cat "$T/s.txt")"
# per turn: one footnote says they were derived, not one per group
"$TT_ANALYZE" summary "$fx" --by turn --width 80 >"$T/t.txt" 2>&1 || fail "summary --by turn"
assert_eq "$(grep -c 'derived in' "$T/t.txt")" 1 "derived notes per turn: $(cat "$T/t.txt")"
tr '\n' ' ' <"$T/t.txt" | sed 's/  */ /g' | grepq "derived in 10: usage.prompt_tokens − timings.prompt_n" ||
    fail "summary --by turn does not say the cached tokens are derived: $(cat "$T/t.txt")"
# markdown: what the sections are grouped by, and the derived note once
"$TT_ANALYZE" summary "$fx" --by turn --format markdown >"$T/t.md" || fail "summary markdown"
assert_eq "$(grep -c '^grouped by: turn$' "$T/t.md")" 1 "markdown names the --by key"
assert_eq "$(grep -c 'derived in 10 of 10: usage.prompt_tokens − timings.prompt_n' "$T/t.md")" 1 \
    "markdown's derived note: $(cat "$T/t.md")"
# HTML: cached input tokens a column of the summary table, the note once
"$TT_ANALYZE" plot "$fx" -o "$T/charts" --html >/dev/null 2>&1 || fail "plot --html"
grepq '<th class="n">cached tok p50</th></tr></thead>' <"$T/charts/report.html" ||
    fail "no cached column in the HTML summary table"
assert_eq "$(grep -c 'derived in 10: usage.prompt_tokens &minus; timings.prompt_n' "$T/charts/report.html")" 1 \
    "the HTML's derived note"
"$TT_ANALYZE" summary "$fx" --format json >"$T/s.json" || fail "summary json"
want=$(jq -r '.overall.cached_tokens.p50' "$T/s.json")
grepq "<td class=\"n\" data-v=\"$want\">[0-9.]*</td></tr>" <"$T/charts/report.html" ||
    fail "the HTML's cached cell is not the p50 $want"
assert_eq "$(jq -r '.overall.cached_tokens_derived' "$T/s.json")" 10 "JSON cached_tokens_derived"

# 2: one session whose every turn fails
cat >"$T/w.jsonl" <<'JSONL'
{"class":"chat","conversation":[{"role":"user","content":"one"},{"role":"assistant","content":"a"},{"role":"user","content":"two"}]}
JSONL
start_replay -q --synthetic 'ttft=2ms,tpot=1ms,tokens=3' --fault error-mid-stream@bad
"$TT_RECORD" -q -u "$URL" -m bad -w "$T/w.jsonl" -n 1 -c 1 -o "$T/f.ttrace" 2>/dev/null || true
"$TT_ANALYZE" summary "$T/f.ttrace" >"$T/f.txt" 2>&1 || true
grep -q "^sessions: 1 (0 complete" "$T/f.txt" || fail "no sessions line: $(cat "$T/f.txt")"
if grep -qi "nan" "$T/f.txt"; then fail "nan in the summary: $(grep -i nan "$T/f.txt")"; fi
turns=$(jq -s '[.[] | select(.kind == "request" and .session != null)] | length' "$("$TT_ANALYZE" dump "$T/f.ttrace" >"$T/f.jsonl"; echo "$T/f.jsonl")")
tr '\n' ' ' <"$T/f.txt" | grepq "each ended in a failed turn), $turns turns p50" ||
    fail "turns p50 is not the trace's $turns: $(cat "$T/f.txt")"
echo "analyze_real_sessions: ok"
