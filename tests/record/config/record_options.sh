#!/usr/bin/env bash
# Recorder options end to end: JSONL workloads, --max-tokens, --classes,
# --no-content, --no-request-id, --ignore-eos and --extra-body, labels,
# warmup, -o - into the analyzer, the default file name, OPENAI_BASE_URL,
# --force, connection reuse, --http2 on plain HTTP, the progress line, and a
# trace that cannot be written (disk full).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

unset OPENAI_API_KEY
start_replay --synthetic 'ttft=5ms,tpot=1ms,tokens=6'
Q=(-q -u "$URL")

# JSONL workload: classes from the file, max_tokens per line, messages or
# prompt; --max-tokens overrides; --classes picks.
cp "$(tt_data record/workload/options.jsonl)" "$T/w.jsonl"
"$TT_RECORD" "${Q[@]}" -m a -w "$T/w.jsonl" -n 2 -o "$T/w.ttrace" || fail "jsonl exit $?"
d=$(dump "$T/w.ttrace")
check_complete "$d" 4
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.workload')" "$T/w.jsonl" "workload name"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")]|sort_by(.id)|map("\(.class):\(.prompt_index):\(.max_tokens)")|join(" ")')" \
    "greet:0:7 story:3:9 greet:2:-1 story:3:9" "jsonl requests"
assert_eq "$(jqs "$d" '.[]|select(.kind=="request" and .id==3)|.body|fromjson|has("max_tokens")')" false "no max_tokens when none given"
"$TT_RECORD" "${Q[@]}" -m a -w "$T/w.jsonl" -n 1 --classes story --max-tokens 3 --api openai-completions -o "$T/w2.ttrace" || fail "jsonl 2 exit $?"
d=$(dump "$T/w2.ttrace")
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")|"\(.class) \(.max_tokens) \(.body|fromjson|.prompt)"]|join(",")')" "story 3 Once upon a time" "--classes and --max-tokens"

# --no-content, --no-request-id, --ignore-eos, --extra-body, labels, warmup
"$TT_RECORD" "${Q[@]}" -m a -m b -n 1 --classes short-short --no-content --no-request-id \
    --warmup 1 --label site=eu --label run=7 -o "$T/nc.ttrace" || fail "no-content exit $?"
d=$(dump "$T/nc.ttrace")
check_complete "$d" 4
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")|.body]|unique|map(tostring)|join(",")')" null "bodies not stored"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")|.request_id]|unique|map(tostring)|join(",")')" null "no request ids"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="result")|.headers["x-request-id"]]|unique|map(tostring)|join(",")')" null "no X-Request-Id sent"
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.labels|"\(.site) \(.run)"')" "eu 7" "labels"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")]|sort_by(.id)|map("\(.model):\(.warmup)")|join(" ")')" \
    "a:true b:true a:false b:false" "warmup per model first"
"$TT_RECORD" "${Q[@]}" -m a -n 1 --classes short-short --ignore-eos \
    --extra-body '{"temperature":0,"max_tokens":5}' -o "$T/eb.ttrace" || fail "extra-body exit $?"
d=$(dump "$T/eb.ttrace")
assert_eq "$(jqs "$d" '.[]|select(.kind=="request")|.body|fromjson|"\(.ignore_eos) \(.temperature) \(.max_tokens) \(.stream)"')" "true 0 5 true" "body options"
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.options|"\(.ignore_eos) \(.extra_body)"')" 'true {"temperature":0,"max_tokens":5}' "options recorded"

# -o - into the analyzer; OPENAI_BASE_URL as the default base URL
OPENAI_BASE_URL="$URL/" "$TT_RECORD" -q -m a -n 2 --classes short-short -o - |
    "$TT_ANALYZE" summary - --format json >"$T/pipe.json" || fail "pipe exit $?"
assert_eq "$(jq '.overall.ok' "$T/pipe.json")" 2 "piped trace analyzed"

