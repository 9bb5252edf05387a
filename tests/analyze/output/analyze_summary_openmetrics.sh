#!/usr/bin/env bash
# analyze_summary_openmetrics: summary --format openmetrics is valid
# OpenMetrics text (checked by the prometheus_client parser, strict about
# the format), in seconds, with the numbers of --format json, and keeps
# hostile names inside their label values (issue 20, item 6).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
py=/usr/bin/python3 # Debian's, with python3-prometheus-client
[ -x "$py" ] && "$py" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null ||
    fail "python3-prometheus-client missing (apt-get install python3-prometheus-client)"

"$TT_GEN_TRACE" "$T/t.ttrace" 10 20 100 10 fail_every=5
"$TT_GEN_TRACE" --mix "$T/h.ttrace" -n 12 -c 2 -m $'quote"back\\slash\nnewline' -m $'esc\e[2Jbad\xff' -k cls -f 4
"$TT_ANALYZE" summary "$T/t.ttrace" --format openmetrics --slo ttft=150ms >"$T/t.om"
"$TT_ANALYZE" summary "$T/t.ttrace" --format json --slo ttft=150ms >"$T/t.json"
"$TT_ANALYZE" summary "$T/h.ttrace" --format openmetrics >"$T/h.om"
tail -1 "$T/t.om" | grepq -x '# EOF' || fail "no # EOF at the end"

"$py" - "$T/t.om" "$T/t.json" "$T/h.om" <<'PY' || fail "openmetrics"
import json, sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families as parse

fams = {f.name: f for f in parse(open(sys.argv[1]).read())}
js = json.load(open(sys.argv[2]))
ttft = fams["tokentrace_ttft_seconds"]
assert ttft.type == "summary" and ttft.unit == "seconds", (ttft.type, ttft.unit)
def sample(fam, name, **labels):
    for s in fam.samples:
        if s.name == name and s.labels == labels:
            return s.value
    raise AssertionError(f"no {name} {labels} in {fam.samples}")
# the overall series has no group labels; groups have model and class
assert abs(sample(ttft, "tokentrace_ttft_seconds", quantile="0.5") - js["overall"]["ttft_ms"]["p50"] / 1000) < 1e-9
assert abs(sample(ttft, "tokentrace_ttft_seconds", quantile="0.99", model="model-a", **{"class": "short-short"})
           - js["groups"][0]["ttft_ms"]["p99"] / 1000) < 1e-9
assert sample(ttft, "tokentrace_ttft_seconds_count") == js["overall"]["ttft_ms"]["n"]
req = fams["tokentrace_requests"]
assert req.type == "counter"
assert sample(req, "tokentrace_requests_total", outcome="ok") == js["overall"]["ok"] == 8
assert sample(req, "tokentrace_requests_total", outcome="failed") == 2
err = fams["tokentrace_errors"]
assert sample(err, "tokentrace_errors_total", kind="http_500") == 2
assert fams["tokentrace_run_wall_seconds"].samples[0].value > 0
assert "tokentrace_run_goodput_requests_per_second" in fams

# hostile model names: escaped inside the label value, the rest intact
models = {s.labels.get("model") for f in parse(open(sys.argv[3], encoding="utf-8").read())
          for s in f.samples} - {None}
assert 'quote"back\\slash\nnewline' in models, models
assert any(m.startswith("esc") and "\x1b" not in m and "\ufffd" in m for m in models), models
PY
echo ok
