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
# help2man takes the SYNOPSIS from "Usage: PROG ..." and "   or: PROG ..."
# lines; the programs print "usage:" with the further forms indented under
# it. A wrapper of the same name shows help2man that spelling; everything
# else runs the program itself.
base=$(basename "$prog")
mkdir "$tmp/bin"
{
    printf '#!/bin/sh\n'
    printf 'if [ "$1" = --help ]; then\n'
    printf '    "%s" --help | sed -e "1s/^usage:/Usage:/" -e "2,/^\\$/s/^       %s/   or: %s/"\n' \
        "$prog" "$base" "$base"
    printf 'else\n    exec "%s" "$@"\nfi\n' "$prog"
} >"$tmp/bin/$base"
chmod +x "$tmp/bin/$base"
help2man --no-info --section=1 --name="$name" --include="$tmp/include" \
    --no-discard-stderr "$tmp/bin/$base" >"$tmp/page.1"
# Examples stay one command a line, as --help prints them: help2man fills
# them into paragraphs (and breaks a command continued with a backslash),
# so the EXAMPLES section and an "examples:" subsection become no-fill
# blocks, continuation lines indented.
awk '
/^\.S[HS] / {
    if (ex) print ".fi"
    ex = ($0 ~ /^\.SH EXAMPLES/ || $0 ~ /^\.SS "examples:"/)
    print
    if (ex) { print ".nf"; cont = 0 }
    next
}
ex && /^\.(IP|HP|TP|PP|br)( |$)/ { if ($0 ~ /^\.PP/) print ""; next }
ex { print (cont ? "    " : "") $0; cont = ($0 ~ /\\e$/); next }
{ print }
END { if (ex) print ".fi" }
' "$tmp/page.1" >"$tmp/page.fixed.1"
gzip -n -9 <"$tmp/page.fixed.1" >"$out"
