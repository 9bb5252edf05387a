#!/usr/bin/env bash
# Exact lengths (docs/workloads.md, "Exact lengths"): --input-tokens N
# calibrates per model against the server's own usage.prompt_tokens (the
# replay server's count=words tokenizer: words and punctuation plus a
# template's few a message, not bytes / 4) and lands within 3% of N for
# several N; --output-tokens M gets exactly M tokens (min_tokens and
# ignore_eos); the fit and the asked lengths are in the trace; N:SD draws
# follow --seed; --shared-prefix T makes the prefix cache hit from the
# second request on; a server without usage falls back with a warning;
# bad input is refused with a clear error; the analyzer reports the
# achieved input tokens against the asked (requests columns, summary
# blocks and line).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

start_replay --synthetic 'ttft=1ms,tpot=0,tokens=8,count=words;model=c4,count=chars'

# within 3% of N, for each N and each API kind that reports usage
for api in openai-chat openai-completions anthropic openai-responses; do
    for n in 200 1000 4000; do
        out="$T/$api-$n.ttrace"
        "$TT_RECORD" -u "$URL" --api "$api" -m m -n 3 --input-tokens "$n" --output-tokens 24 \
            -o "$out" 2>"$T/rec.err" || fail "$api $n: exit $?: $(cat "$T/rec.err")"
        grep -q "calibration of m: .* tokens per byte" "$T/rec.err" || fail "$api: no calibration note: $(cat "$T/rec.err")"
        "$TT_ANALYZE" requests --format json "$out" >"$T/req.json" || fail "requests $api $n"
        assert_eq "$(jq -rs --argjson n "$n" 'map(((.input_tokens - $n)|fabs) / $n <= 0.03)|all' "$T/req.json")" \
            true "$api: input tokens within 3% of $n: $(jq -rs 'map(.input_tokens)' "$T/req.json")"
        # min_tokens makes the server go on to M (its own length is 8);
        # anthropic and responses have no such key: max_tokens only caps
        want=24
        case $api in anthropic|openai-responses) want=8 ;; esac
        assert_eq "$(jq -rs 'map(.output_tokens)|unique|map(tostring)|join(",")' "$T/req.json")" "$want" "$api $n: output tokens"
        echo "$api $n: $(jq -rs 'map(.input_tokens)|map(tostring)|join(" ")' "$T/req.json")"
    done
done

d=$(dump "$T/openai-chat-1000.ttrace")
cal=$(jqs "$d" '.[]|select(.kind=="header")|.options.calibration|fromjson')
assert_eq "$(jq -r '.[0]|"\(.model) \(.probes) \(.fallback) \(.probe_bytes|join(","))"' <<<"$cal")" \
    "m 2 false 512,8192" "calibration in the header"
assert_eq "$(jq -r '.[0]|(.k > 0.2 and .k < 0.35 and .overhead > 0)' <<<"$cal")" true "the fit: $cal"
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.options|"\(.input_tokens) \(.output_tokens)"')" "1000 24" "options"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")|"\(.class) \(.asked_input_tokens) \(.asked_output_tokens)"]|unique|join(",")')" \
    "exact 1000 24" "asked lengths per request"
body=$(jqs "$d" '[.[]|select(.kind=="request")][0].body|fromjson')
assert_eq "$(jq -r '"\(.max_tokens) \(.min_tokens) \(.ignore_eos)"' <<<"$body")" "24 24 true" "output length asked"
# the prompts are distinct (no accidental prefix caching)
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")|.body|fromjson|.messages[0].content[0:16]]|unique|length')" 3 "distinct prompts"

# several models: each its own fit (model c4 counts characters / 4)
"$TT_RECORD" -q -u "$URL" -m m -m c4 -n 2 --input-tokens 1000 -o "$T/two.ttrace" || fail "two models"
dump "$T/two.ttrace" >/dev/null
assert_eq "$(jqs "$T/two.ttrace.jsonl" '.[]|select(.kind=="header")|.options.calibration|fromjson|map("\(.model) \(.k > 0.26)")|join(",")')" \
    "m true,c4 false" "a fit per model"
"$TT_ANALYZE" requests --format json "$T/two.ttrace" >"$T/req.json"
assert_eq "$(jq -rs 'map(.input_error_pct <= 3)|all and length == 4' "$T/req.json")" true "both models within 3%"

