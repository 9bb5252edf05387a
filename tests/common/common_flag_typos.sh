#!/usr/bin/env bash
# A mistyped flag of tokentrace-record, -replay or -analyze is a usage error (exit 2)
# that names the closest flag when one is a plausible typo (common/suggest.c,
# the same rule as the analyzer's commands), and only the unknown flag
# otherwise. Cases are lines of tests/data/common/flag-typos.txt.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"

unset OPENAI_BASE_URL OPENAI_API_KEY
n=0
while IFS='|' read -r prog args want || [ -n "$prog" ]; do
    case $prog in '' | '#'*) continue ;; esac
    prog=$(echo $prog) want=${want# } args=${args# }
    case $prog in
        record) bin=$TT_RECORD ;; replay) bin=$TT_REPLAY ;; analyze) bin=$TT_ANALYZE ;;
        *) fail "bad program '$prog'" ;;
    esac
    # shellcheck disable=SC2086 # the arguments are words of the table
    (cd "$T" && expect_exit 2 "$bin" $args >"$T/out" 2>"$T/err")
    head -1 "$T/err" | grepq -F -- "$want" || fail "$prog $args: want '$want', got: $(head -1 "$T/err")"
    if [[ $want != *"did you mean"* ]] && grep -q "did you mean" "$T/err"; then
        fail "$prog $args: a suggestion for a word far from every flag"
    fi
    n=$((n + 1))
done <"$(tt_data common/flag-typos.txt)"
[ "$n" -ge 10 ] || fail "only $n cases"
echo "ok ($n cases)"
