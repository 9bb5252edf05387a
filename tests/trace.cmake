# Trace format: writer/reader round trip, damage, limits (common/trace*.c, mp.c).
tt_add_unit_test(test_trace test_trace.c LIBS tt_trace_writer)
tt_add_unit_test(test_mp test_mp.c)
# The reader's chunk fast path against its general path, on every input.
tt_add_unit_test(test_trace_fast test_trace_fast.c LIBS tt_trace_writer)
target_compile_definitions(test_trace_fast PRIVATE
                           TT_FUZZ_DIR="${CMAKE_CURRENT_SOURCE_DIR}/fuzz")
# Both fast paths end to end: recorded streams, every analyzer command with
# TOKENTRACE_NO_FAST_PATH on and off (test_stream_scan is in sse.cmake).
tt_add_script_test(analyze_fast_path analyze_fast_path.sh)
set_property(TEST analyze_fast_path APPEND PROPERTY ENVIRONMENT
             "TT_STREAM_SCAN_TEST=$<TARGET_FILE:test_stream_scan>")
tt_add_script_test(analyze_dump_check analyze_dump_check.sh)
tt_add_unit_test(test_id_map test_id_map.c LIBS tt_load)
