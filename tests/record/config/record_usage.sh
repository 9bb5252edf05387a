#!/usr/bin/env bash
# Usage errors exit 2 with one "tokentrace-record: error: <reason>" line and
# "try --help", before anything is sent or written: bad flags, bad values,
# bad base URLs (with the corrected URL), malformed workloads (FILE:LINE),
# unknown classes, an existing output. --help answers questions.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"

unset OPENAI_BASE_URL OPENAI_API_KEY

# usage_error WANT ARGS...: exit 2, exactly two stderr lines, the first
# "tokentrace-record: error: ..." containing WANT, the second "try --help",
# nothing on stdout and no trace file written.
usage_error() {
    local want=$1; shift
    (cd "$T/work" && expect_exit 2 "$TT_RECORD" "$@" >"$T/u.out" 2>"$T/u.err")
    assert_eq "$(wc -l <"$T/u.err")" 2 "stderr lines for: $*"
    head -1 "$T/u.err" | grepq "^tokentrace-record: error: " || fail "no error prefix for $*: $(cat "$T/u.err")"
    head -1 "$T/u.err" | grepq -F -- "$want" || fail "error for '$*' lacks '$want': $(cat "$T/u.err")"
    assert_eq "$(sed -n 2p "$T/u.err")" "try --help" "hint for: $*"
    [ ! -s "$T/u.out" ] || fail "stdout written for: $*"
    [ -z "$(ls -A "$T/work")" ] || fail "files written for: $*: $(ls "$T/work")"
}
mkdir -p "$T/work"
U=http://127.0.0.1:9

usage_error "unknown option '--bogus'" -u $U -m a --bogus
usage_error "unknown option '--frob'" -u $U -m a --frob=1
usage_error "unknown option '-Z'" -u $U -m a -Z
usage_error "needs a value" -u $U -m
usage_error "takes no value" -u $U -m a --force=yes
usage_error "no model" -u $U
usage_error "no base URL" -m a
usage_error "unexpected argument 'extra'" -u $U -m a extra
usage_error "-n: '0'" -u $U -m a -n 0
usage_error "-n: 'ten'" -u $U -m a -n ten
usage_error "-c: '0'" -u $U -m a -c 0
usage_error "-r: '-1'" -u $U -m a -r -1
usage_error "--arrival needs an open loop" -u $U -m a --arrival constant
usage_error "--sweep: 'users=1,2' is not concurrency=LOADS" -u $U -m a --sweep users=1,2
usage_error "--sweep: '1.5' is not a concurrency" -u $U -m a --sweep concurrency=1,1.5
usage_error "--sweep: '0' is not a rate" -u $U -m a --sweep rate=1,0
usage_error "--sweep: '' is not a rate" -u $U -m a --sweep rate=1,,2
usage_error "--sweep: STOP is below START" -u $U -m a --sweep rate=4:1:1
usage_error "--sweep: '1:4' is not START:STOP:STEP" -u $U -m a --sweep rate=1:4
usage_error "more than 256 stages" -u $U -m a --sweep rate=1:1000:1
usage_error "leave out -c and -r" -u $U -m a --sweep concurrency=1,2 -c 4
usage_error "leave out -r" -u $U -m a --sweep rate=1,2 -r 4
usage_error "--arrival: 'burst'" -u $U -m a -r 1 --arrival burst
usage_error "--timeout: '0'" -u $U -m a --timeout 0
usage_error "--idle-timeout: 'soon'" -u $U -m a --idle-timeout soon
usage_error "--duration: '5x'" -u $U -m a --duration 5x
usage_error "--api: 'openai'" -u $U -m a --api openai
usage_error "--label: 'novalue'" -u $U -m a --label novalue
usage_error "--extra-body: not a JSON object" -u $U -m a --extra-body '[1]'
usage_error "--extra-body: not a JSON object" -u $U -m a --extra-body '{'
usage_error "--progress: 'sometimes'" -u $U -m a --progress sometimes
usage_error "given twice" -u $U -m a -m a
usage_error "--max-tokens" -u $U -m a --max-tokens -5
usage_error "--check and --print-cline-settings exclude each other" -u $U -m a --check --print-cline-settings
usage_error "cannot read $T/none.json" -u $U -m a --cline-settings "$T/none.json"
usage_error "--cline-settings: empty file name" -u $U -m a --cline-settings ''
usage_error "no model: give at least one -m MODEL" -u $U --check
usage_error "not a key" -u $U -m a --api-key-env 'not a name'

# base URLs
usage_error "Use: https://gateway.example/api" -u 'https://gateway.example/api/?utm_source=x&utm_medium=y' -m a
usage_error "did you mean https://gateway.example" -u gateway.example -m a
usage_error "credentials" -u 'https://me:pw@gateway.example' -m a
grep -q "pw" "$T/u.err" && fail "credentials echoed"
OPENAI_BASE_URL='https://gw.example/api?x=1' usage_error "(from \$OPENAI_BASE_URL)" -m a

# workloads
W=$(tt_data record/workload)
usage_error "$W/bad-json.jsonl:3: not valid JSON" -u $U -m a -w "$W/bad-json.jsonl"
usage_error "$W/bad-message.jsonl:1: each message needs a \"content\"" -u $U -m a -w "$W/bad-message.jsonl"
usage_error "$W/bad-max-tokens.jsonl:1: \"max_tokens\"" -u $U -m a -w "$W/bad-max-tokens.jsonl"
usage_error "cannot read the workload" -u $U -m a -w "$T/missing.jsonl"
usage_error "no class 'long-long' in the builtin workload (it has: short-short short-long long-short agent)" \
    -u $U -m a --classes short-short,long-long

# an existing output is kept unless --force
echo precious >"$T/work/keep.ttrace"
(cd "$T/work" && expect_exit 2 "$TT_RECORD" -u $U -m a -o keep.ttrace 2>"$T/u.err")
grep -q "keep.ttrace exists; use --force" "$T/u.err" || fail "exists message: $(cat "$T/u.err")"
assert_eq "$(cat "$T/work/keep.ttrace")" precious "existing file untouched"
rm "$T/work/keep.ttrace"

# --help: every flag, defaults, three examples (one without a key)
"$TT_RECORD" --help >"$T/help.txt" || fail "--help exit $?"
for flag in -u --url -m --model --api --api-key-env -w --workload --classes -n --requests \
    -c --concurrency -r --rate --arrival --seed --warmup --duration --max-tokens \
    --ignore-eos --extra-body --timeout --idle-timeout --connect-timeout --label \
    --no-content --http2 -o --output --force --progress -q --quiet --no-request-id \
    --check --cline-settings --print-cline-settings --version --sweep --search --ramp --burstiness --arrivals --speed; do
    grep -qE -- "(^|[ ,])$flag([ ,=.]|$)" "$T/help.txt" || fail "--help does not mention $flag"
done
for default in "default 3" "default 1)" "default 600" "default 120" "OPENAI_BASE_URL" \
    "OPENAI_API_KEY" "ANTHROPIC_API_KEY" "poisson (default)" "openai-chat (default)"; do
    grep -qF -- "$default" "$T/help.txt" || fail "--help lacks '$default'"
done
assert_eq "$(sed -n '/^Examples:/,$p' "$T/help.txt" | grep -c '^  # ')" 5 "examples in --help"
grep -q "no key needed" "$T/help.txt" || fail "--help has no no-key example"
"$TT_RECORD" -h | cmp -s - "$T/help.txt" || fail "-h differs from --help"
"$TT_RECORD" --version | grepq -E '^tokentrace-record [0-9]+\.[0-9]+' || fail "--version"
echo ok
