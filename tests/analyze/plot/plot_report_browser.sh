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

# The comparison section (plot --compare --html): compare's table per
# NEW with its intervals and verdicts (those of `compare --format json`),
# the compare chart inline, under the same CSP; gen_trace --mix gives its
# first model the lower TTFT, so swapping the order makes "fast" slower.
"$TT_GEN_TRACE" --mix "$T/o1.ttrace" -n 60 -m fast -m slow -k short-short -k long-short -s 3
"$TT_GEN_TRACE" --mix "$T/o2.ttrace" -n 60 -m slow -m fast -k short-short -k long-short -s 4
"$TT_ANALYZE" plot --compare "$T/o1.ttrace" "$T/o2.ttrace" -o "$T/cmp" --html >/dev/null 2>&1 ||
    fail "plot --compare --html failed"
"$TT_ANALYZE" compare "$T/o1.ttrace" "$T/o2.ttrace" --format json >"$T/cmp.json"
chrome --dump-dom "file://$T/cmp/report.html" >"$T/cmp-dom.html" || fail "chromium (compare report)"
no_console $n
"$py" - "$T/cmp-dom.html" "$T/cmp.json" <<'PY' || fail "comparison section"
import json, re, sys
d = open(sys.argv[1], encoding="utf-8").read()
groups = json.load(open(sys.argv[2]))["comparisons"][0]["groups"]
assert 'data-ready="yes"' in d, "script did not run"
assert "Content-Security-Policy" in d and "default-src 'none'" in d, "no CSP"
assert d.index('id="comparison"') < d.index("<h2>Summary</h2>"), "comparison not first"
t = re.search(r'<table[^>]*id="compare-1".*?</table>', d, re.S)
assert t, "no table#compare-1"
rows = re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td>(.*?)</tr>", t.group(0), re.S)
assert len(rows) == len(groups) * 5, f"{len(rows)} rows for {len(groups)} groups"
names = {"TTFT (ms)": "ttft_ms", "TPOT (ms)": "tpot_ms", "ITL (ms)": "itl_ms",
         "latency (ms)": "latency_ms", "output tokens (tok)": "output_tokens"}
words = {"slower": ("real", "slower"), "faster": ("real", "faster"), "more": ("real", "more"),
         "fewer": ("real", "fewer"), "no difference": ("noise", None), "too few": ("too few", None)}
for model, cls, metric, rest in rows:
    g = next(g for g in groups if g["model"] == model and g["class"] == cls)["metrics"][names[metric]]
    cells = re.findall(r'<td class="n" data-v="([^"]*)">', rest)
    lo, hi = float(cells[4]), float(cells[5])
    ci = g["median_diff_ci"]
    assert abs(lo - ci["lo"]) < 1e-9 and abs(hi - ci["hi"]) < 1e-9, (model, metric, lo, hi, ci)
    verdict = re.search(r'<td class="verdict[^"]*">([^<]*)</td>', rest).group(1)
    want, direction = words[verdict]
    assert g["verdict"] == want, (model, cls, metric, verdict, g["verdict"])
    if direction:
        assert g["direction"] == direction, (model, metric, verdict, g["direction"])
ttft = [r for r in rows if r[2] == "TTFT (ms)"]
assert {(r[0], re.search(r'verdict[^"]*">([^<]*)', r[3]).group(1)) for r in ttft} == \
    {("fast", "slower"), ("slow", "faster")}, ttft
assert re.search(r'<section id="chart-compare">.*?<svg', d, re.S), "compare chart not inline"
PY

# The trend section (plot --trend --html): trend's rows, the change of
# each p50 from the previous period, and the trend chart.
W47=1763337600 W48=1763942400
"$TT_GEN_TRACE" --mix "$T/w47.ttrace" -n 40 -m gpt-4o -m claude -z $(((W47 + 3600) * 1000000000)) -s 3
"$TT_GEN_TRACE" --mix "$T/w48.ttrace" -n 40 -m claude -m gpt-4o -z $(((W48 + 3600) * 1000000000)) -s 4
"$TT_ANALYZE" plot --trend "$T/w47.ttrace" "$T/w48.ttrace" -o "$T/tr" --html >/dev/null 2>&1 ||
    fail "plot --trend --html failed"
