# summary's A against B for TTFT, TPOT and latency (issue 32): the table's
# lines, the JSON's "ab" and the markdown list carry compare's numbers.
# argv: summary table, compare --format json, summary json, summary markdown.
import json, re, sys

def fmt(x):  # compare's signed number format (text_fmt_signed, >= 0.01)
    a = abs(x)
    if a >= 10 or a == 0:
        return "%+.1f" % x
    return "%+.2f" % x if a >= 1 else "%+.3f" % x if a >= 0.01 else None

raw = open(sys.argv[1], encoding="utf-8").read()
# join wrapped lines; a metric line starts "  TPOT" or "  latency"
lines = re.sub(r"\n  (?!TPOT |latency )", " ", raw).split("\n")
ab = json.load(open(sys.argv[3])).get("ab")
md = open(sys.argv[4], encoding="utf-8").read()
assert ab, "no ab in summary's JSON"
assert "### A against B per class" in md, md[-400:]
checked = 0
for g in json.load(open(sys.argv[2]))["comparisons"][0]["groups"]:
    cls = g["class"]
    start = [i for i, l in enumerate(lines) if re.match(re.escape(cls) + r": fast (is faster than|against) slow", l)]
    assert len(start) == 1, (cls, lines)
    block = lines[start[0]:start[0] + 3]
    for key, title in (("ttft_ms", "TTFT"), ("tpot_ms", "TPOT"), ("latency_ms", "latency")):
        m = g["metrics"][key]
        line = [l for l in block if (" on TTFT " if title == "TTFT" else "  " + title + " ") in l]
        assert len(line) == 1, (title, block)
        for q, ci, v in ((50, m["median_diff_ci"], m["verdict"]),
                         (99, m["p99_diff_ci"], m["verdict_p99"])):
            rows = [r for r in ab if r["class"] == cls and r["metric"] == key and r["percentile"] == q]
            assert len(rows) == 1, (cls, key, q, ab)
            r = rows[0]
            assert (r["a"], r["b"]) == ("fast", "slow"), r
            assert r["diff_ms"] == ci["estimate"] and r["ci"] == [ci["lo"], ci["hi"]], (r, ci)
            assert r["verdict"] == v and r["n_a"] == 60 and r["n_b"] == 60, (r, v)
            assert (v == "too few") == ("record_n" in r), r
            if fmt(ci["lo"]) and fmt(ci["hi"]):
                want = "[%s, %s] \u2014 %s" % (fmt(ci["lo"]), fmt(ci["hi"]), v)
                assert "p%d by " % q in line[0] and want in line[0], (want, line[0])
                assert want in md, (want, md[-600:])
                checked += 1
assert checked >= 8, checked
