#!/usr/bin/env bash
# record_secrets: after a full run, the API key is in no file the toolchain
# wrote: the traces, the recorder's stdout and stderr, the --check report,
# and every analyzer output (info, summary in all formats, requests, dump,
# compare, plot: each .png/.svg/.gp/.dat and report.html). The key comes
# from the environment and is also slipped onto the command line (a label,
# the extra body), which the stored command line must redact; a server that
# echoes the key in Set-Cookie, x-api-key, api-key, Proxy-Authorization and
# Authorization response headers (replay fault leaky-headers) has them
# stored as "[redacted]"; the key inside kept ordinary headers (Location,
# x-amzn-requestid) is cut out of their values, the rest kept; and that
# echoes it in its bodies (replay fault leaky-body: token text, the 500
# error JSON) has it masked there (tests/record/net/record_secrets_body.sh
# looks closer).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

# Two distinctive pieces: a leak of part of the key is caught too.
MARK_A="SECRET$RANDOM$RANDOM"
MARK_B="k3y-do-not-leak"
export TT_TEST_KEY="sk-test-$MARK_A-$MARK_B"
unset OPENAI_API_KEY ANTHROPIC_API_KEY
OUT="$T/out" # everything the toolchain writes goes here
mkdir -p "$OUT"

start_replay --synthetic 'ttft=5ms,tpot=1ms,tokens=6' --expect-key-env TT_TEST_KEY \
    --fault leaky-headers@leaky --fault leaky-headers@broken --fault http-500@broken \
    --fault leaky-body@leaky --fault leaky-body@broken \
    --fault stall@stalls

# OpenAI chat, key in OPENAI_API_KEY, and on the command line by mistake
OPENAI_API_KEY=$TT_TEST_KEY "$TT_RECORD" -u "$URL" -m good -m leaky -m broken -m stalls \
    -n 2 --classes short-short --idle-timeout 1 \
    --label "note=$TT_TEST_KEY" --label team=perf --extra-body "{\"user\":\"$TT_TEST_KEY\"}" \
    -o "$OUT/chat.ttrace" >"$OUT/chat.out" 2>"$OUT/chat.err" \
    || fail "chat run exit $?: $(cat "$OUT/chat.err")"
# Anthropic: the key goes as x-api-key
ANTHROPIC_API_KEY=$TT_TEST_KEY "$TT_RECORD" -u "$URL" --api anthropic -m leaky -m good -n 1 \
    --classes short-short -o "$OUT/anth.ttrace" >"$OUT/anth.out" 2>"$OUT/anth.err" \
    || fail "anthropic run exit $?: $(cat "$OUT/anth.err")"

