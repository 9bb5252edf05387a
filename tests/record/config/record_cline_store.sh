#!/usr/bin/env bash
# record_cline_store: --cline-settings with Cline's own files, as the real
# Cline CLI (npm cline 3.0.65) writes them (tests/data/record/cline/:
# providers.json from `cline auth -p openai-compatible`, the legacy
# globalState.json + secrets.json pair and the providers.json Cline
# migrated it into), given as a file or as the data directory. The doctor
# and a recording take base URL, model, key and timeout from the provider
# Cline last used, say which file and provider they read, and never show
# or store the key; a provider that is not OpenAI Compatible is refused,
# and with no key in the file $OPENAI_API_KEY is used, as Cline does.
# --cline-settings with no file finds them where Cline looks.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/doctor_lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

AUTH_KEY='sk-tt-fake-0123456789abcdef01'
OLD_KEY='sk-tt-legacy-0123456789abcdef01'
unset OPENAI_API_KEY OPENAI_BASE_URL CLINE_DATA_DIR CLINE_DIR CLINE_PROVIDER_SETTINGS_PATH
export WANT_KEY=$AUTH_KEY
start_replay --expect-key-env WANT_KEY --synthetic 'ttft=30ms,tpot=2ms,tokens=16'
SRC=$(tt_data record/cline)

# data DIR FILE...: Cline's data directory DIR with the fixtures FILE in
# their places, the replay server's port in the base URL.
data() {
    local dir=$1 f; shift
    mkdir -p "$dir/settings"
    for f in "$@"; do
        case $f in
        providers*.json) sed "s/PORT/$PORT/" "$SRC/$f" >"$dir/settings/providers.json" ;;
        *) sed "s/PORT/$PORT/" "$SRC/$f" >"$dir/$f" ;;
        esac
    done
}
# nokey NAME: no key in stdout, stderr or the trace NAME.ttrace (if any).
nokey() {
    local f
    for f in "$T/$1.out" "$T/$1.err" "$T/$1.ttrace"; do
        [ -e "$f" ] || continue
        if grep -qaF -e "$AUTH_KEY" -e "$OLD_KEY" "$f"; then fail "key in $f"; fi
    done
}

# providers.json from `cline auth`: file and directory
A="$T/a/.cline/data"
data "$A" providers.json
P="$A/settings/providers.json"
rec check --check --cline-settings "$P"
expect_rc 0 check
has check.out "base URL from providers.openai-compatible.settings.baseUrl in $P line 11"
has check.out "key: providers.openai-compatible.settings.apiKey in $P (set, 29 characters)"
has check.out "test-model: OK: streams"
has check.err "$P: Cline's providers.json, provider openai-compatible (lastUsedProvider): base URL http://127.0.0.1:$PORT/v1, model test-model, timeout (not set), key providers.openai-compatible.settings.apiKey (in $P; not shown)"
nokey check
rec dir --check --cline-settings "$A"
expect_rc 0 dir
has dir.out "base URL from providers.openai-compatible.settings.baseUrl in $P line 11"
rec run --cline-settings "$A" -n 1 --classes short-short -o "$T/run.ttrace" -q
expect_rc 0 run
d=$(dump "$T/run.ttrace")
check_complete "$d" 1
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.options|[.["cline.format"],.["cline.provider"],.["cline.baseUrl"],.["cline.model"],.["cline.apiKey"]]|join(" ")')" \
    "providers.json openai-compatible http://127.0.0.1:$PORT/v1 test-model [redacted]" "header options"
nokey run
grep -qaF "$AUTH_KEY" "$d" && fail "key in the dump"

