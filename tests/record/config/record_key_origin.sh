#!/usr/bin/env bash
# The run names where its key and an environment base URL came from;
# --api anthropic reads ANTHROPIC_BASE_URL (before OPENAI_BASE_URL) and
# warns when it falls back to OPENAI_API_KEY's key; the doctor names the
# base URL's variable too. The key itself is never printed.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

start_replay --synthetic 'ttft=2ms,tpot=1ms,tokens=3'
run() { env -u OPENAI_BASE_URL -u ANTHROPIC_BASE_URL -u OPENAI_API_KEY -u ANTHROPIC_API_KEY "$@"; }
key=sk-origin-test-0123456789

# anthropic with only OPENAI_API_KEY: named and warned; ANTHROPIC_BASE_URL used
run OPENAI_API_KEY=$key ANTHROPIC_BASE_URL="$URL" OPENAI_BASE_URL=http://127.0.0.1:1 \
    "$TT_RECORD" --api anthropic -m m -n 1 --classes short-short -o "$T/a.ttrace" 2>"$T/a.err" ||
    fail "anthropic run: $(cat "$T/a.err")"
grep -q "warning: --api anthropic: ANTHROPIC_API_KEY is not set; sending the key of \$OPENAI_API_KEY" "$T/a.err" ||
    fail "no fallback warning: $(cat "$T/a.err")"
grep -q "base URL from \$ANTHROPIC_BASE_URL, key from \$OPENAI_API_KEY" "$T/a.err" || fail "no origins note"
assert_eq "$(jqs "$(dump "$T/a.ttrace")" '.[0].endpoint')" "$URL" "endpoint from ANTHROPIC_BASE_URL"
if grep -q "$key" "$T/a.err"; then fail "key printed"; fi

# anthropic with its own key: no warning
run ANTHROPIC_API_KEY=$key ANTHROPIC_BASE_URL="$URL" \
    "$TT_RECORD" --api anthropic -m m -n 1 --classes short-short -o "$T/b.ttrace" 2>"$T/b.err" || fail "b"
grep -q "key from \$ANTHROPIC_API_KEY" "$T/b.err" || fail "b: no key origin: $(cat "$T/b.err")"
if grep -q "warning: --api anthropic" "$T/b.err"; then fail "b: warned"; fi

# anthropic falls back to OPENAI_BASE_URL; the OpenAI kinds ignore ANTHROPIC_BASE_URL
run OPENAI_BASE_URL="$URL" "$TT_RECORD" --api anthropic -m m -n 1 --classes short-short \
    -o "$T/c.ttrace" 2>"$T/c.err" || fail "c: $(cat "$T/c.err")"
grep -q "base URL from \$OPENAI_BASE_URL" "$T/c.err" || fail "c: no url origin"
expect_exit 2 run ANTHROPIC_BASE_URL="$URL" "$TT_RECORD" -m m -n 1 -o "$T/d.ttrace" 2>"$T/d.err"
grep -q "set OPENAI_BASE_URL" "$T/d.err" || fail "d: $(cat "$T/d.err")"
expect_exit 2 run "$TT_RECORD" --api anthropic -m m -n 1 -o "$T/e.ttrace" 2>"$T/e.err"
grep -q "set ANTHROPIC_BASE_URL or OPENAI_BASE_URL" "$T/e.err" || fail "e: $(cat "$T/e.err")"

# -u with a key: the key's variable, no URL origin
run OPENAI_API_KEY=$key "$TT_RECORD" -u "$URL" -m m -n 1 --classes short-short \
    -o "$T/f.ttrace" 2>"$T/f.err" || fail "f"
grep -q "note: key from \$OPENAI_API_KEY\|: key from \$OPENAI_API_KEY" "$T/f.err" || fail "f: $(cat "$T/f.err")"

# the doctor names the variable of the base URL
run ANTHROPIC_BASE_URL="$URL" "$TT_RECORD" --api anthropic -m m --check -o "$T/g.ttrace" \
    >"$T/g.out" 2>"$T/g.err" || fail "check: $(cat "$T/g.err")"
grep -q "base URL from \$ANTHROPIC_BASE_URL" "$T/g.out" || fail "check: $(cat "$T/g.out")"
echo ok