# N:SD draws follow the seed; below 1 they are clamped, and said so
"$TT_RECORD" -q -u "$URL" -m m -n 6 --input-tokens 300:100 --seed 7 -o "$T/s1.ttrace"
"$TT_RECORD" -q -u "$URL" -m m -n 6 --input-tokens 300:100 --seed 7 -o "$T/s2.ttrace"
"$TT_RECORD" -q -u "$URL" -m m -n 6 --input-tokens 300:100 --seed 8 -o "$T/s3.ttrace"
asked() { dump "$1" >/dev/null; jqs "$1.jsonl" '[.[]|select(.kind=="request")|.asked_input_tokens]|map(tostring)|join(",")'; }
a1=$(asked "$T/s1.ttrace"); a2=$(asked "$T/s2.ttrace"); a3=$(asked "$T/s3.ttrace")
assert_eq "$a1" "$a2" "same seed, same lengths"
[ "$a1" != "$a3" ] || fail "another seed gave the same lengths: $a1"
[ "$(tr ',' '\n' <<<"$a1" | sort -u | wc -l)" -gt 3 ] || fail "N:SD drew no spread: $a1"
"$TT_RECORD" -u "$URL" -m m -n 8 --input-tokens 2:50 -o "$T/clamp.ttrace" 2>"$T/clamp.err" || fail "clamp run"
grep -q "input-tokens 2:50: a draw fell outside 1..2000000 and was clamped" "$T/clamp.err" || fail "clamp: $(cat "$T/clamp.err")"
a=$(asked "$T/clamp.ttrace")
[ "$(tr ',' '\n' <<<"$a" | sort -n | sed -n 1p)" -ge 1 ] || fail "clamped below 1: $a"
# N~M: uniform within the range
a=$(asked "$T/s1.ttrace" >/dev/null; "$TT_RECORD" -q -u "$URL" -m m -n 10 --input-tokens 100~120 -o "$T/u.ttrace"; asked "$T/u.ttrace")
assert_eq "$(tr ',' '\n' <<<"$a" | awk '$1 < 100 || $1 > 120' | wc -l)" 0 "uniform range: $a"

# --shared-prefix: the same prefix in every prompt, cached from the second request
start_replay --synthetic 'ttft=1ms,tpot=0,tokens=4,cache=100000,count=words'
"$TT_RECORD" -q -u "$URL" -m m -n 4 -c 1 --input-tokens 2000 --shared-prefix 1500 -o "$T/p.ttrace" || fail "prefix run"
"$TT_ANALYZE" requests --format json "$T/p.ttrace" >"$T/req.json"
assert_eq "$(jq -rs 'map(.cached_tokens)|(.[0] == 0 and (.[1:]|all(. >= 1000)))' "$T/req.json")" true \
    "cached tokens with a shared prefix: $(jq -rs 'map(.cached_tokens)' "$T/req.json")"
# another model: its own cache (run 1 sent the same prompt k as this run)
"$TT_RECORD" -q -u "$URL" -m m2 -n 4 -c 1 --input-tokens 2000 -o "$T/np.ttrace" || fail "no-prefix run"
"$TT_ANALYZE" requests --format json "$T/np.ttrace" >"$T/req.json"
assert_eq "$(jq -rs 'map(.cached_tokens)|max' "$T/req.json")" 0 "no cache hits without a shared prefix"

# no usage in the replies: 4 bytes a token, with a warning, marked in the header
start_replay --synthetic 'ttft=1ms,tpot=0,tokens=4' --fault no-usage
"$TT_RECORD" -u "$URL" -m m -n 1 --input-tokens 100 -o "$T/nu.ttrace" 2>"$T/nu.err" || fail "no-usage run"
grep -q "warning: calibration of m: the server reports no usage.prompt_tokens" "$T/nu.err" || fail "no-usage warning: $(cat "$T/nu.err")"
dump "$T/nu.ttrace" >/dev/null
assert_eq "$(jqs "$T/nu.ttrace.jsonl" '.[]|select(.kind=="header")|.options.calibration|fromjson|.[0]|"\(.fallback) \(.k)"')" "true 0.25" "fallback fit"

# a probe that fails names the cause and sends nothing else
start_replay --synthetic 'ttft=1ms,tpot=0,tokens=4' --fault http-401
expect_exit 1 "$TT_RECORD" -u "$URL" -m m -n 1 --input-tokens 100 -o "$T/f.ttrace" 2>"$T/f.err"
grep -q "calibration of m: the probe of 512 bytes failed: http_401 (HTTP 401)" "$T/f.err" || fail "probe failure: $(cat "$T/f.err")"

