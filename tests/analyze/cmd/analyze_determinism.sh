#!/usr/bin/env bash
# The same traces give byte-identical output, run after run, for every
# command and format (no clocks, no hash order, seeded bootstrap), and that
# output is the golden one: each tests/data/analyze/golden/NAME.args (the
# analyzer's arguments, one line) over the golden traces there must print
# exactly NAME.out (the analyzer's version shown as VERSION). Adding a case
# is adding those two files; after an intended change of output, run the
# test with TT_GOLDEN_UPDATE=1 to rewrite the .out files, and read the diff.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
A=$TT_ANALYZE
D=$TT_SOURCE_DIR/tests/data/analyze/golden

# The golden traces (tests/data/analyze/golden/README.md says how they were
# made), under short names so the outputs that name files do not depend on
# where the test runs.
cp "$D"/*.ttrace "$T/"
cd "$T"
i=0
differ=""
for c in "$D"/*.args; do
    i=$((i + 1))
    name=$(basename "$c" .args)
    read -r -a args <"$c"
    r="${args[*]}"
    "$A" "${args[@]}" >"$name.1"
    "$A" "${args[@]}" >"$name.2"
    [ -s "$name.1" ] || fail "no output: $r"
    cmp -s "$name.1" "$name.2" || fail "output differs between runs: $r"
    sed -E 's/(tokentrace-analyze) [0-9]+\.[0-9]+\.[0-9]+[^ |]*/\1 VERSION/' "$name.1" >"$name.out"
    if [ -n "${TT_GOLDEN_UPDATE:-}" ]; then
        cp "$name.out" "$D/$name.out"
    elif ! cmp -s "$name.out" "$D/$name.out"; then
        echo "== $r: differs from $name.out:" >&2
        diff -u "$D/$name.out" "$name.out" | head -c 1500 >&2 || true
        echo >&2
        differ="$differ $name"
    fi
done
[ -z "$differ" ] || fail "output differs from the golden$differ (in $D; when the change is" \
    "intended: TT_GOLDEN_UPDATE=1 ctest -R analyze_determinism, then commit the .out files with it)"
[ "$i" -ge 15 ] || fail "only $i golden cases in $D"
echo "ok: $i commands"
