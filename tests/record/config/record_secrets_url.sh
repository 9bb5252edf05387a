#!/usr/bin/env bash
# record_secrets_url: a key inside the base URL's path ("-u
# https://host/<key>/api", $OPENAI_BASE_URL, a Cline settings base URL) is
# used for the requests as given, and shown nowhere: not on the recorder's
# stderr (the "recording to" note, the base URL warnings, the usage error
# of a refused URL), not in the trace header's endpoint and url, not in
# --check's lines (endpoint, note, hint, fix, the server's words) nor its
# -o trace, not in any analyzer output (info, summary in every format with
# the JSON endpoint, requests, dump, plot --html). Two kinds of key: one
# that looks like a key ("sk-..."), hidden with or without it in the
# environment, and one that does not (letters and digits), hidden because
# it is the key in the environment. The server echoes the path in its error
# bodies (replay fault leaky-body): masked in the stored chunks too.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/doctor_lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

MARK_A="URLSECRET$RANDOM$RANDOM"
MARK_B="p4th-do-not-leak"
SK="sk-proj-$MARK_A-$MARK_B" # looks like a key
MARK_C="Hx$RANDOM$RANDOM"
PLAIN="Zq9${MARK_C}Ab3Cd"     # does not: only hidden as the run's key
unset OPENAI_API_KEY ANTHROPIC_API_KEY OPENAI_BASE_URL ANTHROPIC_BASE_URL
OUT="$T/out"
mkdir -p "$OUT"
start_replay --synthetic 'ttft=5ms,tpot=2ms,tokens=8' \
    --fault leaky-body@denied --fault http-401@denied
R=(-n 1 --classes short-short -m good -m denied)

# run NAME ARGS...: records into $OUT/NAME.ttrace (good works, denied fails)
run() {
    local name=$1; shift
    rec "$name" "$@" -o "$OUT/$name.ttrace"
    [ "$RC" -eq 0 ] || fail "$name: exit $RC: $(cat "$T/$name.err")"
    grep -q "requests: 1 ok, 1 failed" "$T/$name.err" || fail "$name: $(cat "$T/$name.err")"
}
# the sk- key in the path, in the environment too; a trailing slash and a
# pasted API path make the recorder quote the URL in warnings
OPENAI_API_KEY=$SK run sk_env -u "$URL/$SK/api/" "${R[@]}"
has sk_env.err "recording to $OUT/sk_env.ttrace: $URL/[redacted]/api/v1/chat/completions"
has sk_env.err "removed the trailing slash"
OPENAI_API_KEY=$SK run sk_path -u "$URL/$SK/api/v1/chat/completions" "${R[@]}"
has sk_path.err "using the base $URL/[redacted]/api"
# the sk- key only in the URL: no key in the environment
run sk_alone -u "$URL/$SK/v1" "${R[@]}"
# a plain key in the path and in the environment, given by $OPENAI_BASE_URL
OPENAI_API_KEY=$PLAIN OPENAI_BASE_URL="$URL/$PLAIN/api/" run plain "${R[@]}"
has plain.err "$URL/[redacted]/api/v1/chat/completions"
# a Cline settings base URL with the key
cat >"$T/cline.json" <<EOF
{
    "cline.apiProvider": "openai",
    "cline.openAiBaseUrl": "$URL/$SK/v1",
    "cline.openAiApiKey": "\${env:TT_URL_KEY}",
    "cline.openAiModelId": "good",
}
EOF
TT_URL_KEY=$SK rec cline --cline-settings "$T/cline.json" -n 1 --classes short-short \
    -o "$OUT/cline.ttrace"
[ "$RC" -eq 0 ] || fail "cline: exit $RC: $(cat "$T/cline.err")"
TT_URL_KEY=$PLAIN rec cline_env --cline-settings "$T/cline.json" -n 1 --classes short-short \
    -o "$OUT/cline_env.ttrace"
[ "$RC" -eq 0 ] || fail "cline_env: exit $RC: $(cat "$T/cline_env.err")"

# the header keeps the URL's shape, the key as [redacted]
for t in sk_env sk_path sk_alone cline; do
    d=$(dump "$OUT/$t.ttrace")
    assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.endpoint')" \
        "$URL/[redacted]/$([ $t = sk_env ] || [ $t = sk_path ] && echo api || echo v1)" "$t: endpoint"
done
d=$(dump "$OUT/plain.ttrace")
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|"\(.endpoint) \(.url)"')" \
    "$URL/[redacted]/api $URL/[redacted]/api/v1/chat/completions" "plain: endpoint and url"
