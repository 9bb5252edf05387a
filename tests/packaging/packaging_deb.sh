#!/usr/bin/env bash
# packaging_deb: the Debian package CPack makes of this build (issue 20,
# item 4) holds the four programs, their man pages, bash completion and
# the docs; depends on the runtime libraries the programs link (each one
# installed here) and recommends gnuplot; extracted into a fresh root, its
# programs run the demo (replay, record, summary, plot) from there, print
# --version with the trace format, and the completion offers their flags.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
: "${TT_BUILD_DIR:?}"
for t in cpack dpkg-deb; do
    command -v "$t" >/dev/null || fail "$t missing (Debian: apt-get install cmake dpkg)"
done
cpack -G DEB -B "$T/pkg" --config "$TT_BUILD_DIR/CPackConfig.cmake" >"$T/cpack.log" 2>&1 ||
    { cat "$T/cpack.log"; fail "cpack -G DEB failed"; }
deb=$(ls "$T"/pkg/tokentrace_*.deb)
[ -f "$deb" ] || fail "no tokentrace_*.deb in $T/pkg: $(ls "$T/pkg")"

dpkg-deb -I "$deb" >"$T/info.txt"
grep -q '^ Package: tokentrace$' "$T/info.txt" || fail "package name: $(cat "$T/info.txt")"
grep -q '^ Recommends: gnuplot-nox | gnuplot$' "$T/info.txt" || fail "no gnuplot recommendation"
depends=$(sed -n 's/^ Depends: //p' "$T/info.txt")
for lib in libcurl libevent libcjson libc6; do
    grep -q "$lib" <<<"$depends" || fail "Depends lacks $lib: $depends"
done
# every dependency is a real package, installed on this (build) machine
for pkg in $(tr ',' '\n' <<<"$depends" | sed -E 's/\(.*\)//; s/\|.*//; s/ //g'); do
    dpkg -s "$pkg" >/dev/null 2>&1 || fail "dependency $pkg is not an installed package"
done

dpkg-deb -c "$deb" | awk '{ print $NF }' >"$T/files.txt"
want="./usr/bin/tokentrace-record ./usr/bin/tokentrace-replay ./usr/bin/tokentrace-analyze
./usr/bin/tokentrace-proxy ./usr/share/doc/tokentrace/proxy.md
./usr/share/bash-completion/completions/tokentrace-analyze ./usr/share/doc/tokentrace/README.md
./usr/share/doc/tokentrace/metrics.md ./usr/share/doc/tokentrace/copyright
./usr/share/bash-completion/completions/tokentrace-proxy"
[ "${TT_MAN_PAGES:-OFF}" = ON ] && want="$want ./usr/share/man/man1/tokentrace-record.1.gz
./usr/share/man/man1/tokentrace-replay.1.gz ./usr/share/man/man1/tokentrace-analyze.1.gz
./usr/share/man/man1/tokentrace-proxy.1.gz"
for f in $want; do
    grep -qx -- "$f" "$T/files.txt" || fail "$f not in the package: $(cat "$T/files.txt")"
done

# A fresh root: nothing from the source or build tree is reachable.
root=$T/root
dpkg-deb -x "$deb" "$root"
bin=$root/usr/bin
cd "$T"
for p in tokentrace-record tokentrace-replay tokentrace-analyze tokentrace-proxy; do
    "$bin/$p" --version | grepq -E "^$p [0-9]+\.[0-9]+\.[0-9]+ \(trace format [0-9]+\)$" ||
        fail "$p --version: $("$bin/$p" --version)"
done
TT_REPLAY=$bin/tokentrace-replay
start_replay -q --synthetic 'ttft=20ms,tpot=1ms,tokens=32;model=demo-large,ttft=40ms,tpot=2ms'
"$bin/tokentrace-record" -q -u "$URL" -m demo-small -m demo-large -n 1 -c 4 -o demo.ttrace ||
    fail "installed recorder failed"
