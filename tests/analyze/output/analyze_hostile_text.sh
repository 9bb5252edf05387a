#!/usr/bin/env bash
# analyze_hostile_text: names from a trace (model, class, label, error kind)
# holding terminal controls (ESC, BEL, CR, LF, TAB, C1), invalid UTF-8,
# spreadsheet formulas and markdown/HTML markup reach no output raw: text
# tables and stderr show \xNN, markdown is escaped, CSV neutralizes formulas,
# every output is valid UTF-8 (issue 12, items 11, 12 and 16).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"


m_esc=$'esc\e[2J\e]0;owned\a-model'
m_cr=$'cr\rfake line\ttab'
m_c1=$'c1\xc2\x9b31m'
m_bad=$'bad\xff\xfeutf8'
m_csv='=cmd|'"'"' /C calc'"'"'!A0'
m_at='@SUM(1+1)'
m_md='<script>alert(1)</script> `code` |pipe| *bold*'
"$TT_GEN_TRACE" --mix "$T/h.ttrace" -n 28 -c 2 -m "$m_esc" -m "$m_cr" -m "$m_c1" \
    -m "$m_bad" -m "$m_csv" -m "$m_at" -m "$m_md" -k $'cls\e[31m' -f 7
cp "$T/h.ttrace" "$T/h2.ttrace"

# raw_controls FILE: exit 0 when FILE holds a byte a terminal acts on (C0
# other than LF, DEL, or a C1 control as UTF-8).
raw_controls() {
    LC_ALL=C grep -qP '[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$1"
}
# raw_controls_csv FILE: the same for CSV, where CR, LF and TAB are data
# inside a quoted field (RFC 4180).
raw_controls_csv() {
    LC_ALL=C grep -qP '[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\xc2[\x80-\x9f]' "$1"
}
valid_utf8() { iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1; }

for fmt in table markdown csv json; do
    "$TT_ANALYZE" summary "$T/h.ttrace" --format "$fmt" >"$T/s.$fmt" 2>"$T/s.$fmt.err" ||
        { cat "$T/s.$fmt.err"; fail "summary --format $fmt exited $?"; }
    valid_utf8 "$T/s.$fmt" || fail "summary --format $fmt is not valid UTF-8"
    ! raw_controls "$T/s.$fmt.err" || fail "summary stderr holds a raw control character"
    case $fmt in
    json) ;;
    csv) ! raw_controls_csv "$T/s.csv" || fail "summary CSV holds a raw control character" ;;
    *) ! raw_controls "$T/s.$fmt" || fail "summary --format $fmt holds a raw control character" ;;
    esac
done
grep -qF 'esc\x1b[2J\x1b]0;owned\x07-model' "$T/s.table" || fail "ESC/BEL not shown as \\xNN in the table"
grep -qF 'c1\u009b31m' "$T/s.table" || fail "C1 control not shown as \\u009b"
grep -qF $'bad\xef\xbf\xbd\xef\xbf\xbdutf8' "$T/s.table" || fail "invalid UTF-8 not U+FFFD in the table"
grep -qF $'bad\xef\xbf\xbd\xef\xbf\xbdutf8' "$T/s.csv" || fail "invalid UTF-8 not U+FFFD in CSV"
grep -qF "'=cmd|" "$T/s.csv" || fail "CSV formula not neutralized"
grep -qF "'@SUM(1+1)" "$T/s.csv" || fail "CSV @ formula not neutralized"
! grep -q '^=\|,=\|,@\|^@' "$T/s.csv" || fail "a CSV field starts with a formula"
! grep -qF '<script>' "$T/s.markdown" || fail "markdown summary holds raw <script>"
grep -qF '\<script\>' "$T/s.markdown" || fail "markdown summary does not escape <script>"
grep -qF '\`code\`' "$T/s.markdown" || fail "markdown summary does not escape backticks"
grep -qF '\|pipe\|' "$T/s.markdown" || fail "markdown summary does not escape |"
# JSON keeps the names exact (escaped as JSON), invalid bytes as U+FFFD.
jq -e '.' "$T/s.json" >/dev/null || fail "summary JSON does not parse"

for cmd in "compare $T/h.ttrace $T/h2.ttrace" "trend $T/h.ttrace" \
           "requests $T/h.ttrace --format csv" "info $T/h.ttrace"; do
    # shellcheck disable=SC2086
    "$TT_ANALYZE" $cmd >"$T/o" 2>"$T/e" || { cat "$T/e"; fail "$cmd exited $?"; }
    case $cmd in
    *csv) ! raw_controls_csv "$T/o" || fail "$cmd output holds a raw control character" ;;
    *) ! raw_controls "$T/o" || fail "$cmd output holds a raw control character" ;;
    esac
    ! raw_controls "$T/e" || fail "$cmd stderr holds a raw control character"
    valid_utf8 "$T/o" || fail "$cmd output is not valid UTF-8"
done
# Warnings on stderr quote names too: the log layer escapes every line.
"$TT_ANALYZE" summary "$T/h.ttrace" "$T/does-not-exist"$'\e[2J' >/dev/null 2>"$T/e" || true
! raw_controls "$T/e" || fail "an error naming a file holds a raw control character"
grep -qF 'does-not-exist\x1b[2J' "$T/e" || fail "the file name in the error is not escaped"
# A NUL inside a name (crafted: same length, so the record stays valid)
# must not cut it: "nul\0one" and "nul\0two" stay two models.
"$TT_GEN_TRACE" --mix "$T/n.ttrace" -n 8 -c 2 -m nulQone -m nulQtwo
perl -pi -e 's/nulQ(one|two)/nul\0$1/g' "$T/n.ttrace"
"$TT_ANALYZE" check "$T/n.ttrace" >/dev/null || fail "the patched trace does not check"
"$TT_ANALYZE" summary "$T/n.ttrace" --format json >"$T/n.json"
n=$(jq '[.groups[] | select(.model | startswith("nul"))] | length' "$T/n.json")
[ "$n" = 2 ] || fail "NUL inside a model name merged two models ($n groups)"
jq -e '.groups[] | select(.model == "nul\ufffdone")' "$T/n.json" >/dev/null ||
    fail "NUL inside a model name is not U+FFFD"
echo "analyze_hostile_text: ok"
