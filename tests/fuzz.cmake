# Fuzz targets (tests/fuzz/fuzz_*.c, docs/robustness.md).
#
# -DTT_FUZZ=ON with clang (CC=clang): real libFuzzer binaries built with
# -fsanitize=fuzzer,address,undefined over an instrumented copy of common/
# (run them with `make -f Makefile.helpers fuzz`).
# Otherwise (the normal gcc build): each target is linked with a small main()
# (fuzz_regress_main.c) into a regression runner that feeds it every file of
# tests/fuzz/corpus/<target>/ and tests/fuzz/crashes/<target>/, registered
# as the ctest test <target>_regress: the seed corpus and every crash ever
# found stay regression tests.
option(TT_FUZZ "Build libFuzzer targets (needs CC=clang)" OFF)

set(TT_FUZZ_DIR ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
set(TT_FUZZ_LIBFUZZER OFF)
if(TT_FUZZ)
  if(CMAKE_C_COMPILER_ID MATCHES "Clang")
    set(TT_FUZZ_LIBFUZZER ON)
  else()
    message(WARNING "TT_FUZZ=ON needs clang (CC=clang); building the fuzz "
                    "targets as regression runners instead")
  endif()
endif()

set(TT_FUZZ_SAN -fsanitize=address,undefined -fno-sanitize-recover=all
                -fno-omit-frame-pointer)
if(TT_FUZZ_LIBFUZZER)
  # The code under test must carry coverage instrumentation, so the fuzz
  # build compiles its own copy of common/ rather than using ttcommon.
  file(GLOB TT_FUZZ_COMMON_SOURCES CONFIGURE_DEPENDS
       ${PROJECT_SOURCE_DIR}/common/*.c)
  add_library(ttcommon_fuzz STATIC ${TT_FUZZ_COMMON_SOURCES})
  target_include_directories(ttcommon_fuzz PUBLIC ${PROJECT_SOURCE_DIR}/common)
  # -Wno-format-nonliteral: common/log.c's vlog lacks a format attribute,
  # which clang's -Wformat=2 flags (gcc does not).
  target_compile_options(ttcommon_fuzz PRIVATE -fsanitize=fuzzer-no-link
                         ${TT_FUZZ_SAN} -Wno-format-nonliteral)
  target_link_libraries(ttcommon_fuzz PUBLIC PkgConfig::MSGPACK
                        PkgConfig::CJSON m)
endif()

# tt_add_fuzz_target(NAME EXTRA_SOURCES...): tests/fuzz/NAME.c plus the
# sources it needs beyond common/.
# Every module folder of record/ and analyze/, for the targets that compile
# those modules' sources themselves.
file(GLOB TT_FUZZ_INCLUDE_DIRS LIST_DIRECTORIES true
     ${PROJECT_SOURCE_DIR}/record/* ${PROJECT_SOURCE_DIR}/analyze/*)
list(FILTER TT_FUZZ_INCLUDE_DIRS EXCLUDE REGEX "\\.(c|txt)$")

function(tt_add_fuzz_target name)
  set(srcs ${TT_FUZZ_DIR}/${name}.c ${TT_FUZZ_DIR}/fuzz_common.c ${ARGN})
  if(TT_FUZZ_LIBFUZZER)
    add_executable(${name} ${srcs})
    target_compile_options(${name} PRIVATE -fsanitize=fuzzer ${TT_FUZZ_SAN})
    target_link_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined)
    target_link_libraries(${name} PRIVATE ttcommon_fuzz)
    # Replays the corpus once (-runs=0) as a smoke test of the binary.
    set(dirs ${TT_FUZZ_DIR}/corpus/${name})
    if(EXISTS ${TT_FUZZ_DIR}/crashes/${name})
      list(APPEND dirs ${TT_FUZZ_DIR}/crashes/${name})
    endif()
    add_test(NAME ${name}_regress COMMAND ${name} -runs=0 ${dirs})
  else()
    add_executable(${name} ${srcs} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz_regress_main.c)
    target_link_libraries(${name} PRIVATE tt_trace_writer tt_common)
    add_test(NAME ${name}_regress
             COMMAND ${name} ${TT_FUZZ_DIR}/corpus/${name}
                     ${TT_FUZZ_DIR}/crashes/${name})
  endif()
  target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}
                             ${TT_FUZZ_DIR} ${TT_FUZZ_INCLUDE_DIRS})
  set_tests_properties(${name}_regress PROPERTIES TIMEOUT 120)
endfunction()


# The analyzer's modules (all but its main) as a library, so the targets
# that use analyze/load.c or json_writer.c keep linking whatever those come
# to depend on. In the libFuzzer build it is instrumented like common/, and
# others' warnings there do not stop fuzzing.
file(GLOB TT_FUZZ_ANALYZE_SOURCES CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/analyze/*/*.c)
add_library(ttanalyze_fuzz STATIC ${TT_FUZZ_ANALYZE_SOURCES})
target_include_directories(ttanalyze_fuzz PUBLIC ${TT_FUZZ_INCLUDE_DIRS})
if(TT_FUZZ_LIBFUZZER)
  target_compile_options(ttanalyze_fuzz PRIVATE -fsanitize=fuzzer-no-link
                         ${TT_FUZZ_SAN} -Wno-error)
  target_link_libraries(ttanalyze_fuzz PUBLIC ttcommon_fuzz)
else()
  target_link_libraries(ttanalyze_fuzz PUBLIC tt_common)
endif()

tt_add_fuzz_target(fuzz_mp)
tt_add_fuzz_target(fuzz_trace_reader)
target_link_libraries(fuzz_trace_reader PRIVATE ttanalyze_fuzz)
tt_add_fuzz_target(fuzz_stream_events)
tt_add_fuzz_target(fuzz_workload ${PROJECT_SOURCE_DIR}/record/workload/workload.c
                   ${PROJECT_SOURCE_DIR}/record/workload/workload_jsonl.c
                   ${TT_FUZZ_DIR}/prompts_stub.c)
tt_add_fuzz_target(fuzz_analyze_load)
target_link_libraries(fuzz_analyze_load PRIVATE ttanalyze_fuzz)
tt_add_fuzz_target(fuzz_cline_settings ${PROJECT_SOURCE_DIR}/record/config/cline_settings.c
                   ${PROJECT_SOURCE_DIR}/record/config/jsonc.c
                   ${PROJECT_SOURCE_DIR}/record/config/secret.c
                   ${PROJECT_SOURCE_DIR}/record/config/cli_values.c
                   ${PROJECT_SOURCE_DIR}/record/config/sanitize.c)

# Damaged traces fed to the analyzer CLI (truncation, corruption, absurd
# lengths): no crash, no hang, the damage named by file and byte.
tt_add_script_test(damage_truncate damage_truncate.sh)
tt_add_script_test(damage_corrupt damage_corrupt.sh)
tt_add_script_test(damage_huge damage_huge.sh)
