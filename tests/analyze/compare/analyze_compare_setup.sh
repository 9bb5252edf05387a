#!/usr/bin/env bash
# compare says when it cannot judge, and when it judges different setups:
# a default run (-n 3) against another gives NO VERDICT once, loudly, with
# the -n that would do (stderr, the table, markdown and JSON), and -n of
# that size gives verdicts; sides recorded with another API kind, another
# concurrency or another workload are warned about and still compared.
# Recorded through real HTTP against tokentrace-replay.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
A=$TT_ANALYZE
start_replay --synthetic 'ttft=15ms,tpot=2ms,tokens=6'
CLEAN=$URL
rec() { "$TT_RECORD" -q -u "$CLEAN" -m m --classes short-short "$@"; }

rec -o "$T/a.ttrace"
rec -o "$T/b.ttrace"
"$A" compare "$T/a.ttrace" "$T/b.ttrace" --wide >"$T/ab.txt" 2>"$T/ab.err"
assert_eq "$(grep -c 'NO VERDICT' "$T/ab.err")" 1 "one loud warning"
grep -q 'compare: NO VERDICT for 1 of 1 group: fewer than 5 requests on a side give no verdict ("too few"); record each side with -n 5 or more' "$T/ab.err" ||
    fail "warning text: $(cat "$T/ab.err")"
grep -q '^NO VERDICT for 1 of 1 group: fewer than 5 requests on a side; record each side with -n 5 or more$' "$T/ab.txt" ||
    fail "table line: $(cat "$T/ab.txt")"
grep -q 'warning: the sides differ' "$T/ab.txt" "$T/ab.err" && fail "same setup warned"
"$A" compare "$T/a.ttrace" "$T/b.ttrace" --format json 2>/dev/null |
    jq -e '.comparisons[0].too_few == {"groups":1,"needed_n":5} and ([.comparisons[0].setup[]|.differs]|any|not)' >/dev/null ||
    fail "json too_few"
"$A" compare "$T/a.ttrace" "$T/b.ttrace" --format markdown 2>/dev/null | grepq '^> \*\*NO VERDICT\*\* for 1 of 1 group' ||
    fail "markdown line"

# a side that fails some requests needs more of them: -n scales by its
# own success rate (ceil(5 x requests / ok))
start_replay --synthetic 'ttft=15ms,tpot=2ms,tokens=6' --fault http-500:0.5
"$TT_RECORD" -q -u "$URL" -m m --classes short-short -n 4 --seed 3 -o "$T/f.ttrace" || true
"$A" compare "$T/a.ttrace" "$T/f.ttrace" --format json 2>/dev/null >"$T/f.json"
ok=$(jq '.comparisons[0].groups[0].new.ok' "$T/f.json")
if [ "$ok" -gt 0 ] && [ "$ok" -lt 4 ]; then
    assert_eq "$(jq '.comparisons[0].too_few.needed_n' "$T/f.json")" "$(((20 + ok - 1) / ok))" \
        "needed n at $ok of 4 ok"
fi

# enough requests: verdicts, no notice
rec -n 6 -o "$T/a6.ttrace"
rec -n 6 -o "$T/b6.ttrace"
"$A" compare "$T/a6.ttrace" "$T/b6.ttrace" --wide >"$T/ok.txt" 2>"$T/ok.err"
grep -q 'NO VERDICT' "$T/ok.txt" "$T/ok.err" && fail "verdict expected with -n 6"
grep -q '=> m / short-short: TTFT ' "$T/ok.txt" || fail "verdict line"

# another API kind, another concurrency, another workload: warned, compared
rec -n 6 --api openai-completions -o "$T/c6.ttrace"
"$A" compare "$T/a6.ttrace" "$T/c6.ttrace" --wide >"$T/api.txt" 2>"$T/api.err"
grep -q 'compare: the sides differ in API kind: base openai-chat, new openai-completions; compared all the same' "$T/api.err" ||
    fail "api warning: $(cat "$T/api.err")"
grep -q '^warning: the sides differ in API kind: base openai-chat, new openai-completions (compared all the same)$' "$T/api.txt" ||
    fail "api table line"
grep -q '=> m / short-short: TTFT ' "$T/api.txt" || fail "still compared"
rec -n 6 -c 2 -o "$T/k6.ttrace"
"$A" compare "$T/a6.ttrace" "$T/k6.ttrace" --format json 2>"$T/conc.err" >"$T/conc.json"
grep -q 'differ in load: base concurrency=1, new concurrency=2' "$T/conc.err" || fail "load warning: $(cat "$T/conc.err")"
jq -e '.comparisons[0].setup.load == {"base":"concurrency=1","new":"concurrency=2","differs":true} and (.comparisons[0].groups|length) == 1' \
    "$T/conc.json" >/dev/null || fail "load in json"
printf '{"class":"short-short","prompt":"Say hi."}\n' >"$T/w.jsonl"
rec -n 6 -w "$T/w.jsonl" -o "$T/w6.ttrace"
"$A" compare "$T/a6.ttrace" "$T/w6.ttrace" 2>"$T/wl.err" >/dev/null
grep -q "differ in workload: base builtin, new $T/w.jsonl" "$T/wl.err" || fail "workload warning: $(cat "$T/wl.err")"
echo ok
