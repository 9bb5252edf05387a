#!/usr/bin/env bash
# info: the markdown block for bug reports has every field, escapes markdown
# in strings from the trace (pipes, backticks, newlines), shows only
# scheme://host:port of the endpoint, and reports damage with its offset.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
G=$TT_GEN_TRACE
A=$TT_ANALYZE

"$G" "$T/t.ttrace" 9 5 100 10 trace_id=9e9e9e9e fail_every=3 warmup=1 'model_a=we|ird`model' \
    "model_b=two
lines" 'label=team=a|b' label=week=48 \
    'endpoint=https://user:secret@gw.example:8443/api/v1?key=abc#frag'
"$A" info "$T/t.ttrace" >"$T/i.md"
has() { grep -qF -- "$1" "$T/i.md" || fail "info lacks: $1"; }
grep -q '^### tokentrace trace: .*/t\.ttrace (trace 0)$' "$T/i.md" || fail "info heading"
has_lines "$(tt_data analyze/info/fields.txt)" "$T/i.md"
has '| analyzer | tokentrace-analyze '
has '| chunks | '
grep -q 'secret\|key=abc\|frag\|/api' "$T/i.md" && fail "endpoint leaks more than scheme://host:port"
# Every line of the table is a table row: nothing broke out.
assert_eq "$(sed -n '3,$p' "$T/i.md" | grep -vc '^|')" 0 "lines outside the table"
assert_eq "$(sed -n '3,$p' "$T/i.md" | awk -F'[^\\\\]\\|' '{print NF}' | sort -u)" 3 "cells per row"

# Damaged: the block still comes, with the byte offset; exit 1.
size=$(stat -c %s "$T/t.ttrace")
head -c "$((size - 30))" "$T/t.ttrace" >"$T/cut.ttrace"
expect_exit 1 "$A" info "$T/cut.ttrace" >"$T/cut.md" 2>/dev/null
grep -qE '^\| integrity \| \*\*damaged\*\*: .*cut.ttrace: byte [0-9]+: record truncated' "$T/cut.md" ||
    fail "damage line: $(grep integrity "$T/cut.md")"
# No footer.
"$G" "$T/nf.ttrace" 2 5 100 10 no_footer=1
"$A" info "$T/nf.ttrace" | grepq -F '| integrity | **no footer**: the recording did not end cleanly |' ||
    fail "no footer"
# Concatenated: one block per trace.
cat "$T/nf.ttrace" "$T/t.ttrace" | "$A" info - >"$T/two.md" 2>/dev/null || true
assert_eq "$(grep -cF '### tokentrace trace: \<stdin\> (trace' "$T/two.md")" 2 "blocks of concatenated traces"
expect_exit 2 "$A" info 2>/dev/null
echo ok