# the default file name, in the current directory, and --force
mkdir "$T/cwd"
(cd "$T/cwd" && "$TT_RECORD" "${Q[@]}" -m a -n 1 --classes short-short) || fail "default name exit $?"
f=$(ls "$T/cwd")
[[ $f =~ ^tokentrace-[0-9]{8}-[0-9]{6}\.ttrace$ ]] || fail "default name '$f'"
(cd "$T/cwd" && "$TT_RECORD" "${Q[@]}" -m a -n 2 --classes short-short -o "$f" --force) || fail "--force exit $?"
assert_eq "$(count "$(dump "$T/cwd/$f")" request)" 2 "overwritten with --force"

# connection reuse: with one request at a time, later requests reuse the
# first connection (no new connect)
"$TT_RECORD" "${Q[@]}" -m a -n 5 --classes short-short -c 1 -o "$T/reuse.ttrace" || fail "reuse exit $?"
d=$(dump "$T/reuse.ttrace")
assert_eq "$(jqs "$d" '[.[]|select(.kind=="result" and .id>1)|.phases.connect_ns]|unique|join(",")')" 0 "connections reused"
[ "$(jqs "$d" '.[]|select(.kind=="result" and .id==1)|.phases.connect_ns')" -gt 0 ] || fail "first request did not connect"

# --http2 on a plain-HTTP server still records (HTTP/1.1)
"$TT_RECORD" "${Q[@]}" -m a -n 1 --classes short-short --http2 -o "$T/h2.ttrace" || fail "http2 exit $?"
assert_eq "$(jqs "$(dump "$T/h2.ttrace")" '.[]|select(.kind=="header")|.options.http2')" true "http2 option"

# the progress line: on request, redrawn with \r; never without a terminal
"$TT_RECORD" -u "$URL" -m a -n 4 --classes short-long -c 1 --progress always \
    -o "$T/p.ttrace" 2>"$T/p.err" || fail "progress exit $?"
grep -q $'\r4/4 done, 0 errors' "$T/p.err" || fail "no progress line: $(cat -A "$T/p.err" | head -5)"
grep -qE 'TTFT p50 [0-9]+ ms' "$T/p.err" || fail "no live TTFT in the progress line"
"$TT_RECORD" -u "$URL" -m a -n 1 --classes short-short -o "$T/p2.ttrace" 2>"$T/p2.err" || fail "exit $?"
grep -q $'\r' "$T/p2.err" && fail "progress drawn without a terminal"
grep -q "requests: 1 ok, 0 failed" "$T/p2.err" || fail "summary missing: $(cat "$T/p2.err")"
"$TT_RECORD" -q -u "$URL" -m a -n 1 --classes short-short --progress always -o "$T/p3.ttrace" 2>"$T/p3.err" || fail "exit $?"
[ ! -s "$T/p3.err" ] || fail "-q printed: $(cat "$T/p3.err")"

# disk full: a clear error, exit 1
if [ -w /dev/full ]; then
    expect_exit 1 "$TT_RECORD" "${Q[@]}" -m a -n 3 --classes short-short -o /dev/full --force 2>"$T/full.err"
    grep -q "No space left on device" "$T/full.err" || fail "disk-full message: $(cat "$T/full.err")"
fi
echo ok

# -q drops the progress line, notes and the summary, never a warning: a
# scrape that fails is said under -q too (it was silent before).
"$TT_RECORD" "${Q[@]}" -m a -n 1 --server-metrics http://127.0.0.1:1/metrics \
    -o "$T/qw.ttrace" 2>"$T/qw.err" || fail "-q with a failing scrape: exit $?"
grep -q 'warning: --server-metrics' "$T/qw.err" || fail "-q hid a warning: $(cat "$T/qw.err")"
! grep -qv 'warning: ' "$T/qw.err" || fail "-q printed more than warnings: $(cat "$T/qw.err")"

# -m a,b is one model of that name (a gateway's names can hold anything),
# and the recorder says so: it was one group with no word
"$TT_RECORD" "${Q[@]}" -m fast,slow -n 1 --classes short-short -o "$T/mc.ttrace" 2>"$T/mc.err" || fail "-m fast,slow: exit $?"
grep -q "warning: -m 'fast,slow' is one model of that name: a comma does not split -m (two models: -m a -m b)" "$T/mc.err" ||
    fail "-m a,b said nothing: $(cat "$T/mc.err")"
