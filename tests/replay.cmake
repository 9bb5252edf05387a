# tokentrace-replay: unit tests of its parsers, end-to-end tests over real
# loopback HTTP (curl) against the running server.

tt_add_unit_test(replay_synth_spec_test replay_synth_spec_test.c LIBS tt_replay)

tt_add_unit_test(replay_faults_test replay_faults_test.c LIBS tt_replay)

tt_add_unit_test(replay_request_test replay_request_test.c LIBS tt_replay)

# Writes the small trace that replay_trace.sh serves back.
add_executable(replay_trace_gen replay_trace_gen.c)
target_link_libraries(replay_trace_gen PRIVATE tt_trace_writer tt_common)

tt_add_script_test(replay_cli replay_cli.sh)
tt_add_script_test(replay_streams replay_streams.sh)
tt_add_script_test(replay_faults replay_faults.sh)
tt_add_script_test(replay_timing replay_timing.sh)
tt_add_script_test(replay_concurrency replay_concurrency.sh)
tt_add_script_test(replay_trace replay_trace.sh)
tt_add_script_test(replay_valgrind replay_valgrind.sh)
set_property(TEST replay_valgrind APPEND PROPERTY ENVIRONMENT
             "TT_REPLAY_TRACE_GEN=$<TARGET_FILE:replay_trace_gen>")
set_property(TEST replay_trace APPEND PROPERTY ENVIRONMENT
             "TT_REPLAY_TRACE_GEN=$<TARGET_FILE:replay_trace_gen>")