# the analyzer: achieved input tokens against the asked, per request and
# per group (summary table line and JSON blocks)
"$TT_ANALYZE" requests --format json "$T/openai-chat-1000.ttrace" >"$T/req.json"
assert_eq "$(jq -rs 'map("\(.asked_input_tokens) \(.asked_output_tokens) \(.input_error_pct == ((.input_tokens - 1000)|fabs) / 10)")|unique|join(",")' "$T/req.json")" \
    "1000 24 true" "requests: asked and error columns"
"$TT_ANALYZE" requests --format csv "$T/openai-chat-1000.ttrace" | sed -n 1p | grepq -E ",asked_input_tokens,input_error_pct,asked_output_tokens(,|$)" \
    || fail "requests csv header"
"$TT_ANALYZE" summary --format json "$T/openai-completions-1000.ttrace" >"$T/sum.json"
assert_eq "$(jq -r '.groups[0]|"\(.asked_input_tokens.p50) \(.input_tokens.p50) \(.input_error_pct.p50) \(.input_error_pct.n)"' "$T/sum.json")" \
    "1000 999 0.1 3" "summary JSON blocks"
"$TT_ANALYZE" summary "$T/openai-completions-1000.ttrace" >"$T/sum.txt" 2>&1
tr '\n' ' ' <"$T/sum.txt" | tr -s ' ' | grepq "input tokens asked: m / exact p50 1000, achieved (usage) p50 999, error p50 0.10%, p99 0.10% (3 requests)" \
    || fail "summary line: $(cat "$T/sum.txt")"
# a run without the option has none of it
start_replay --synthetic 'ttft=1ms,tpot=0,tokens=4'
"$TT_RECORD" -q -u "$URL" -m m -n 1 --classes short-short -o "$T/plain.ttrace"
"$TT_ANALYZE" summary --format json "$T/plain.ttrace" >"$T/sum.json"
assert_eq "$(jq -r '.groups[0]|has("asked_input_tokens") or has("input_error_pct")' "$T/sum.json")" false "no blocks without --input-tokens"
# the fallback (no usage): the error is unknown, and the line says so
"$TT_ANALYZE" summary "$T/nu.ttrace" >"$T/sum.txt" 2>&1
tr '\n' ' ' <"$T/sum.txt" | tr -s ' ' | grepq "input tokens asked: m / exact p50 100, achieved unknown (the server reported no usage)" \
    || fail "no-usage line: $(cat "$T/sum.txt")"

# bad input: exit 2, one line saying why
for bad in "0" "abc" "10:" "10:-1" "20~10" "5~" "3000000"; do
    expect_exit 2 "$TT_RECORD" -u "$URL" -m m --input-tokens "$bad" -o "$T/x.ttrace" 2>"$T/bad.err"
    grep -q "input-tokens: '$bad' is not N, N:SD (normal) or N~M (uniform), N from 1" "$T/bad.err" || fail "'$bad': $(cat "$T/bad.err")"
done
expect_exit 2 "$TT_RECORD" -u "$URL" -m m --output-tokens 1.5 -o "$T/x.ttrace" 2>"$T/bad.err"
grep -q "output-tokens: '1.5' is not" "$T/bad.err" || fail "output bad: $(cat "$T/bad.err")"
expect_exit 2 "$TT_RECORD" -u "$URL" -m m --input-tokens 100 --classes short-short -o "$T/x.ttrace" 2>"$T/bad.err"
grep -q "input-tokens builds its own prompts" "$T/bad.err" || fail "with --classes: $(cat "$T/bad.err")"
expect_exit 2 "$TT_RECORD" -u "$URL" -m m --input-tokens 100 --shared-prefix 100 -o "$T/x.ttrace" 2>"$T/bad.err"
grep -q "must be longer than their shared prefix" "$T/bad.err" || fail "prefix too long: $(cat "$T/bad.err")"
expect_exit 2 "$TT_RECORD" -u "$URL" -m m --shared-prefix 100 -o "$T/x.ttrace" 2>"$T/bad.err"
grep -q "give --input-tokens" "$T/bad.err" || fail "prefix alone: $(cat "$T/bad.err")"
expect_exit 2 "$TT_RECORD" -u "$URL" -m m --output-tokens 10 --max-tokens 5 -o "$T/x.ttrace" 2>"$T/bad.err"
grep -q "leave out --max-tokens" "$T/bad.err" || fail "with --max-tokens: $(cat "$T/bad.err")"
[ ! -e "$T/x.ttrace" ] || fail "a refused run wrote a trace"
echo ok
