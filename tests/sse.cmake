# Unit tests of the offline stream foundation: SSE parsing, stream events,
# statistics.
tt_add_unit_test(test_sse test_sse.c)
# common/sse.c against its frozen byte-by-byte reference (tests/sse_ref.c) on
# every fuzz corpus and crash file and generated streams, cut every way.
tt_add_unit_test(test_sse_diff test_sse_diff.c sse_ref.c)
target_compile_definitions(test_sse_diff PRIVATE
                           TT_FUZZ_DIR="${CMAKE_CURRENT_SOURCE_DIR}/fuzz")
tt_add_unit_test(test_stream_events test_stream_events.c)
# The JSON fast scan against cJSON on every corpus input (stream_scan.c).
tt_add_unit_test(test_stream_scan test_stream_scan.c)
target_compile_definitions(test_stream_scan PRIVATE
                           TT_FUZZ_DIR="${CMAKE_CURRENT_SOURCE_DIR}/fuzz")
tt_add_unit_test(test_stats test_stats.c LIBS tt_metrics)
