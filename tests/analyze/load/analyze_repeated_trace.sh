#!/usr/bin/env bash
# The same trace twice (issue 12 item 8): `summary a a` and `cat a a |
# summary -` warn on the repeated trace and count it once (as do trend,
# info and requests); traces that only share a trace id (other clock zeros:
# golden a and b) are both counted; --keep-repeated counts every copy.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
A=$TT_ANALYZE
a=$(tt_data analyze/golden/a.ttrace)
b=$(tt_data analyze/golden/b.ttrace)

"$A" summary "$a" --format json >"$T/one.json"
want=$(jq -c '.overall | [.requests, .ok, .wall_s]' "$T/one.json")
"$A" summary "$a" "$a" --format json >"$T/two.json" 2>"$T/two.err"
assert_eq "$(jq -c '.overall | [.requests, .ok, .wall_s]' "$T/two.json")" "$want" "summary a a"
assert_eq "$(jq '.traces | length' "$T/two.json")" 1 "summary a a: traces"
grep -q "already read.*counted once" "$T/two.err" || fail "summary a a warns: $(cat "$T/two.err")"
cat "$a" "$a" | "$A" summary - --format json >"$T/cat.json" 2>"$T/cat.err"
assert_eq "$(jq -c '.overall | [.requests, .ok, .wall_s]' "$T/cat.json")" "$want" "cat a a | summary -"
grep -q "already read" "$T/cat.err" || fail "cat a a warns"
# a, b, a: b is its own trace (same id, other clock zeros)
"$A" summary "$a" "$b" "$a" --format json >"$T/aba.json" 2>/dev/null
assert_eq "$("$A" summary "$a" "$b" --format json 2>/dev/null | jq -c .overall.requests)" \
    "$(jq -c .overall.requests "$T/aba.json")" "summary a b a"
"$A" summary "$a" "$b" 2>"$T/ab.err" >/dev/null
grep -q "already read" "$T/ab.err" && fail "a and b are not repeats"
# --keep-repeated counts every copy
"$A" summary --keep-repeated "$a" "$a" --format json 2>/dev/null | jq -e '.traces | length == 2' >/dev/null ||
    fail "summary --keep-repeated a a: two traces"
# every loading command reads a repeat once: trend, info; compare a a still
# compares a with itself (each side on its own)
n_trend=$("$A" trend "$a" --format json | jq -c '[.rows[]?.requests] // .')
assert_eq "$("$A" trend "$a" "$a" --format json 2>/dev/null | jq -c '[.rows[]?.requests] // .')" "$n_trend" "trend a a"
assert_eq "$("$A" info "$a" "$a" 2>/dev/null | grep -c '^| trace id ')" 1 "info a a: one block"
"$A" compare "$a" "$a" --format json 2>"$T/cmp.err" >/dev/null || fail "compare a a"
grep -q "already read" "$T/cmp.err" && fail "compare a a: each side is its own"
echo ok
