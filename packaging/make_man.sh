#!/bin/sh
# make_man.sh PROGRAM OUT.1.gz DESCRIPTION: the man page of PROGRAM from its
# own --help and --version (help2man); for tokentrace-analyze every
# command's --help becomes a COMMANDS section. Gzipped without a timestamp,
# so the same build gives the same bytes.
set -eu
prog=$1 out=$2 name=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# roff-safe preformatted text: backslashes doubled, leading . and ' guarded.
roff() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }
: >"$tmp/include"
case $(basename "$prog") in
tokentrace-analyze)
    printf '[COMMANDS]\n' >>"$tmp/include"
    for c in summary requests compare trend info dump check share plot; do
        "$prog" "$c" --help >/dev/null 2>&1 || continue
        printf '.SS %s\n.nf\n' "$c" >>"$tmp/include"
        "$prog" "$c" --help | roff >>"$tmp/include"
        printf '.fi\n' >>"$tmp/include"
    done ;;
esac
printf '[SEE ALSO]\ntokentrace-record(1), tokentrace-replay(1), tokentrace-analyze(1);\nREADME.md and docs/ (installed in share/doc/tokentrace)\n' >>"$tmp/include"
help2man --no-info --section=1 --name="$name" --include="$tmp/include" \
    --no-discard-stderr "$prog" >"$tmp/page.1"
gzip -n -9 <"$tmp/page.1" >"$out"
