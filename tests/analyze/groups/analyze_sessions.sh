#!/usr/bin/env bash
# What sessions report (docs/metrics.md, "Sessions and prompt caching"),
# from traces recorded over real HTTP against tokentrace-replay with a
# prefix cache: summary --by turn has one group per turn index, turn 1
# slower than the later ones (the cache) with no cached tokens and the
# later turns with most of their input cached; the cached tokens are read
# from each API's own usage form (OpenAI, Anthropic, llama.cpp timings);
# the total wait per session is the sum of its turns' latencies; plot
# adds the turns chart; an old trace still reads and groups as (none).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

python3 - "$T/conv.jsonl" <<'PY'
import json, sys
sysm = "You are a careful coding agent with tools. " * 100      # ~1,100 tokens
conv = [{"role": "system", "content": sysm}]
for i in range(4):
    conv.append({"role": "user", "content": ("[read_file %d] Result:\n" % i) + "int x = %d;\n" % i * 40})
    conv.append({"role": "assistant", "content": "<read_file><path>f%d.c</path></read_file>" % i})
open(sys.argv[1], "w").write(json.dumps({"class": "agent-like", "conversation": conv[:-1]}) + "\n")
PY
start_replay --synthetic 'ttft=5ms,ttft_per_1k=200ms,tpot=1ms,tokens=6,cache=1000000'
"$TT_RECORD" -q -u "$URL" -m m -w "$T/conv.jsonl" -n 3 -c 1 --think-time 10ms \
    -o "$T/s.ttrace" || fail "record"
"$TT_ANALYZE" summary "$T/s.ttrace" --by turn --format json >"$T/s.json" || fail "summary json"
jq_check() { assert_eq "$(jq -r "$1" "$T/s.json")" "$2" "$1"; }
jq_check '[.groups[].turn]|join(",")' "1,2,3,4"
jq_check '[.groups[].requests]|join(",")' "3,3,3,3"
# turn 1 of session 1 found nothing cached, the other sessions' turn 1 all
jq_check '.groups[0].cached_tokens.min' 0
jq_check '.groups[1].cached_tokens.min > 1000' true
# turn 2 reads turn 1's prompt from the cache: well under turn 1's TTFT p99
jq_check '.groups[0].ttft_ms.max > 200' true
jq_check '.groups[1].ttft_ms.p50 < .groups[0].ttft_ms.max - 150' true
jq_check '.groups[0].input_tokens.p50 < .groups[3].input_tokens.p50' true
jq_check '.overall.sessions.n' 3
jq_check '.overall.sessions.complete' 3
jq_check '.overall.sessions.turns.p50' 4
# the total wait is the sum of the latencies of the session's turns
"$TT_ANALYZE" requests "$T/s.ttrace" --format json >"$T/r.json" || fail "requests"
want=$(jq -s 'map(.latency_ms)|add' "$T/r.json")
got=$(jq '.overall.sessions.total_wait_ms.mean * 3' "$T/s.json")
python3 -c "import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); sys.exit(abs(a-b)>0.01)" "$want" "$got" ||
    fail "total wait: sum of latencies $want, sessions $got"
"$TT_ANALYZE" summary "$T/s.ttrace" --by turn >"$T/s.txt" || fail "summary"
grep -q "^sessions: 3 (3 complete), 4 turns p50; total wait per session" "$T/s.txt" ||
    fail "no sessions line: $(cat "$T/s.txt")"
# the group column is headed by the --by key, and the cached input tokens
# are a column of the table (one footnote says what it holds), not a line
# per group; at 70 columns there is no room and the lines come back
"$TT_ANALYZE" summary "$T/s.ttrace" --by turn --width 80 >"$T/s80.txt" || fail "summary 80"
awk 'NR == 4' "$T/s80.txt" | grepq '^turn  *n fail .* in cached$' ||
    fail "header names no turn or no cached column: $(cat "$T/s80.txt")"
want=$(jq -r '.groups[1].cached_tokens.p50 | round' "$T/s.json")
assert_eq "$(awk '$1 == "2" {print $NF}' "$T/s80.txt")" "$want" "turn 2's cached cell"
assert_eq "$(grep -c 'cached input tokens:' "$T/s80.txt")" 0 "cached lines with the column"
assert_eq "$(grep -c '^cached: p50 of the input tokens the server found cached (12 of 12 ok' "$T/s80.txt")" 1 \
    "the cached column's footnote"
awk '{ if (length($0) > 80) bad = 1 } END { exit bad }' "$T/s80.txt" || fail "over 80 columns: $(cat "$T/s80.txt")"
"$TT_ANALYZE" summary "$T/s.ttrace" --by turn --width 70 >"$T/s70.txt" || fail "summary 70"
grepq "^cached input tokens: 2 p50" <"$T/s70.txt" || fail "no cached line at 70 columns: $(cat "$T/s70.txt")"
assert_eq "$(grep -c '^cached: ' "$T/s70.txt")" 1 "the footnote at 70 columns"

# Anthropic: cache_read_input_tokens, and input tokens are the whole prompt
"$TT_RECORD" -q -u "$URL" -m m -w "$T/conv.jsonl" -n 1 --api anthropic \
    -o "$T/a.ttrace" || fail "anthropic"
"$TT_ANALYZE" summary "$T/a.ttrace" --by turn --format json >"$T/a.json" || fail "a json"
assert_eq "$(jq '.groups[1].cached_tokens.p50 > 1000' "$T/a.json")" true "anthropic cached tokens"
assert_eq "$(jq '.groups[1].input_tokens.p50 > .groups[1].cached_tokens.p50' "$T/a.json")" true \
    "anthropic input tokens include the cached ones"
# llama.cpp: timings.cache_n (no usage with it)
kill "$REPLAY_PID"
start_replay --synthetic 'ttft=5ms,ttft_per_1k=100ms,tpot=1ms,tokens=4,cache=1000000' --fault llama-timings
"$TT_RECORD" -q -u "$URL" -m m -w "$T/conv.jsonl" -n 1 -o "$T/l.ttrace" || fail "llama"
"$TT_ANALYZE" summary "$T/l.ttrace" --by turn --format json >"$T/l.json" || fail "l json"
assert_eq "$(jq '.groups[2].cached_tokens.p50 > 1000' "$T/l.json")" true "llama.cpp cache_n"

# the turns chart, only for sessions
"$TT_ANALYZE" plot "$T/s.ttrace" -o "$T/charts" >/dev/null 2>&1 || fail "plot"
[ -s "$T/charts/turns.dat" ] && [ -s "$T/charts/turns.gp" ] || fail "no turns chart"
grep -q 'cached prefix' "$T/charts/turns.dat" || fail "no cached block"
grep -q 'uncached' "$T/charts/turns.dat" || fail "no uncached block"

# an old trace: no sessions, nothing new in its JSON, --by turn groups (none)
old=$(tt_data analyze/golden/a.ttrace)
"$TT_ANALYZE" summary "$old" --by turn --format json >"$T/old.json" || fail "old trace"
assert_eq "$(jq -r '[.groups[].turn]|join(",")' "$T/old.json")" "(none)" "old trace by turn"
assert_eq "$(jq '.overall|has("sessions") or has("cached_tokens")' "$T/old.json")" false \
    "old trace: no session keys"
"$TT_ANALYZE" plot "$old" -o "$T/oldcharts" >/dev/null 2>&1 || true
[ ! -e "$T/oldcharts/turns.dat" ] || fail "turns chart without sessions"
echo ok