# --cline-settings with no file: the file Cline itself reads, found as
# Cline looks ($CLINE_PROVIDER_SETTINGS_PATH, $CLINE_DATA_DIR, ~/.cline/data),
# here a throwaway HOME holding the real fixture; a flag after it is no file
HOME="$T/a" rec find --check --cline-settings
expect_rc 0 find
has find.err "--cline-settings: $P, where Cline looks (~/.cline/data)"
has find.out "base URL from providers.openai-compatible.settings.baseUrl in $P line 11"
has find.out "test-model: OK: streams"
nokey find
HOME="$T/a" rec findrun --cline-settings -n 1 --classes short-short -o "$T/findrun.ttrace" -q
expect_rc 0 findrun
check_complete "$(dump "$T/findrun.ttrace")" 1
nokey findrun
HOME="$T/nowhere" CLINE_DATA_DIR="$A" rec finddir --check --cline-settings=
expect_rc 2 finddir
has finddir.err "--cline-settings: empty file name"
HOME="$T/nowhere" CLINE_DATA_DIR="$A" rec finddir --check --cline-settings
expect_rc 0 finddir
has finddir.err "--cline-settings: $P, where Cline looks (\$CLINE_DATA_DIR)"
nokey finddir
HOME="$T/nowhere" rec findnone --check --cline-settings
expect_rc 2 findnone
has findnone.err "--cline-settings: no Cline settings: neither $T/nowhere/.cline/data/settings/providers.json nor $T/nowhere/.cline/data/globalState.json exists (from ~/.cline/data)"
# a value the file leaves out is named as the file names it
Q="$T/q/.cline/data"
data "$Q" providers.json
sed -i '/"model"/d' "$Q/settings/providers.json"
HOME="$T/q" rec nomodel --check --cline-settings
expect_rc 2 nomodel
has nomodel.err "no model: give at least one -m MODEL (or providers.openai-compatible.settings.model in $Q/settings/providers.json)"
hasnt nomodel.err "cline.openAiModelId"
nokey nomodel

# the legacy pair, given as either file or the directory; and the
# providers.json Cline 3.0.65 migrated it into: the same values
export WANT_KEY=$OLD_KEY
start_replay --expect-key-env WANT_KEY --synthetic 'ttft=30ms,tpot=2ms,tokens=16'
L="$T/l/.cline/data"
data "$L" globalState.json secrets.json
for f in "$L/globalState.json" "$L/secrets.json" "$L"; do
    rec legacy --check --cline-settings "$f"
    expect_rc 0 legacy
    has legacy.out "base URL from openAiBaseUrl in $L/globalState.json line 5"
    has legacy.out "key: openAiApiKey in $L/secrets.json (set, 31 characters)"
    has legacy.out "act-model: OK: streams"
    has legacy.err "Cline's globalState.json, provider openai: base URL http://127.0.0.1:$PORT/v1, model act-model, timeout 120000 ms"
    nokey legacy
done
M="$T/m/.cline/data"
data "$M" providers-migrated.json
rec migrated --check --cline-settings "$M"
expect_rc 0 migrated
has migrated.out "act-model: OK: streams"
has migrated.err "model act-model, timeout 120000 ms"
nokey migrated
# plan mode reads the plan model
sed -i 's/"mode": "act"/"mode": "plan"/' "$L/globalState.json"
rec plan --check --cline-settings "$L"
has plan.out "plan-model: OK: streams"

# no key in the file: $OPENAI_API_KEY, as Cline
export WANT_KEY=$AUTH_KEY
start_replay --expect-key-env WANT_KEY --synthetic 'ttft=30ms,tpot=2ms,tokens=16'
N="$T/n/.cline/data"
data "$N" providers.json
sed -i '/"apiKey"/d' "$N/settings/providers.json"
export OPENAI_API_KEY=$AUTH_KEY
rec envkey --check --cline-settings "$N"
expect_rc 0 envkey
has envkey.out 'key: $OPENAI_API_KEY (set, 29 characters)'
has envkey.err 'key $OPENAI_API_KEY (no apiKey in the file'
unset OPENAI_API_KEY

# Cline last used another provider: refused, naming it and the way out
sed -i 's/"lastUsedProvider": "openai-compatible"/"lastUsedProvider": "anthropic"/' "$P"
rec other --check --cline-settings "$P"
expect_rc 2 other
has other.err "$P:3: lastUsedProvider: is \"anthropic\", not Cline's OpenAI Compatible provider"
has other.err "the file has an openai-compatible entry too"
nokey other
# a syntax error at the key never shows it
printf '{"version":1,"providers":{"openai":{"settings":{"apiKey": %s}}}}\n' "$AUTH_KEY" >"$T/bad.json"
rec bad --check --cline-settings "$T/bad.json"
expect_rc 2 bad
has bad.err "syntax error at the apiKey setting"
nokey bad
# a directory without Cline's files
mkdir -p "$T/empty"
rec empty --check --cline-settings "$T/empty"
expect_rc 2 empty
has empty.err "a directory without Cline's settings/providers.json or globalState.json"
echo ok
