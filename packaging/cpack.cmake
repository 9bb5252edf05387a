# cpack.cmake: the Debian package (`make -f Makefile.helpers deb`, or
# `cpack -G DEB` in the build tree) of everything `cmake --install` puts in
# place. Included from the top-level CMakeLists.txt, as CPack wants.
# The Debian package: cpack -G DEB in the build tree. Depends come from
# dpkg-shlibdeps (the runtime libraries the programs link); gnuplot draws
# the charts, so it is recommended, not required.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tokentrace)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "tokentrace maintainers <tokentrace@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "measure LLM API streaming latency (TTFT, TPOT, ITL, throughput)")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "tokentrace-record sends streaming requests to an OpenAI-compatible or
Anthropic endpoint and keeps every received byte with its timestamp;
tokentrace-analyze recomputes TTFT, TPOT, inter-token latency, latency
and throughput offline, compares runs and draws charts;
tokentrace-replay serves synthetic or recorded streams on loopback.
tokentrace-proxy records a coding agent's own traffic as it streams through.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gnuplot-nox | gnuplot")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "jq")
set(CPACK_STRIP_FILES ON)
include(CPack)
