#!/usr/bin/env bash
# gen_trace_usage: the test trace generator treats an argument that starts
# with '-' as an option, never as the output file: `gen_trace --help` once
# wrote a trace named "--help" into the working tree (it was committed).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
cd "$T"
"$TT_GEN_TRACE" --help >help.txt 2>err.txt || fail "gen_trace --help exited $?"
grepq '^usage: gen_trace OUT' <help.txt || fail "--help prints no usage on stdout"
[ ! -e ./--help ] || fail "gen_trace --help wrote a file named --help"
expect_exit 2 "$TT_GEN_TRACE" --bogus 5 2>err.txt
grepq 'unknown option --bogus' <err.txt || fail "an unknown option is not named"
[ ! -e ./--bogus ] || fail "gen_trace --bogus wrote a file named --bogus"
"$TT_GEN_TRACE" ok.ttrace 2 3 || fail "the plain form stopped working"
[ -s ok.ttrace ] || fail "the plain form wrote nothing"
echo "PASS gen_trace_usage"