"$TT_ANALYZE" trend "$T/w47.ttrace" "$T/w48.ttrace" --format json >"$T/tr.json"
chrome --dump-dom "file://$T/tr/report.html" >"$T/tr-dom.html" || fail "chromium (trend report)"
no_console $n
"$py" - "$T/tr-dom.html" "$T/tr.json" <<'PY' || fail "trend section"
import json, re, sys
d = open(sys.argv[1], encoding="utf-8").read()
want = json.load(open(sys.argv[2]))["rows"]
assert 'data-ready="yes"' in d, "script did not run"
t = re.search(r'<table[^>]*id="trend".*?</table>', d, re.S)
assert t, "no table#trend"
rows = re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td>(.*?)</tr>", t.group(0), re.S)
assert len(rows) == len(want) == 4, (len(rows), len(want))
for period, model, cls, rest in rows:
    w = next(r for r in want if r["period"] == period and r["model"] == model and r["class"] == cls)
    cells = re.findall(r'<td class="n[^"]*" data-v="([^"]*)">', rest)
    assert abs(float(cells[3]) - w["ttft_ms"]["p50"]) < 1e-9, (period, model, cells[3], w["ttft_ms"])
    if period.endswith("W48"):
        before = next(r for r in want if r["period"].endswith("W47") and r["model"] == model)
        pct = (w["ttft_ms"]["p50"] - before["ttft_ms"]["p50"]) / before["ttft_ms"]["p50"] * 100
        assert abs(float(cells[4]) - pct) < 1e-6, (model, cells[4], pct)
    else:
        assert cells[4] == "", cells  # no previous period
assert re.search(r'<section id="chart-trend">.*?<svg', d, re.S), "trend chart not inline"
PY

# Each page in a 1,280 px window (issue 32): nothing scrolls sideways
# (the summary table scrolled to 1,925 px, hiding latency), the charts'
# text has the page's font (it was the SVG's own, a font Chromium lacked:
# serif), and every chart showing models has a panel per prompt class.
# A probe script in a copy of each page (the CSP allows inline scripts)
# writes what Chromium measured into the DOM.
G6=(-m gpt-fast -m claude-slow -m mid -k short-short -k long-short)
"$TT_GEN_TRACE" --mix "$T/p1.ttrace" -n 240 "${G6[@]}" -s 11 -z 1764460800000000000
"$TT_GEN_TRACE" --mix "$T/p2.ttrace" -n 240 "${G6[@]}" -s 12 -z 1765065600000000000
"$TT_ANALYZE" plot "$T/p1.ttrace" -o "$T/pa" --html >/dev/null 2>&1 || fail "plot (6 groups)"
"$TT_ANALYZE" plot --compare "$T/p1.ttrace" "$T/p2.ttrace" -o "$T/pb" --html >/dev/null 2>&1 || fail "plot --compare (6 groups)"
"$TT_ANALYZE" plot --trend "$T/p1.ttrace" "$T/p2.ttrace" -o "$T/pc" --html >/dev/null 2>&1 || fail "plot --trend (6 groups)"
probe='<script>(function(){var r={docw:document.documentElement.scrollWidth,winw:window.innerWidth};'
probe+='r.scroll=[].map.call(document.querySelectorAll(".scroll"),function(e){return [e.scrollWidth,e.clientWidth];});'
probe+='r.body=getComputedStyle(document.body).fontFamily;'
probe+='r.svg=[].map.call(document.querySelectorAll("figure svg text"),function(e){return getComputedStyle(e).fontFamily;});'
probe+='r.text=[].map.call(document.querySelectorAll("svg text"),function(e){return e.textContent;});'
probe+='document.body.setAttribute("data-probe",JSON.stringify(r));})();</script>'
for r in pa pb pc; do
    "$py" - "$T/$r/report.html" "$T/$r/probe.html" "$probe" <<'PY'
import sys
d = open(sys.argv[1], encoding="utf-8").read()
open(sys.argv[2], "w", encoding="utf-8").write(d.replace("</body>", sys.argv[3] + "</body>"))
PY
    chrome --window-size=1280,1000 --dump-dom "file://$T/$r/probe.html" >"$T/$r/probe-dom.html" || fail "chromium ($r)"
    "$py" - "$T/$r/probe-dom.html" "$r" <<'PY' || fail "page $r at 1,280 px"
import html, json, re, sys
d = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'data-probe="([^"]*)"', d)
assert m, "the probe did not run"
p = json.loads(html.unescape(m.group(1)))
assert p["docw"] <= p["winw"], ("page wider than the window", p["docw"], p["winw"])
for sw, cw in p["scroll"]:
    assert sw <= cw, ("a table scrolls sideways", sw, cw)
assert p["svg"] and all(f == p["body"] for f in p["svg"]), ("chart font", p["body"], set(p["svg"]))
text = p["text"]
for cls in ("short-short", "long-short"):
    if sys.argv[2] == "pa":
        assert text.count(cls) >= 2, (cls, "ttft-cdf and latency-vs-tokens panels")
    else:  # compare and trend: a row of panels per class
        for metric in ("TTFT (ms)", "latency (ms)"):
            assert "%s: %s" % (cls, metric) in text, (cls, metric)
PY
done

chrome --print-to-pdf="$T/report.pdf" "$url" >/dev/null || fail "print to PDF"
head -c 4 "$T/report.pdf" | grepq '%PDF' || fail "no PDF"
[ "$(stat -c %s "$T/report.pdf")" -gt 20000 ] || fail "PDF too small: $(stat -c %s "$T/report.pdf")"
echo ok
