#!/usr/bin/env bash
# packaging_man: the man pages help2man makes from --help (issue 20, item
# 4) read right: NAME, a SYNOPSIS with every usage form, each analyzer
# command a term of its own in the commands list (help2man once ran them
# into one paragraph), and the examples one command a line. Checked in
# the roff source, and rendered with man when it is installed.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
: "${TT_BUILD_DIR:?}"
if [ "${TT_MAN_PAGES:-OFF}" != ON ]; then
    [ -n "${TT_CI:-}${CI:-}" ] && fail "help2man missing (apt-get install help2man)"
    echo "skipped: no help2man, no man pages"
    exit 77
fi
for p in tokentrace-record tokentrace-replay tokentrace-analyze tokentrace-proxy; do
    page="$TT_BUILD_DIR/packaging/$p.1.gz"
    [ -s "$page" ] || fail "$page missing"
    zcat "$page" >"$T/$p.1"
    grep -qx ".SH NAME" "$T/$p.1" || fail "$p: no NAME"
    grep -qx "$p \\\\- .*" "$T/$p.1" || fail "$p: NAME line: $(grep -A1 '^.SH NAME' "$T/$p.1")"
    # one ".B PROG" in the SYNOPSIS per usage form of --help
    "$TT_BUILD_DIR/bin/$p" --help >"$T/$p.help"
    forms=$(awk 'NR==1 || (started && /^       [a-z]/) {print; started=1; next} {exit}' "$T/$p.help" | wc -l)
    got=$(awk '/^\.SH SYNOPSIS/{s=1; next} /^\.SH/{s=0} s && $0 == ".B '"$p"'"' "$T/$p.1" | wc -l)
    assert_eq "$got" "$forms" "$p: usage forms in the SYNOPSIS"
    ! awk '/^\.SH DESCRIPTION/{d=1; next} /^\.SH/{d=0} d' "$T/$p.1" | grepq -i '^usage:' ||
        fail "$p: the usage line is left in the DESCRIPTION"
    # every line of the usage block is a whole form ("usage: PROG ..." or
    # "       PROG ..."): help2man takes no wrapped line into the SYNOPSIS,
    # it spills into the DESCRIPTION (issue 32: the proxy's did)
    awk 'NR==1{next} /^$/{exit} {print}' "$T/$p.help" >"$T/$p.usage_rest"
    bad=$(grep -v "^       $p " "$T/$p.usage_rest" || true)
    [ -z "$bad" ] || fail "$p: --help usage line that is not a form of its own: $bad"
    # so the DESCRIPTION starts with the paragraph after the usage
    want=$(awk 'p && NF {print; exit} /^$/{p=1}' "$T/$p.help")
    got=$(awk '/^\.SH DESCRIPTION/{d=1; next} d && !/^\./ {print; exit}' "$T/$p.1" | sed 's/\\-/-/g')
    assert_eq "$got" "$want" "$p: first line of the DESCRIPTION"
    # examples: no paragraph macros inside the no-fill block
    if grep -q '^\.SH EXAMPLES\|^\.SS "examples:"' "$T/$p.1"; then
        awk '/^\.SH EXAMPLES|^\.SS "examples:"/{e=1; next} e && /^\.S[HS] /{e=0} e' "$T/$p.1" >"$T/$p.ex"
        head -1 "$T/$p.ex" | grepq -x '\.nf' || fail "$p: examples are not a no-fill block"
        ! grep -q '^\.\(IP\|HP\|TP\)' "$T/$p.ex" || fail "$p: examples filled into paragraphs"
    fi
done
# Every command of `tokentrace-analyze --help` is a .TP term of its own.
awk '/^commands:/{c=1; next} c && /^$/{exit} c {print $1}' "$T/tokentrace-analyze.help" >"$T/commands"
[ "$(wc -l <"$T/commands")" -ge 10 ] || fail "commands in --help: $(cat "$T/commands")"
awk '/^\.SS "commands:"/{c=1; next} c && /^\.S[HS] /{exit} c && prev == ".TP" {print $1} {prev = $0}' \
    "$T/tokentrace-analyze.1" | sed 's/\\//g' >"$T/terms"
assert_eq "$(tr '\n' ' ' <"$T/terms")" "$(tr '\n' ' ' <"$T/commands")" "commands as terms of the man page"
if command -v man >/dev/null; then
    MANWIDTH=80 man -l "$T/tokentrace-analyze.1" 2>/dev/null >"$T/analyze.txt"
    for c in $(cat "$T/commands"); do
        grep -Eq "^       $c " "$T/analyze.txt" || fail "rendered page: '$c' does not start a line"
    done
    grep -Eq '^       tokentrace-analyze check week48.ttrace$' "$T/analyze.txt" ||
        fail "rendered page: an example is not a line of its own"
fi
echo ok
