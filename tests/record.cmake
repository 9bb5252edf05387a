# tokentrace-record: unit tests of its modules, and end-to-end runs against
# tokentrace-replay over loopback HTTP through real libcurl.

tt_add_unit_test(record_base_url_test record_base_url_test.c LIBS tt_config)
tt_add_unit_test(record_schedule_test record_schedule_test.c LIBS tt_workload)
tt_add_unit_test(record_sanitize_test record_sanitize_test.c
                 LIBS tt_config tt_net)
tt_add_unit_test(record_token_scan_test record_token_scan_test.c LIBS tt_net)
tt_add_unit_test(record_workload_test record_workload_test.c LIBS tt_workload)
tt_add_unit_test(record_error_kind_test record_error_kind_test.c LIBS tt_net)
tt_add_unit_test(record_line_guard_test record_line_guard_test.c LIBS tt_net)
tt_add_unit_test(record_progress_test record_progress_test.c LIBS tt_run)

tt_add_script_test(record_api_kinds record_api_kinds.sh)
tt_add_script_test(record_faults record_faults.sh)
tt_add_script_test(record_open_loop record_open_loop.sh)
tt_add_script_test(record_sigkill record_sigkill.sh)
tt_add_script_test(record_sigint record_sigint.sh)
tt_add_script_test(record_key record_key.sh)
tt_add_script_test(record_usage record_usage.sh)
tt_add_script_test(record_options record_options.sh)
tt_add_script_test(record_rerecord record_rerecord.sh)
# Timing-sensitive: not run beside other tests when ctest runs in parallel.
set_tests_properties(record_rerecord record_open_loop PROPERTIES RUN_SERIAL TRUE)

# Failing servers and memory bounds: the peak RSS of a command comes from
# tests/bench/rusage.c (wait4), built here as tt_rusage.
add_executable(tt_rusage bench/rusage.c)
tt_add_script_test(record_oversized record_oversized.sh)
set_property(TEST record_oversized APPEND PROPERTY ENVIRONMENT
             "TT_RUSAGE=$<TARGET_FILE:tt_rusage>")

# --retry (429/503 re-sent after Retry-After) and TLS verification
# (--insecure, --cacert) against a local HTTPS server.
tt_add_unit_test(record_retry_test record_retry_test.c LIBS tt_run)
tt_add_script_test(record_retry record_retry.sh)
tt_add_script_test(record_tls record_tls.sh)
tt_add_script_test(record_big_stream record_big_stream.sh)
set_property(TEST record_big_stream APPEND PROPERTY ENVIRONMENT
             "TT_RUSAGE=$<TARGET_FILE:tt_rusage>")
# Moves a gigabyte through loopback and the disk: alone.
set_tests_properties(record_big_stream PROPERTIES RUN_SERIAL TRUE)
tt_add_script_test(record_valgrind record_valgrind.sh)
tt_add_script_test(record_secrets record_secrets.sh)
