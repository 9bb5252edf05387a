# tokentrace-record: unit tests of its modules, and end-to-end runs against
# tokentrace-replay over loopback HTTP through real libcurl.
set(TT_REC ${PROJECT_SOURCE_DIR}/record)

tt_add_unit_test(record_base_url_test record_base_url_test.c ${TT_REC}/base_url.c)
tt_add_unit_test(record_schedule_test record_schedule_test.c ${TT_REC}/schedule.c)
tt_add_unit_test(record_sanitize_test record_sanitize_test.c ${TT_REC}/sanitize.c
                 ${TT_REC}/resp_headers.c)
tt_add_unit_test(record_token_scan_test record_token_scan_test.c ${TT_REC}/token_scan.c)
tt_add_unit_test(record_workload_test record_workload_test.c ${TT_REC}/workload.c
                 ${TT_REC}/workload_jsonl.c ${TT_REC}/request_body.c)
tt_add_unit_test(record_error_kind_test record_error_kind_test.c ${TT_REC}/error_kind.c)
target_link_libraries(record_error_kind_test PRIVATE PkgConfig::CURL)
foreach(t record_base_url_test record_schedule_test record_sanitize_test
          record_token_scan_test record_workload_test record_error_kind_test)
  target_include_directories(${t} PRIVATE ${TT_REC})
endforeach()

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
