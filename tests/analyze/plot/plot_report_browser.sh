#!/usr/bin/env bash
# plot_report_browser: report.html in a real headless browser (Debian's
# chromium; issue 20, item 2): it loads with no console message at all (no
# script error, nothing blocked by its Content-Security-Policy, which
# allows no network), its script ran, the summary and failures tables are
# real tables with every group, the charts are inline, sorting by a header
# works (report.html#sort-summary-N sorts on opening), and it prints to
# PDF. Skipped (77) without chromium, except in CI (TT_CI=1 or CI set).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    [ -n "${TT_CI:-}${CI:-}" ] && fail "chromium missing (apt-get install chromium)"
    echo "skipped: no chromium (apt-get install chromium)"
    exit 77
fi
command -v gnuplot >/dev/null || fail "gnuplot missing"
# chrome FLAGS... URL: headless chromium, its log on $T/chrome.N.err
n=0
chrome() {
    n=$((n + 1))
    timeout 60 "$browser" --headless --disable-gpu --no-sandbox --no-first-run \
        --user-data-dir="$T/profile" --enable-logging=stderr --v=0 "$@" 2>"$T/chrome.$n.err"
}
no_console() {
    ! grep -h 'CONSOLE' "$T/chrome.$1.err" || fail "console messages in report.html (chrome log $1)"
}

"$TT_GEN_TRACE" --mix "$T/m.ttrace" -n 40 -c 4 -m fast -m '<b>slow</b> & "co"' -k short-short -k long-short -f 6
"$TT_ANALYZE" plot "$T/m.ttrace" -o "$T/r" --html >/dev/null 2>&1 || fail "plot --html failed"
url="file://$T/r/report.html"

chrome --dump-dom "$url" >"$T/dom.html" || fail "chromium could not load the report"
no_console 1
py=$(command -v /usr/bin/python3 || command -v python3)
"$py" - "$T/dom.html" <<'PY' || fail "report DOM"
import re, sys
d = open(sys.argv[1], encoding="utf-8").read()
assert 'data-ready="yes"' in d, "the report's script did not run to its end"
def table(tid):
    m = re.search(r'<table[^>]*id="%s".*?</table>' % tid, d, re.S)
    assert m, "no table#" + tid
    return m.group(0)
rows = re.findall(r"<tr>.*?</tr>", table("summary"), re.S)
assert len(rows) == 1 + 1 + 4, f"summary rows: {len(rows)}"  # header, all, 2 models x 2 classes
assert "&lt;b&gt;slow&lt;/b&gt; &amp; \"co\"" in table("summary"), "model name not escaped"
assert re.search(r'<td class="n" data-v="[0-9.e+-]+">[0-9.]+</td>', rows[1]), "numbers without data-v"
fail = table("failures")
assert "http_500" in fail, fail[:300]
assert len(re.findall(r"<svg", d)) >= 6, "charts not inline"
assert "<b>slow" not in d, "raw markup from a trace"
PY

# sorted on opening by TTFT p50 (column 4: model, class, requests, failed, TTFT p50)
chrome --dump-dom "$url#sort-summary-4" >"$T/sorted.html" || fail "chromium (sorted)"
no_console 2
"$py" - "$T/sorted.html" <<'PY' || fail "sorting"
import re, sys
d = open(sys.argv[1], encoding="utf-8").read()
t = re.search(r'<table[^>]*id="summary".*?</table>', d, re.S).group(0)
body = t[t.index("<tbody>"):]
vals = [float(v) for v in re.findall(r'<tr><td>.*?</td><td>.*?</td><td class="n" data-v="[^"]*">[^<]*</td><td[^>]*>[^<]*</td><td class="n" data-v="([^"]+)"', body, re.S)]
assert len(vals) == 5 and vals == sorted(vals), vals
assert 'aria-sort="ascending"' in t
PY

chrome --print-to-pdf="$T/report.pdf" "$url" >/dev/null || fail "print to PDF"
head -c 4 "$T/report.pdf" | grep -q '%PDF' || fail "no PDF"
[ "$(stat -c %s "$T/report.pdf")" -gt 20000 ] || fail "PDF too small: $(stat -c %s "$T/report.pdf")"
echo ok