# the credential headers the server leaked are stored, redacted
for tr in chat anth; do
    d=$(dump "$OUT/$tr.ttrace")
    jqs "$d" '(map(select(.kind=="request"))|map({key:(.id|tostring),value:.model})|from_entries) as $m
        | .[]|select(.kind=="result" and ($m[.id|tostring]=="leaky" or $m[.id|tostring]=="broken"))
        | .headers|[.["set-cookie"],.["x-api-key"],.["api-key"],.["proxy-authorization"],.["authorization"]]
        | map(. // "missing")|join(" ")' | sort -u >"$T/$tr.headers"
    assert_eq "$(cat "$T/$tr.headers")" "[redacted] [redacted] [redacted] [redacted] [redacted]" \
        "$tr: leaked credential headers"
    # kept headers with the key inside: the key replaced, the rest as sent
    jqs "$d" '(map(select(.kind=="request"))|map({key:(.id|tostring),value:.model})|from_entries) as $m
        | .[]|select(.kind=="result" and ($m[.id|tostring]=="leaky" or $m[.id|tostring]=="broken"))
        | .headers|"\(.location) \(.["x-amzn-requestid"])"' | sort -u >"$T/$tr.kept"
    assert_eq "$(cat "$T/$tr.kept")" \
        "https://gateway.invalid/v1/s?key=[redacted]&x=1 gw-[redacted]-[redacted]" \
        "$tr: the key inside kept headers"
done
d=$(dump "$OUT/chat.ttrace")
assert_eq "$(jqs "$d" '[.[]|select(.kind=="result")|.error_kind // "ok"]|unique|join(",")')" \
    "http_500,idle_timeout,ok" "chat: error kinds"
stars=$(printf '%*s' ${#TT_TEST_KEY} '' | tr ' ' '*')
assert_eq "$(jqs "$d" '[.[]|select(.kind=="chunk")]|group_by(.request_id)|map(map(.data)|join(""))
    | map(select(contains("Bearer '"$stars"'")))|length>=2')" true "the key echoed in bodies, masked"
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.labels.note')" "[redacted]" "label redacted"
jqs "$d" '.[]|select(.kind=="header")|.command_line' >"$T/cmdline"
grep -q -- "--label 'note=\[redacted\]'" "$T/cmdline" || fail "label not redacted: $(cat "$T/cmdline")"
grep -q -- "--extra-body '{\"user\":\"\[redacted\]\"}'" "$T/cmdline" || fail "extra body not redacted: $(cat "$T/cmdline")"

# --check, the doctor, with the key in the environment
set +e
OPENAI_API_KEY=$TT_TEST_KEY "$TT_RECORD" --check -u "$URL" -m good -m leaky -m broken \
    >"$OUT/check.out" 2>"$OUT/check.err"
rc=$?
set -e
assert_eq "$rc" 1 "--check exit (broken fails)"
grep -q "^good: OK" "$OUT/check.out" || fail "--check: $(cat "$OUT/check.out")"

# every analyzer output
A=$TT_ANALYZE
traces=("$OUT/chat.ttrace" "$OUT/anth.ttrace")
"$A" info "$OUT/chat.ttrace" >"$OUT/info-chat.md"
"$A" info "$OUT/anth.ttrace" >"$OUT/info-anth.md"
for f in table json csv markdown; do
    "$A" summary "${traces[@]}" --by model,label:note --format $f >"$OUT/summary.$f" 2>>"$OUT/analyze.err"
done
"$A" requests "${traces[@]}" >"$OUT/requests.csv" 2>>"$OUT/analyze.err"
"$A" requests "${traces[@]}" --format json >"$OUT/requests.jsonl" 2>>"$OUT/analyze.err"
"$A" dump "${traces[@]}" >"$OUT/dump.jsonl"
"$A" check "${traces[@]}" >"$OUT/check-traces.txt"
"$A" compare "$OUT/chat.ttrace" "$OUT/chat.ttrace" >"$OUT/compare.txt" 2>>"$OUT/analyze.err" || true
if "$A" plot --help >/dev/null 2>&1; then
    "$A" plot "${traces[@]}" -o "$OUT/charts" --html >"$OUT/plot.out" 2>"$OUT/plot.err" \
        || fail "plot: $(cat "$OUT/plot.err")"
    "$A" plot "${traces[@]}" -o "$OUT/charts-svg" --format svg --html >>"$OUT/plot.out" 2>>"$OUT/plot.err" \
        || fail "plot svg: $(cat "$OUT/plot.err")"
    [ -s "$OUT/charts/report.html" ] && ls "$OUT/charts"/*.gp "$OUT/charts"/*.dat >/dev/null \
        || fail "plot wrote too little: $(ls "$OUT/charts")"
    if command -v gnuplot >/dev/null; then
        ls "$OUT/charts"/*.png "$OUT/charts-svg"/*.svg >/dev/null || fail "no pictures"
    fi
fi
# the label and the key-free parts are there: the outputs are not empty
grep -q "perf" "$OUT/info-chat.md" || fail "info lost the labels: $(cat "$OUT/info-chat.md")"
grep -q "redacted" "$OUT/summary.csv" || fail "summary --by label:note: $(cat "$OUT/summary.csv")"

# ... and the key in none of them
n=$(find "$OUT" -type f | wc -l)
[ "$n" -ge 20 ] || fail "only $n output files"
leaks=$(grep -rl -a -e "$MARK_A" -e "$MARK_B" "$OUT" "$T/replay.out" "$T/replay.err" || true)
[ -z "$leaks" ] || fail "the key leaked into: $leaks"
echo "record_secrets: ok ($n files checked)"