"$bin/tokentrace-analyze" summary demo.ttrace >summary.txt 2>/dev/null || fail "installed summary failed"
grep -q '^1 trace, 6 requests, 0 failed' summary.txt || fail "summary: $(cat summary.txt)"
grep -q '^short-short: fastest demo-small; demo-large' summary.txt || fail "no finding: $(cat summary.txt)"
if command -v gnuplot >/dev/null; then
    "$bin/tokentrace-analyze" plot demo.ttrace -o charts --html >/dev/null 2>&1 || fail "installed plot failed"
    [ -s charts/ttft-cdf.png ] && [ -s charts/report.html ] || fail "installed plot: no chart or report"
fi

if [ "${TT_MAN_PAGES:-OFF}" = ON ]; then
    for p in tokentrace-record tokentrace-replay tokentrace-analyze; do
        zcat "$root/usr/share/man/man1/$p.1.gz" >"$p.1"
        sed 's/\\-/-/g' "$p.1" >"$p.txt" # roff's \- is a plain minus
        grep -q '^\.TH TOKENTRACE' "$p.1" || fail "$p.1 has no .TH line"
    done
    grep -q -- '--detail' tokentrace-analyze.txt || fail "the analyze page lacks the summary command's flags"
    grep -q -- '--api-key-env' tokentrace-record.txt || fail "the record page lacks its flags"
    if command -v man >/dev/null && command -v groff >/dev/null; then
        MANWIDTH=80 man -l tokentrace-analyze.1 2>/dev/null | grepq 'COMMANDS' ||
            fail "man -l does not render the analyze page"
    fi
fi

# bash completion, with the installed programs on PATH.
comp=$root/usr/share/bash-completion/completions/tokentrace-analyze
got=$(PATH="$bin:$PATH" bash -c '. "$1"; COMP_WORDS=(tokentrace-analyze summary --de); COMP_CWORD=2
    _tokentrace tokentrace-analyze; echo "${COMPREPLY[*]}"' _ "$comp")
assert_eq "$got" "--detail" "completion of 'tokentrace-analyze summary --de'"
got=$(PATH="$bin:$PATH" bash -c '. "$1"; COMP_WORDS=(tokentrace-analyze com); COMP_CWORD=1
    _tokentrace tokentrace-analyze; echo "${COMPREPLY[*]}"' _ "$comp")
assert_eq "$got" "compare" "completion of a command"
got=$(PATH="$bin:$PATH" bash -c '. "$1"; COMP_WORDS=(tokentrace-analyze ca); COMP_CWORD=1
    _tokentrace tokentrace-analyze; echo "${COMPREPLY[*]}"' _ "$comp")
assert_eq "$got" "capacity" "completion of a command added after the completion was written"
got=$(PATH="$bin:$PATH" bash -c '. "$1"; COMP_WORDS=(tokentrace-record --api-key-e); COMP_CWORD=1
    _tokentrace tokentrace-record; echo "${COMPREPLY[*]}"' _ "$comp")
assert_eq "$got" "--api-key-env" "completion of a recorder flag"
# the proxy's completion is registered too (issue 32: its file was
# installed but `complete` named only the other three)
got=$(PATH="$bin:$PATH" bash -c '. "$1"; complete -p tokentrace-proxy' _ "$root/usr/share/bash-completion/completions/tokentrace-proxy")
assert_eq "$got" "complete -F _tokentrace tokentrace-proxy" "tokentrace-proxy completion registered"
got=$(PATH="$bin:$PATH" bash -c '. "$1"; COMP_WORDS=(tokentrace-proxy --key-e); COMP_CWORD=1
    _tokentrace tokentrace-proxy; echo "${COMPREPLY[*]}"' _ "$comp")
assert_eq "$got" "--key-env" "completion of a proxy flag"
# the copyright file says what it is (Debian copyright format)
grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/$' \
    "$root/usr/share/doc/tokentrace/copyright" || fail "copyright file"
# make install's closing message names all four programs
make -s -n -f "$TT_SOURCE_DIR/Makefile.helpers" -C "$TT_SOURCE_DIR" install PREFIX="$T/none" 2>/dev/null |
    grep 'installed in' | grepq 'tokentrace-proxy' || fail "the install message leaves out the proxy"
echo "packaging_deb: ok ($(du -k "$deb" | cut -f1) KiB)"