# the server's echo of the path in its 401 body is masked, length kept
assert_eq "$(jqs "$d" '[.[]|select(.kind=="chunk")|.data|select(contains("(POST /'"$(printf '%*s' ${#PLAIN} '' | tr ' ' '*')"'/api/v1/chat/completions)"))]|length')" \
    1 "plain: the path echoed in the body, masked"
d=$(dump "$OUT/sk_alone.ttrace")
assert_eq "$(jqs "$d" '[.[]|select(.kind=="chunk")|.data|select(contains("(POST /'"$(printf '%*s' ${#SK} '' | tr ' ' '*')"'/v1/chat/completions)"))]|length')" \
    1 "sk_alone: the path echoed in the body, masked"

# refused URLs: the usage error quotes the URL with the key hidden
OPENAI_API_KEY=$PLAIN rec bad_query -u "$URL/$PLAIN/api?team=x" -m good -o "$OUT/never.ttrace"
[ "$RC" -eq 2 ] || fail "bad_query: exit $RC"
has bad_query.err "Use: $URL/[redacted]/api"
rec bad_scheme -u "$SK" -m good -o "$OUT/never.ttrace"
[ "$RC" -eq 2 ] || fail "bad_scheme: exit $RC"
has bad_scheme.err "the base URL '[redacted]' has no scheme"
[ ! -e "$OUT/never.ttrace" ] || fail "a refused URL wrote a trace"

# --check: its lines and its trace
OPENAI_API_KEY=$PLAIN rec check --check -u "$URL/$PLAIN/api/" -m good -m denied -o "$OUT/check.ttrace"
[ "$RC" -eq 1 ] || fail "check: exit $RC: $(cat "$T/check.out")"
has check.out "endpoint: POST $URL/[redacted]/api/v1/chat/completions"
has check.out "the base is $URL/[redacted]/api"
has check.out "ready to record: tokentrace-record -u $URL/[redacted]/api -m good"
has check.out "denied: FAIL"
rec check_sk --check -u "$URL/$SK/v1" -m good
[ "$RC" -eq 0 ] || fail "check_sk: exit $RC: $(cat "$T/check_sk.out")"
has check_sk.out "endpoint: POST $URL/[redacted]/v1/chat/completions"
OPENAI_API_KEY=$PLAIN rec check_query --check -u "$URL/$PLAIN/api?x=1" -m good
[ "$RC" -eq 1 ] || fail "check_query: exit $RC"
has check_query.out "base URL: FAIL url-query"
has check_query.out "fix: use the base URL without it: -u $URL/[redacted]/api"
d=$(dump "$OUT/check.ttrace")
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.endpoint')" "$URL/[redacted]/api" "check trace endpoint"

# every analyzer output
A=$TT_ANALYZE
traces=("$OUT"/*.ttrace)
for t in "${traces[@]}"; do "$A" info "$t" >"$t.info.md"; done
for f in table json csv markdown; do
    "$A" summary "${traces[@]}" --by model --format $f >"$OUT/summary.$f" 2>>"$OUT/analyze.err"
done
grep -q "\[redacted\]" "$OUT/summary.json" || fail "summary json shows no endpoint: $(head -c 600 "$OUT/summary.json")"
"$A" requests "${traces[@]}" >"$OUT/requests.csv" 2>>"$OUT/analyze.err"
"$A" requests "${traces[@]}" --format json >"$OUT/requests.jsonl" 2>>"$OUT/analyze.err"
"$A" dump "${traces[@]}" >"$OUT/dump.jsonl"
"$A" check "${traces[@]}" >"$OUT/check-traces.txt" 2>&1 || true
if "$A" plot --help >/dev/null 2>&1; then
    "$A" plot "${traces[@]}" -o "$OUT/charts" --html >"$OUT/plot.out" 2>"$OUT/plot.err" \
        || fail "plot: $(cat "$OUT/plot.err")"
    grep -q "\[redacted\]" "$OUT/charts/report.html" || fail "report.html shows no endpoint"
fi
cp "$T"/*.out "$T"/*.err "$OUT/"

n=$(find "$OUT" -type f | wc -l)
[ "$n" -ge 40 ] || fail "only $n output files"
leaks=$(grep -rl -a -e "$MARK_A" -e "$MARK_B" -e "$MARK_C" "$OUT" || true)
[ -z "$leaks" ] || fail "the key leaked into: $leaks"
echo "record_secrets_url: ok ($n files checked)"
