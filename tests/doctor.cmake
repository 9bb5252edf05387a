# Channel doctor (--check), Cline settings, and real-world stream shapes:
# unit tests of the pure modules, and end-to-end runs against
# tokentrace-replay over loopback HTTP through real libcurl.
set(TT_REC ${PROJECT_SOURCE_DIR}/record)

tt_add_unit_test(record_jsonc_test record_jsonc_test.c ${TT_REC}/jsonc.c)
tt_add_unit_test(record_check_verdict_test record_check_verdict_test.c
                 ${TT_REC}/check_verdict.c ${TT_REC}/check_expand.c
                 ${TT_REC}/check_notes.c
                 ${TT_REC}/check_body.c ${TT_REC}/check_models.c
                 ${TT_REC}/sanitize.c)
target_link_libraries(record_check_verdict_test PRIVATE PkgConfig::CURL)
tt_add_unit_test(record_cline_settings_test record_cline_settings_test.c
                 ${TT_REC}/cline_settings.c ${TT_REC}/jsonc.c ${TT_REC}/secret.c
                 ${TT_REC}/cli_values.c ${TT_REC}/sanitize.c)
foreach(t record_jsonc_test record_check_verdict_test
          record_cline_settings_test)
  target_include_directories(${t} PRIVATE ${TT_REC})
endforeach()

tt_add_script_test(record_check_ok record_check_ok.sh)
tt_add_script_test(record_check_http record_check_http.sh)
tt_add_script_test(record_check_net record_check_net.sh)
tt_add_script_test(record_cline_settings record_cline_settings.sh)
tt_add_script_test(record_cline_print record_cline_print.sh)
tt_add_script_test(record_shapes record_shapes.sh)
