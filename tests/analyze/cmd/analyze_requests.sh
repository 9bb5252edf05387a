#!/usr/bin/env bash
# requests: one row per request in CSV (RFC 4180) and JSON Lines, with the
# same values in both; failed requests have undefined timings; strings with
# commas, quotes and formula starts survive; concatenated traces.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
G=$TT_GEN_TRACE
A=$TT_ANALYZE

"$G" "$T/t.ttrace" 12 20 100 10 fail_every=4 warmup=1 'model_a=a,"b"' model_b==cmd trace_id=9e9e9e9e
"$A" requests "$T/t.ttrace" >"$T/r.csv"
"$A" requests "$T/t.ttrace" --format json >"$T/r.jsonl"
assert_eq "$(wc -l <"$T/r.jsonl")" 12 "JSON Lines rows"
jq -e . "$T/r.jsonl" >/dev/null || fail "each line is JSON"
python3 - "$T/r.csv" "$T/r.jsonl" <<'PY' || fail "csv and json rows disagree"
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
head, body = rows[0], rows[1:]
objs = [json.loads(l) for l in open(sys.argv[2])]
assert len(body) == 12 == len(objs), (len(body), len(objs))
assert all(len(r) == len(head) for r in body), "ragged csv"
assert head == list(objs[0].keys()), "csv header differs from json keys"
for r, o in zip(body, objs):
    for k, v in zip(head, r):
        j = o[k]
        if j is None:
            assert v == "", (k, v)
        elif isinstance(j, bool):
            assert v == ("true" if j else "false"), (k, v, j)
        elif isinstance(j, (int, float)):
            assert float(v) == float(j), (k, v, j)
        elif k == "model" and j.startswith("="):
            assert v == "'" + j, (k, v, j)   # formula guard
        else:
            assert v == j, (k, v, j)
models = {o["model"] for o in objs}
assert models == {'a,"b"', "=cmd"}, models
for o in objs:
    if o["id"] % 4 == 0:
        assert not o["ok"] and o["error_kind"] == "http_500" and o["http_status"] == 500, o
        assert o["ttft_ms"] is None and o["tpot_ms"] is None and o["latency_ms"] is None, o
    else:
        assert o["ok"] and o["error_kind"] is None, o
        assert o["ttft_ms"] == 100 and o["tpot_ms"] == 10 and o["latency_ms"] == 290, o
        assert o["itl_p50_ms"] == 10 and o["itl_max_ms"] == 10 and o["itl_n"] == 19, o
        assert o["output_tokens"] == 20 and o["token_source"] == "usage", o
        assert o["first_token_ms"] - o["start_ms"] == 100, o
    assert o["warmup"] == (o["id"] == 1), o
    assert o["x_request_id"] == "9e9e9e9e-%d" % o["id"], o
    assert o["trace"] == 0 and o["trace_id"] == "9e9e9e9e", o
# Starts are measured from the trace's time zero: the first at 0.
assert objs[0]["start_ms"] == 0, objs[0]
PY

# Two traces through stdin: the trace column tells them apart.
"$G" "$T/u.ttrace" 12 20 100 10 fail_every=4 warmup=1 trace_id=9e9e9e9f
cat "$T/t.ttrace" "$T/u.ttrace" | "$A" requests - --format json >"$T/cat.jsonl"
assert_eq "$(jq -s 'map(.trace)|unique|join(",")' -r "$T/cat.jsonl")" 0,1 "trace indexes"
assert_eq "$(wc -l <"$T/cat.jsonl")" 24 "rows of two traces"
"$A" requests "$T/t.ttrace" "$T/u.ttrace" | tail -n +2 | wc -l | grepq -x 24 || fail "csv rows of two files"
# The same trace twice is listed once, with a warning; --keep-repeated
# lists every copy.
cat "$T/t.ttrace" "$T/t.ttrace" | "$A" requests - --format json >"$T/rep.jsonl" 2>"$T/rep.err"
assert_eq "$(wc -l <"$T/rep.jsonl")" 12 "rows of a repeated trace"
grep -q 'already read' "$T/rep.err" || fail "requests: no warning on a repeated trace"
"$A" requests --keep-repeated "$T/t.ttrace" "$T/t.ttrace" | tail -n +2 | wc -l | grepq -x 24 ||
    fail "requests --keep-repeated: every copy"

# --classify measured puts the measured class in the class column.
"$G" "$T/long.ttrace" 2 300 100 1
"$A" requests "$T/long.ttrace" --classify measured --format json |
    jq -e -s 'all(.class == "short-long" and .declared_class == "short-short")' >/dev/null ||
    fail "--classify measured class column"
expect_exit 2 "$A" requests "$T/t.ttrace" --format table 2>/dev/null
expect_exit 2 "$A" requests 2>/dev/null
echo ok
