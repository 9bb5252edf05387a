#!/usr/bin/env bash
# trend keeps API kinds apart: a chat run and a completions run of the
# same model (real HTTP to tokentrace-replay, which serves both) are two
# rows in every format, never one merged row; the table labels them in an
# api column, which a single-kind trend does not show.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
A=$TT_ANALYZE
start_replay --synthetic 'ttft=15ms,tpot=2ms,tokens=6'
"$TT_RECORD" -q -u "$URL" -m m --classes short-short -n 4 -o "$T/chat.ttrace"
"$TT_RECORD" -q -u "$URL" -m m --classes short-short -n 3 --api openai-completions -o "$T/compl.ttrace"

"$A" trend "$T/chat.ttrace" "$T/compl.ttrace" --format json >"$T/t.json"
assert_eq "$(jq -r '[.rows[]|"\(.model)/\(.api)=\(.requests)"]|join(",")' "$T/t.json")" \
    "m/openai-chat=4,m/openai-completions=3" "one row per API kind"
"$A" trend "$T/chat.ttrace" "$T/compl.ttrace" --format csv >"$T/t.csv"
python3 - "$T/t.csv" <<'PY' || fail "csv api column"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert [(r["model"], r["api"], r["requests"]) for r in rows] == [
    ("m", "openai-chat", "4"), ("m", "openai-completions", "3")], rows
PY
"$A" trend "$T/chat.ttrace" "$T/compl.ttrace" --wide >"$T/t.txt"
grep -qE '^period +model +class +api +traces' "$T/t.txt" || fail "api column: $(cat "$T/t.txt")"
grep -qE '^[0-9]{4}-W[0-9]{2} +m +short-short +openai-completions +1 +3 ' "$T/t.txt" || fail "completions row"
grep -q 'rows of different API kinds are kept apart' "$T/t.txt" || fail "note"
"$A" trend "$T/chat.ttrace" "$T/compl.ttrace" --format markdown | grepq '^| period | model | class | api | traces |' ||
    fail "markdown api column"
# one kind: no api column
"$A" trend "$T/chat.ttrace" --wide >"$T/c.txt"
grep -qE '^period +model +class +traces' "$T/c.txt" || fail "single kind table: $(cat "$T/c.txt")"
echo ok
